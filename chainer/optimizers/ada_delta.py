"""AdaDelta (Zeiler, "ADADELTA: An Adaptive Learning Rate Method", 2012)::

    msg = rho * msg + (1 - rho) * grad ** 2
    dx = sqrt((msdx + eps) / (msg + eps)) * grad
    msdx = rho * msdx + (1 - rho) * dx ** 2
    param -= dx
"""

from chainer import optimizer
from chainer.optimizers import _base

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.rho = 0.95
_default_hyperparam.eps = 1e-6


class AdaDeltaRule(_base.ElementwiseRule):
    """The update rule of :class:`AdaDelta` (state: ``msg``, ``msdx``).

    Args:
        parent_hyperparam (~chainer.optimizer.Hyperparameter): Where unset
            hyperparameters come from (the module defaults if None).
        rho (float): Exponential decay rate of the moments.
        eps (float): Small value for numerical stability.
    """

    _defaults = _default_hyperparam
    _zero_state = ('msg', 'msdx')

    def __init__(self, parent_hyperparam=None, rho=None, eps=None):
        super().__init__(parent_hyperparam, rho=rho, eps=eps)

    def _update(self, param, grad, hp):
        xp = param.xp
        msg, msdx = self.state['msg'], self.state['msdx']
        msg *= hp.rho
        msg += (1 - hp.rho) * grad * grad
        dx = xp.sqrt((msdx + hp.eps) / (msg + hp.eps)) * grad
        msdx *= hp.rho
        msdx += (1 - hp.rho) * dx * dx
        param.array -= dx


class AdaDelta(_base.GradientMethod):
    """Zeiler's ADADELTA.

    Args:
        rho (float): Exponential decay rate of the moments.
        eps (float): Small value for numerical stability.
    """

    _rule = AdaDeltaRule
    rho = optimizer.HyperparameterProxy('rho')
    eps = optimizer.HyperparameterProxy('eps')

    def __init__(self, rho=_default_hyperparam.rho,
                 eps=_default_hyperparam.eps):
        super().__init__(rho=rho, eps=eps)
