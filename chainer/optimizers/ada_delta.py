"""AdaDelta (Zeiler, "ADADELTA: An Adaptive Learning Rate Method", 2012)::

    msg = rho * msg + (1 - rho) * grad ** 2
    dx = sqrt((msdx + eps) / (msg + eps)) * grad
    msdx = rho * msdx + (1 - rho) * dx ** 2
    param -= dx
"""

from chainer import optimizer

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.rho = 0.95
_default_hyperparam.eps = 1e-6


class AdaDeltaRule(optimizer.UpdateRule):
    """The update rule of :class:`AdaDelta` (state: ``msg``, ``msdx``).

    Args:
        parent_hyperparam (~chainer.optimizer.Hyperparameter): Where unset
            hyperparameters come from (the module defaults if None).
        rho (float): Exponential decay rate of the moments.
        eps (float): Small value for numerical stability.
    """

    is_elementwise = True

    def __init__(self, parent_hyperparam=None, rho=None, eps=None):
        super().__init__(optimizer._parent_or(parent_hyperparam,
                                              _default_hyperparam))
        optimizer._set_given(self.hyperparam, rho=rho, eps=eps)

    def init_state(self, param):
        xp = param.xp
        self.state['msg'] = xp.zeros_like(param.array)
        self.state['msdx'] = xp.zeros_like(param.array)

    def update_core_cpu(self, param):
        grad = param.grad
        if grad is None:
            return
        hp = self.hyperparam
        xp = param.xp
        msg, msdx = self.state['msg'], self.state['msdx']
        msg *= hp.rho
        msg += (1 - hp.rho) * grad * grad
        dx = xp.sqrt((msdx + hp.eps) / (msg + hp.eps)) * grad
        msdx *= hp.rho
        msdx += (1 - hp.rho) * dx * dx
        param.array -= dx

    update_core_gpu = update_core_cpu


class AdaDelta(optimizer.GradientMethod):
    """Zeiler's ADADELTA.

    Args:
        rho (float): Exponential decay rate of the moments.
        eps (float): Small value for numerical stability.
    """

    rho = optimizer.HyperparameterProxy('rho')
    eps = optimizer.HyperparameterProxy('eps')

    def __init__(self, rho=_default_hyperparam.rho,
                 eps=_default_hyperparam.eps):
        super().__init__()
        self.hyperparam.rho = rho
        self.hyperparam.eps = eps

    def create_update_rule(self):
        return AdaDeltaRule(self.hyperparam)
