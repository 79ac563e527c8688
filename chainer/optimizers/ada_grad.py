"""AdaGrad (Duchi et al., 2011)::

    h += grad ** 2
    param -= lr * grad / (sqrt(h) + eps)
"""

from chainer import optimizer

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.001
_default_hyperparam.eps = 1e-8


class AdaGradRule(optimizer.UpdateRule):
    """The update rule of :class:`AdaGrad` (state: ``h``).

    Args:
        parent_hyperparam (~chainer.optimizer.Hyperparameter): Where unset
            hyperparameters come from (the module defaults if None).
        lr (float): Learning rate.
        eps (float): Small value for numerical stability.
    """

    is_elementwise = True

    def __init__(self, parent_hyperparam=None, lr=None, eps=None):
        super().__init__(optimizer._parent_or(parent_hyperparam,
                                              _default_hyperparam))
        optimizer._set_given(self.hyperparam, lr=lr, eps=eps)

    def init_state(self, param):
        self.state['h'] = param.xp.zeros_like(param.array)

    def update_core_cpu(self, param):
        grad = param.grad
        if grad is None:
            return
        hp = self.hyperparam
        h = self.state['h']
        h += grad * grad
        denom = param.xp.sqrt(h)
        denom += hp.eps
        param.array -= hp.lr * grad / denom

    update_core_gpu = update_core_cpu


class AdaGrad(optimizer.GradientMethod):
    """AdaGrad optimizer.

    Args:
        lr (float): Learning rate.
        eps (float): Small value for numerical stability.
    """

    lr = optimizer.HyperparameterProxy('lr')
    eps = optimizer.HyperparameterProxy('eps')

    def __init__(self, lr=_default_hyperparam.lr,
                 eps=_default_hyperparam.eps):
        super().__init__()
        self.hyperparam.lr = lr
        self.hyperparam.eps = eps

    def create_update_rule(self):
        return AdaGradRule(self.hyperparam)
