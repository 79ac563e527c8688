"""RMSprop (Tieleman and Hinton, 2012)::

    ms = alpha * ms + (1 - alpha) * grad ** 2
    param -= lr * grad / (sqrt(ms) + eps)      # or sqrt(ms + eps)
"""

from chainer import optimizer
from chainer.optimizers import _base

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.01
_default_hyperparam.alpha = 0.99
_default_hyperparam.eps = 1e-8
_default_hyperparam.eps_inside_sqrt = False


class RMSpropRule(_base.ElementwiseRule):
    """The update rule of :class:`RMSprop` (state: ``ms``).

    Args:
        parent_hyperparam (~chainer.optimizer.Hyperparameter): Where unset
            hyperparameters come from (the module defaults if None).
        lr (float): Learning rate.
        alpha (float): Exponential decay rate of the second moment.
        eps (float): Small value for numerical stability.
        eps_inside_sqrt (bool): Add ``eps`` inside the square root.
    """

    _defaults = _default_hyperparam
    _zero_state = ('ms',)

    def __init__(self, parent_hyperparam=None, lr=None, alpha=None,
                 eps=None, eps_inside_sqrt=None):
        super().__init__(parent_hyperparam, lr=lr, alpha=alpha, eps=eps,
                         eps_inside_sqrt=eps_inside_sqrt)

    def _update(self, param, grad, hp):
        eps = grad.dtype.type(hp.eps)
        if hp.eps != 0 and eps == 0:
            raise ValueError(
                'eps of RMSprop optimizer is too small for {} ({})'.format(
                    grad.dtype.name, hp.eps))
        xp = param.xp
        ms = self.state['ms']
        ms *= hp.alpha
        ms += (1 - hp.alpha) * grad * grad
        if hp.eps_inside_sqrt:
            denom = xp.sqrt(ms + eps)
        else:
            denom = xp.sqrt(ms)
            denom += eps
        param.array -= hp.lr * grad / denom


class RMSprop(_base.GradientMethod):
    """RMSprop optimizer.

    Args:
        lr (float): Learning rate.
        alpha (float): Exponential decay rate of the second moment.
        eps (float): Small value for numerical stability.
        eps_inside_sqrt (bool): Add ``eps`` inside the square root (as
            TensorFlow does) instead of outside.
    """

    _rule = RMSpropRule
    lr = optimizer.HyperparameterProxy('lr')
    alpha = optimizer.HyperparameterProxy('alpha')
    eps = optimizer.HyperparameterProxy('eps')
    eps_inside_sqrt = optimizer.HyperparameterProxy('eps_inside_sqrt')

    def __init__(self, lr=_default_hyperparam.lr,
                 alpha=_default_hyperparam.alpha, eps=_default_hyperparam.eps,
                 eps_inside_sqrt=_default_hyperparam.eps_inside_sqrt):
        super().__init__(lr=lr, alpha=alpha, eps=eps,
                         eps_inside_sqrt=eps_inside_sqrt)
