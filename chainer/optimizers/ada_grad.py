"""AdaGrad (Duchi et al., 2011)::

    h += grad ** 2
    param -= lr * grad / (sqrt(h) + eps)
"""

from chainer import optimizer
from chainer.optimizers import _base

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.001
_default_hyperparam.eps = 1e-8


class AdaGradRule(_base.ElementwiseRule):
    """The update rule of :class:`AdaGrad` (state: ``h``).

    Args:
        parent_hyperparam (~chainer.optimizer.Hyperparameter): Where unset
            hyperparameters come from (the module defaults if None).
        lr (float): Learning rate.
        eps (float): Small value for numerical stability.
    """

    _defaults = _default_hyperparam
    _zero_state = ('h',)

    def __init__(self, parent_hyperparam=None, lr=None, eps=None):
        super().__init__(parent_hyperparam, lr=lr, eps=eps)

    def _update(self, param, grad, hp):
        h = self.state['h']
        h += grad * grad
        denom = param.xp.sqrt(h)
        denom += hp.eps
        param.array -= hp.lr * grad / denom


class AdaGrad(_base.GradientMethod):
    """AdaGrad optimizer.

    Args:
        lr (float): Learning rate.
        eps (float): Small value for numerical stability.
    """

    _rule = AdaGradRule
    lr = optimizer.HyperparameterProxy('lr')
    eps = optimizer.HyperparameterProxy('eps')

    def __init__(self, lr=_default_hyperparam.lr,
                 eps=_default_hyperparam.eps):
        super().__init__(lr=lr, eps=eps)
