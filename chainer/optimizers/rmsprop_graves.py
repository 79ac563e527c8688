"""Alex Graves's RMSprop ("Generating Sequences With Recurrent Neural
Networks", 2013), which centres the second moment and adds momentum::

    n = alpha * n + (1 - alpha) * grad ** 2
    g = alpha * g + (1 - alpha) * grad
    delta = momentum * delta - lr * grad / sqrt(n - g ** 2 + eps)
    param += delta
"""

from chainer import optimizer
from chainer.optimizers import _base

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 1e-4
_default_hyperparam.alpha = 0.95
_default_hyperparam.momentum = 0.9
_default_hyperparam.eps = 1e-4


class RMSpropGravesRule(_base.ElementwiseRule):
    """The update rule of :class:`RMSpropGraves` (state: ``n``, ``g``,
    ``delta``).

    Args:
        parent_hyperparam (~chainer.optimizer.Hyperparameter): Where unset
            hyperparameters come from (the module defaults if None).
        lr (float): Learning rate.
        alpha (float): Exponential decay rate of the moments.
        momentum (float): Exponential decay rate of the step.
        eps (float): Small value for numerical stability.
    """

    _defaults = _default_hyperparam
    _zero_state = ('n', 'g', 'delta')

    def __init__(self, parent_hyperparam=None, lr=None, alpha=None,
                 momentum=None, eps=None):
        super().__init__(parent_hyperparam, lr=lr, alpha=alpha,
                         momentum=momentum, eps=eps)

    def _update(self, param, grad, hp):
        xp = param.xp
        n, g, delta = self.state['n'], self.state['g'], self.state['delta']
        n *= hp.alpha
        n += (1 - hp.alpha) * grad * grad
        g *= hp.alpha
        g += (1 - hp.alpha) * grad
        delta *= hp.momentum
        delta -= hp.lr * grad / xp.sqrt(n - g * g + hp.eps)
        param.array += delta


class RMSpropGraves(_base.GradientMethod):
    """Alex Graves's centred RMSprop with momentum.

    Args:
        lr (float): Learning rate.
        alpha (float): Exponential decay rate of the moments.
        momentum (float): Exponential decay rate of the step.
        eps (float): Small value for numerical stability.
    """

    _rule = RMSpropGravesRule
    lr = optimizer.HyperparameterProxy('lr')
    alpha = optimizer.HyperparameterProxy('alpha')
    momentum = optimizer.HyperparameterProxy('momentum')
    eps = optimizer.HyperparameterProxy('eps')

    def __init__(self, lr=_default_hyperparam.lr,
                 alpha=_default_hyperparam.alpha,
                 momentum=_default_hyperparam.momentum,
                 eps=_default_hyperparam.eps):
        super().__init__(lr=lr, alpha=alpha, momentum=momentum, eps=eps)
