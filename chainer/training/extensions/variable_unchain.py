"""unchain_variables: frees the graphs of the reported variables."""

from chainer import variable
from chainer.training import extension


class unchain_variables(extension.Extension):  # Chainer's (lowercase) name
    """Unchains (``unchain_backward``) every Variable of the observation
    after each iteration, so the graphs they keep (with
    ``keep_graph_on_report``) are freed. It runs after all the other
    extensions (priority 0) at every iteration."""

    priority = 0

    def trigger(self, trainer):
        return True

    def __call__(self, trainer):
        for value in trainer.observation.values():
            if isinstance(value, variable.Variable):
                value.unchain_backward()
