"""Momentum SGD with the learning rate outside the velocity:
``v = momentum * v - grad; param += lr * v``.

Changing ``lr`` during training then rescales the whole step at once (the
correction of Goyal et al., "Accurate, Large Minibatch SGD", 2017).
"""

from chainer import optimizer

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.01
_default_hyperparam.momentum = 0.9


class CorrectedMomentumSGDRule(optimizer.UpdateRule):
    """The update rule of :class:`CorrectedMomentumSGD` (state: ``v``).

    Args:
        parent_hyperparam (~chainer.optimizer.Hyperparameter): Where unset
            hyperparameters come from (the module defaults if None).
        lr (float): Learning rate.
        momentum (float): Exponential decay rate of the velocity.
    """

    is_elementwise = True

    def __init__(self, parent_hyperparam=None, lr=None, momentum=None):
        super().__init__(optimizer._parent_or(parent_hyperparam,
                                              _default_hyperparam))
        optimizer._set_given(self.hyperparam, lr=lr, momentum=momentum)

    def init_state(self, param):
        self.state['v'] = param.xp.zeros_like(param.array)

    def update_core_cpu(self, param):
        grad = param.grad
        if grad is None:
            return
        hp = self.hyperparam
        v = self.state['v']
        v *= hp.momentum
        v -= grad
        param.array += hp.lr * v

    update_core_gpu = update_core_cpu


class CorrectedMomentumSGD(optimizer.GradientMethod):
    """Momentum SGD whose velocity does not include the learning rate.

    Args:
        lr (float): Learning rate.
        momentum (float): Exponential decay rate of the velocity.
    """

    lr = optimizer.HyperparameterProxy('lr')
    momentum = optimizer.HyperparameterProxy('momentum')

    def __init__(self, lr=_default_hyperparam.lr,
                 momentum=_default_hyperparam.momentum):
        super().__init__()
        self.hyperparam.lr = lr
        self.hyperparam.momentum = momentum

    def create_update_rule(self):
        return CorrectedMomentumSGDRule(self.hyperparam)
