"""Stochastic gradient descent: ``param -= lr * grad``."""

from chainer import optimizer
from chainer.optimizers import _base

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.01


class SGDRule(_base.ElementwiseRule):
    """The update rule of :class:`SGD`.

    Args:
        parent_hyperparam (~chainer.optimizer.Hyperparameter): Where unset
            hyperparameters come from (the module defaults if None).
        lr (float): Learning rate.
    """

    _defaults = _default_hyperparam

    def __init__(self, parent_hyperparam=None, lr=None):
        super().__init__(parent_hyperparam, lr=lr)

    def _update(self, param, grad, hp):
        param.array -= hp.lr * grad


class SGD(_base.GradientMethod):
    """Vanilla stochastic gradient descent.

    Args:
        lr (float): Learning rate.

    >>> import numpy as np
    >>> import chainer
    >>> from chainer import optimizers
    >>> opt = optimizers.SGD(lr=0.1)
    >>> rule = opt.create_update_rule()
    >>> p = chainer.Parameter(np.array([1.], np.float32))
    >>> p.grad = np.array([2.], np.float32)
    >>> rule.update(p)
    >>> p.array
    array([0.8], dtype=float32)
    """

    _rule = SGDRule
    lr = optimizer.HyperparameterProxy('lr')

    def __init__(self, lr=_default_hyperparam.lr):
        super().__init__(lr=lr)
