"""SMORMS3 (Simon Funk, "RMSprop loses to SMORMS3 - Beware the Epsilon!",
2015): RMSprop with a per-element memory length ``mem``::

    r = 1 / (mem + 1)
    g = (1 - r) * g + r * grad
    g2 = (1 - r) * g2 + r * grad ** 2
    x = g ** 2 / (g2 + eps)
    param -= grad * min(lr, x) / (sqrt(g2) + eps)
    mem = 1 + mem * (1 - x)
"""

from chainer import optimizer
from chainer.optimizers import _base

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.001
_default_hyperparam.eps = 1e-16


class SMORMS3Rule(_base.ElementwiseRule):
    """The update rule of :class:`SMORMS3` (state: ``mem``, ``g``, ``g2``).

    Args:
        parent_hyperparam (~chainer.optimizer.Hyperparameter): Where unset
            hyperparameters come from (the module defaults if None).
        lr (float): Learning rate.
        eps (float): Small value for numerical stability.
    """

    _defaults = _default_hyperparam
    _zero_state = ('g', 'g2')

    def __init__(self, parent_hyperparam=None, lr=None, eps=None):
        super().__init__(parent_hyperparam, lr=lr, eps=eps)

    def init_state(self, param):
        self.state['mem'] = param.xp.ones_like(param.array)
        super().init_state(param)

    def _update(self, param, grad, hp):
        xp = param.xp
        mem, g, g2 = self.state['mem'], self.state['g'], self.state['g2']
        r = 1 / (mem + 1)
        g[...] = (1 - r) * g + r * grad
        g2[...] = (1 - r) * g2 + r * grad * grad
        x = g * g / (g2 + hp.eps)
        param.array -= grad * xp.minimum(x, hp.lr) / (xp.sqrt(g2) + hp.eps)
        mem[...] = 1 + mem * (1 - x)


class SMORMS3(_base.GradientMethod):
    """Simon Funk's SMORMS3.

    Args:
        lr (float): Learning rate.
        eps (float): Small value for numerical stability.
    """

    _rule = SMORMS3Rule
    lr = optimizer.HyperparameterProxy('lr')
    eps = optimizer.HyperparameterProxy('eps')

    def __init__(self, lr=_default_hyperparam.lr,
                 eps=_default_hyperparam.eps):
        super().__init__(lr=lr, eps=eps)
