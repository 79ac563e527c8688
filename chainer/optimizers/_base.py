"""Plumbing shared by the optimizers of this package.

Each optimizer module keeps its own ``_default_hyperparam``, its named rule
and optimizer classes and their signatures; what they all repeat lives here.
"""

from chainer import optimizer


class ElementwiseRule(optimizer.UpdateRule):
    """An elementwise rule: hyperparameters that fall back to the module
    defaults (``_defaults``), state arrays ``_zero_state`` created as zeros
    like the parameter, and ``_update(param, grad, hp)`` run only when there
    is a gradient (the same code on CPU and GPU).
    """

    is_elementwise = True
    _defaults = None
    _zero_state = ()

    def __init__(self, parent_hyperparam, **hyperparams):
        super().__init__(optimizer._parent_or(parent_hyperparam,
                                              self._defaults))
        optimizer._set_given(self.hyperparam, **hyperparams)

    def init_state(self, param):
        for name in self._zero_state:
            self.state[name] = param.xp.zeros_like(param.array)

    def update_core_cpu(self, param):
        # update_core runs for every parameter; an uninitialized one has
        # nothing to update (its gradient may not even be readable).
        if param.array is not None and param.grad is not None:
            self._update(param, param.grad, self.hyperparam)

    update_core_gpu = update_core_cpu

    def _update(self, param, grad, hp):
        raise NotImplementedError


class GradientMethod(optimizer.GradientMethod):
    """A gradient method whose ``__init__`` only sets its hyperparameters
    and whose rules are ``_rule(self.hyperparam)``."""

    _rule = None

    def __init__(self, **hyperparams):
        super().__init__()
        for name, value in hyperparams.items():
            setattr(self.hyperparam, name, value)

    def create_update_rule(self):
        return self._rule(self.hyperparam)
