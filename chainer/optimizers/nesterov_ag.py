"""Nesterov's accelerated gradient, in the form of Bengio et al.
("Advances in optimizing recurrent networks", 2013), which evaluates the
gradient at the current parameter::

    v = momentum * v - lr * grad
    param += momentum ** 2 * v - (1 + momentum) * lr * grad
"""

from chainer import optimizer
from chainer.optimizers import momentum_sgd

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.01
_default_hyperparam.momentum = 0.9


class NesterovAGRule(momentum_sgd._MomentumRule):
    """The update rule of :class:`NesterovAG` (state: ``v``).

    Args:
        parent_hyperparam (~chainer.optimizer.Hyperparameter): Where unset
            hyperparameters come from (the module defaults if None).
        lr (float): Learning rate.
        momentum (float): Exponential decay rate of the velocity.
    """

    _defaults = _default_hyperparam

    def _update(self, param, grad, hp):
        lr, momentum = hp.lr, hp.momentum
        v = self.state['v']
        v *= momentum
        v -= lr * grad
        param.array += momentum * momentum * v
        param.array -= (1 + momentum) * lr * grad


class NesterovAG(momentum_sgd._MomentumMethod):
    """Nesterov's accelerated gradient.

    Args:
        lr (float): Learning rate.
        momentum (float): Exponential decay rate of the velocity.
    """

    _rule = NesterovAGRule
