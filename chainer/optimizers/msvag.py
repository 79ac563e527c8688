"""M-SVAG (Balles and Hennig, "Dissecting Adam: The Sign, Magnitude and
Variance of Stochastic Gradients", 2018): momentum SGD whose step is damped
elementwise by an estimate of the gradient's relative variance::

    m = beta * m + (1 - beta) * grad;  v = beta * v + (1 - beta) * grad ** 2
    mt = m / (1 - beta ** t);  vt = v / (1 - beta ** t)
    rho = (1 - beta) * (1 + beta ** t) / ((1 + beta) * (1 - beta ** t))
    s = (vt - mt ** 2) / (1 - min(rho, 1 - 1e-4))
    factor = clip(mt ** 2 / (mt ** 2 + rho * s), 0, 1)
    param -= eta * (lr * factor * mt + weight_decay_rate * param)
"""

import numpy

from chainer import optimizer
from chainer.optimizers import _base

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.1
_default_hyperparam.beta = 0.9
_default_hyperparam.eta = 1.0
_default_hyperparam.weight_decay_rate = 0


class MSVAGRule(_base.ElementwiseRule):
    """The update rule of :class:`MSVAG` (state: ``m``, ``v``).

    Args:
        parent_hyperparam (~chainer.optimizer.Hyperparameter): Where unset
            hyperparameters come from (the module defaults if None).
        lr (float): Learning rate.
        beta (float): Exponential decay rate of the moments.
        eta (float): Schedule multiplier (for learning-rate schedules).
        weight_decay_rate (float): Decoupled weight decay rate.
    """

    _defaults = _default_hyperparam
    _zero_state = ('m', 'v')

    def __init__(self, parent_hyperparam=None, lr=None, beta=None,
                 eta=None, weight_decay_rate=None):
        super().__init__(parent_hyperparam, lr=lr, beta=beta, eta=eta,
                         weight_decay_rate=weight_decay_rate)
        # beta ** t as Chainer keeps it: a running product from the beta
        # of the rule's creation, times the current beta after each step,
        # and not saved (a loaded rule starts it again at beta)
        self.beta_power = self.hyperparam.beta

    def _update(self, param, grad, hp):
        xp = param.xp
        beta = hp.beta
        m, v = self.state['m'], self.state['v']
        m += (1 - beta) * (grad - m)
        v += (1 - beta) * (grad * grad - v)
        beta_t = self.beta_power
        mt = m / (1 - beta_t)
        vt = v / (1 - beta_t)
        mt2 = mt * mt
        # rho is 1 at t == 1 (no variance estimate yet): capping it keeps s
        # finite, so the first step is close to plain momentum SGD.  (The
        # unsimplified form rounds as Chainer's does.)
        rho = min((1 - beta) ** 2 * (1 - beta_t ** 2) /
                  ((1 - beta_t) ** 2 * (1 - beta ** 2)), 1 - 1e-4)
        s = (vt - mt2) / (1 - rho)
        with numpy.errstate(invalid='ignore'):
            factor = xp.clip(mt2 / (mt2 + rho * s), 0, 1)
        # 0 / 0 (a zero gradient history) gives no step
        # (in place, unless a 0-d parameter made it a scalar)
        factor = xp.nan_to_num(factor, copy=not isinstance(factor, xp.ndarray))
        param.array -= hp.eta * (hp.lr * mt * factor +
                                 hp.weight_decay_rate * param.array)
        self.beta_power *= beta


class MSVAG(_base.GradientMethod):
    """M-SVAG optimizer.

    Args:
        lr (float): Learning rate.
        beta (float): Exponential decay rate of the moments.
        eta (float): Schedule multiplier (for learning-rate schedules).
        weight_decay_rate (float): Decoupled weight decay rate.
    """

    _rule = MSVAGRule
    lr = optimizer.HyperparameterProxy('lr')
    beta = optimizer.HyperparameterProxy('beta')
    eta = optimizer.HyperparameterProxy('eta')
    weight_decay_rate = optimizer.HyperparameterProxy('weight_decay_rate')

    def __init__(self, lr=_default_hyperparam.lr,
                 beta=_default_hyperparam.beta, eta=_default_hyperparam.eta,
                 weight_decay_rate=_default_hyperparam.weight_decay_rate):
        super().__init__(lr=lr, beta=beta, eta=eta,
                         weight_decay_rate=weight_decay_rate)
