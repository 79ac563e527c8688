"""Momentum SGD with the learning rate outside the velocity:
``v = momentum * v - grad; param += lr * v``.

Changing ``lr`` during training then rescales the whole step at once (the
correction of Goyal et al., "Accurate, Large Minibatch SGD", 2017).
"""

from chainer import optimizer
from chainer.optimizers import momentum_sgd

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.01
_default_hyperparam.momentum = 0.9


class CorrectedMomentumSGDRule(momentum_sgd._MomentumRule):
    """The update rule of :class:`CorrectedMomentumSGD` (state: ``v``).

    Args:
        parent_hyperparam (~chainer.optimizer.Hyperparameter): Where unset
            hyperparameters come from (the module defaults if None).
        lr (float): Learning rate.
        momentum (float): Exponential decay rate of the velocity.
    """

    _defaults = _default_hyperparam

    def _update(self, param, grad, hp):
        v = self.state['v']
        v *= hp.momentum
        v -= grad
        param.array += hp.lr * v


class CorrectedMomentumSGD(momentum_sgd._MomentumMethod):
    """Momentum SGD whose velocity does not include the learning rate.

    Args:
        lr (float): Learning rate.
        momentum (float): Exponential decay rate of the velocity.
    """

    _rule = CorrectedMomentumSGDRule
