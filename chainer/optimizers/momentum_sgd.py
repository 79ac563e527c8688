"""Momentum SGD: ``v = momentum * v - lr * grad; param += v``."""

from chainer import optimizer
from chainer.optimizers import _base

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.01
_default_hyperparam.momentum = 0.9


class _MomentumRule(_base.ElementwiseRule):
    # The hyperparameters and the velocity ``v`` of the momentum rules
    # (also of NesterovAG and CorrectedMomentumSGD).

    _zero_state = ('v',)

    def __init__(self, parent_hyperparam=None, lr=None, momentum=None):
        super().__init__(parent_hyperparam, lr=lr, momentum=momentum)


class _MomentumMethod(_base.GradientMethod):

    lr = optimizer.HyperparameterProxy('lr')
    momentum = optimizer.HyperparameterProxy('momentum')

    def __init__(self, lr=_default_hyperparam.lr,
                 momentum=_default_hyperparam.momentum):
        super().__init__(lr=lr, momentum=momentum)


class MomentumSGDRule(_MomentumRule):
    """The update rule of :class:`MomentumSGD` (state: ``v``).

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
        v -= hp.lr * grad
        param.array += v


class MomentumSGD(_MomentumMethod):
    """Classical momentum SGD.

    Args:
        lr (float): Learning rate.
        momentum (float): Exponential decay rate of the velocity.
    """

    _rule = MomentumSGDRule
