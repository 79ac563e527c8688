"""FailOnNonNumber: stops training when a parameter becomes NaN or inf."""

from chainer import backend
from chainer.training import extension


class FailOnNonNumber(extension.Extension):
    """Raises RuntimeError when a parameter of an optimizer's target holds
    a NaN or an infinity, so a diverged run stops at once."""

    def __call__(self, trainer):
        for name, optimizer in trainer.updater.get_all_optimizers().items():
            for param in optimizer.target.params():
                data = param.array
                if data is None:
                    continue
                xp = backend.get_array_module(data)
                if not bool(xp.isfinite(data).all()):
                    raise RuntimeError(
                        'Kill the process since parameters in optimizer '
                        "'{}' diverge. R.I.P.".format(name))
