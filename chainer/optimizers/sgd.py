"""Stochastic gradient descent: ``param -= lr * grad``."""

from chainer import optimizer

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.01


class SGDRule(optimizer.UpdateRule):
    """The update rule of :class:`SGD`.

    Args:
        parent_hyperparam (~chainer.optimizer.Hyperparameter): Where unset
            hyperparameters come from (the module defaults if None).
        lr (float): Learning rate.
    """

    is_elementwise = True

    def __init__(self, parent_hyperparam=None, lr=None):
        super().__init__(optimizer._parent_or(parent_hyperparam,
                                              _default_hyperparam))
        if lr is not None:
            self.hyperparam.lr = lr

    def update_core_cpu(self, param):
        grad = param.grad
        if grad is None:
            return
        param.array -= self.hyperparam.lr * grad

    update_core_gpu = update_core_cpu


class SGD(optimizer.GradientMethod):
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

    lr = optimizer.HyperparameterProxy('lr')

    def __init__(self, lr=_default_hyperparam.lr):
        super().__init__()
        self.hyperparam.lr = lr

    def create_update_rule(self):
        return SGDRule(self.hyperparam)
