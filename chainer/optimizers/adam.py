"""Adam and its variants: AdamW, AMSGrad, AdaBound and AMSBound.

One rule covers them all::

    m += (1 - beta1) * (grad - m)
    v += (1 - beta2) * (grad ** 2 - v)
    vhat = max(vhat, v) if amsgrad else v
    alpha_t = alpha * sqrt(1 - beta2 ** t) / (1 - beta1 ** t)
    step = alpha_t / (sqrt(vhat) + eps)
    step = clip(step, lower, upper) if adabound else step
    param *= 1 - eta * weight_decay_rate
    param -= eta * step * m

The weight decay is decoupled from the gradient (Loshchilov and Hutter,
"Decoupled Weight Decay Regularization"); AdaBound's bounds (Luo et al.,
2019) close in on ``final_lr`` (scaled along with ``alpha``) as ``t`` grows.
"""

import math
import warnings

import numpy

from chainer import optimizer
from chainer.optimizers import _base

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.alpha = 0.001
_default_hyperparam.beta1 = 0.9
_default_hyperparam.beta2 = 0.999
_default_hyperparam.eps = 1e-8
_default_hyperparam.eta = 1.0
_default_hyperparam.weight_decay_rate = 0
_default_hyperparam.amsgrad = False
_default_hyperparam.adabound = False
_default_hyperparam.final_lr = 0.1
_default_hyperparam.gamma = 1e-3


def _learning_rate(hp, t):
    if t == 0:
        raise RuntimeError(
            "Can't determine the learning rate of Adam optimizer "
            'because the update steps have not been started.')
    fix1 = 1. - math.pow(hp.beta1, t)
    fix2 = 1. - math.pow(hp.beta2, t)
    return hp.alpha * math.sqrt(fix2) / fix1


class AdamRule(_base.ElementwiseRule):
    """The update rule of :class:`Adam` and its variants (state: ``m``,
    ``v``, and ``vhat`` with ``amsgrad``).

    Args:
        parent_hyperparam (~chainer.optimizer.Hyperparameter): Where unset
            hyperparameters come from (the module defaults if None).
        alpha (float): Coefficient of the learning rate.
        beta1 (float): Exponential decay rate of the first moment.
        beta2 (float): Exponential decay rate of the second moment.
        eps (float): Small value for numerical stability.
        eta (float): Schedule multiplier (for learning-rate schedules).
        weight_decay_rate (float): Decoupled weight decay rate.
        amsgrad (bool): Use the running maximum of the second moment.
        adabound (bool): Clip the step size into AdaBound's bounds.
        final_lr (float): AdaBound's final (SGD) learning rate.
        gamma (float): AdaBound's convergence speed of the bounds.
    """

    _defaults = _default_hyperparam
    _zero_state = ('m', 'v')

    def __init__(self, parent_hyperparam=None, alpha=None, beta1=None,
                 beta2=None, eps=None, eta=None, weight_decay_rate=None,
                 amsgrad=None, adabound=None, final_lr=None, gamma=None):
        super().__init__(
            parent_hyperparam, alpha=alpha, beta1=beta1, beta2=beta2, eps=eps,
            eta=eta, weight_decay_rate=weight_decay_rate, amsgrad=amsgrad,
            adabound=adabound, final_lr=final_lr, gamma=gamma)
        self.initial_alpha = None

    def init_state(self, param):
        # The moments have the parameter's dtype, float16 too, as in
        # Chainer (whose programs print their values); for float16 weights
        # use_fp32_update() keeps float32 copies, moments included.
        array = param.array
        names = ('m', 'v', 'vhat') if self.hyperparam.amsgrad else ('m', 'v')
        for name in names:
            self.state[name] = param.xp.zeros_like(array)
        if self.hyperparam.adabound:
            self.initial_alpha = self.hyperparam.alpha

    def _update(self, param, grad, hp):
        xp = param.xp
        dtype = grad.dtype
        # float16 gradients are used in float32 arithmetic, the moments
        # stored back in their dtype (Chainer's rounding)
        work = numpy.float32 if dtype == numpy.float16 else dtype
        m, v = self.state['m'], self.state['v']
        g = grad.astype(work, copy=False)
        m[...] = m + (1 - hp.beta1) * (g - m)
        v[...] = v + (1 - hp.beta2) * (g * g - v)
        new_m = m
        new_v = v
        if hp.amsgrad:
            vhat = self.state['vhat']
            xp.maximum(vhat, v, out=vhat)
            new_v = vhat
        step = self.alpha_t / (xp.sqrt(new_v.astype(work, copy=False)) +
                               hp.eps)
        if hp.adabound:
            lower, upper = self.bounds
            if isinstance(step, xp.ndarray):
                xp.clip(step, lower, upper, out=step)
            else:  # a 0-d parameter gives a scalar step
                step = xp.clip(step, lower, upper)
        if hp.weight_decay_rate != 0:
            # decay first, as a scale (Chainer's rounding order)
            param.array *= 1 - hp.eta * hp.weight_decay_rate
        update = hp.eta * (step * new_m)
        param.array -= update  # rounded once, to the dtype of param

    @property
    def alpha_t(self):
        """The bias-corrected learning rate at step ``t``."""
        return _learning_rate(self.hyperparam, self.t)

    @property
    def lr(self):
        """Deprecated alias of :attr:`alpha_t`."""
        warnings.warn(
            'AdamRule.lr has been renamed to AdamRule.alpha_t. '
            'Use of AdamRule.lr is deprecated in Chainer v6.',
            DeprecationWarning)
        return self.alpha_t

    @property
    def bounds(self):
        """AdaBound's ``(lower, upper)`` step bounds at step ``t``."""
        if self.t == 0:
            raise RuntimeError(
                "Can't determine the bounds of AdaBound optimizer "
                'because the update steps have not been started.')
        hp = self.hyperparam
        initial_alpha = self.initial_alpha
        if initial_alpha is None:
            # e.g. a rule whose state was loaded by a deserializer
            initial_alpha = self.initial_alpha = hp.alpha
        final_lr = hp.final_lr * hp.alpha / initial_alpha
        lower = final_lr * (1.0 - 1.0 / (hp.gamma * self.t + 1))
        upper = final_lr * (1.0 + 1.0 / (hp.gamma * self.t))
        return lower, upper


class Adam(_base.GradientMethod):
    """Adam optimizer (Kingma and Ba, 2015), with optional decoupled weight
    decay, AMSGrad and AdaBound.

    Args:
        alpha (float): Coefficient of the learning rate.
        beta1 (float): Exponential decay rate of the first moment.
        beta2 (float): Exponential decay rate of the second moment.
        eps (float): Small value for numerical stability.
        eta (float): Schedule multiplier (for learning-rate schedules).
        weight_decay_rate (float): Decoupled weight decay rate.
        amsgrad (bool): Use AMSGrad (the running maximum of the second
            moment).
        adabound (bool): Use AdaBound (clip the step into bounds that
            converge to ``final_lr``).
        final_lr (float): AdaBound's final (SGD) learning rate.
        gamma (float): AdaBound's convergence speed of the bounds.
    """

    _rule = AdamRule
    alpha = optimizer.HyperparameterProxy('alpha')
    beta1 = optimizer.HyperparameterProxy('beta1')
    beta2 = optimizer.HyperparameterProxy('beta2')
    eps = optimizer.HyperparameterProxy('eps')
    eta = optimizer.HyperparameterProxy('eta')
    weight_decay_rate = optimizer.HyperparameterProxy('weight_decay_rate')
    amsgrad = optimizer.HyperparameterProxy('amsgrad')
    adabound = optimizer.HyperparameterProxy('adabound')
    final_lr = optimizer.HyperparameterProxy('final_lr')
    gamma = optimizer.HyperparameterProxy('gamma')

    def __init__(self,
                 alpha=_default_hyperparam.alpha,
                 beta1=_default_hyperparam.beta1,
                 beta2=_default_hyperparam.beta2,
                 eps=_default_hyperparam.eps,
                 eta=_default_hyperparam.eta,
                 weight_decay_rate=_default_hyperparam.weight_decay_rate,
                 amsgrad=_default_hyperparam.amsgrad,
                 adabound=_default_hyperparam.adabound,
                 final_lr=_default_hyperparam.final_lr,
                 gamma=_default_hyperparam.gamma):
        super().__init__(
            alpha=alpha, beta1=beta1, beta2=beta2, eps=eps, eta=eta,
            weight_decay_rate=weight_decay_rate, amsgrad=amsgrad,
            adabound=adabound, final_lr=final_lr, gamma=gamma)

    @property
    def alpha_t(self):
        """The bias-corrected learning rate at the optimizer's step ``t``."""
        return _learning_rate(self.hyperparam, self.t)

    @property
    def lr(self):
        """Deprecated alias of :attr:`alpha_t`."""
        warnings.warn(
            'Adam.lr has been renamed to AdamRule.alpha_t. '
            'Use of Adam.lr is deprecated in Chainer v6.',
            DeprecationWarning)
        return self.alpha_t


class AdamW(Adam):
    """Adam with decoupled weight decay (Loshchilov and Hutter).

    Args:
        alpha (float): Coefficient of the learning rate.
        beta1 (float): Exponential decay rate of the first moment.
        beta2 (float): Exponential decay rate of the second moment.
        eps (float): Small value for numerical stability.
        eta (float): Schedule multiplier (for learning-rate schedules).
        weight_decay_rate (float): Decoupled weight decay rate.
    """

    def __init__(self,
                 alpha=_default_hyperparam.alpha,
                 beta1=_default_hyperparam.beta1,
                 beta2=_default_hyperparam.beta2,
                 eps=_default_hyperparam.eps,
                 eta=_default_hyperparam.eta,
                 weight_decay_rate=_default_hyperparam.weight_decay_rate):
        super().__init__(alpha=alpha, beta1=beta1, beta2=beta2, eps=eps,
                         eta=eta, weight_decay_rate=weight_decay_rate)


class AMSGrad(Adam):
    """Adam with the running maximum of the second moment (Reddi et al.,
    "On the Convergence of Adam and Beyond", 2018).

    Args:
        alpha (float): Coefficient of the learning rate.
        beta1 (float): Exponential decay rate of the first moment.
        beta2 (float): Exponential decay rate of the second moment.
        eps (float): Small value for numerical stability.
        eta (float): Schedule multiplier (for learning-rate schedules).
    """

    def __init__(self,
                 alpha=_default_hyperparam.alpha,
                 beta1=_default_hyperparam.beta1,
                 beta2=_default_hyperparam.beta2,
                 eps=_default_hyperparam.eps,
                 eta=_default_hyperparam.eta):
        super().__init__(alpha=alpha, beta1=beta1, beta2=beta2, eps=eps,
                         eta=eta, amsgrad=True)


class AdaBound(Adam):
    """Adam whose step is clipped into bounds converging to ``final_lr``
    (Luo et al., "Adaptive Gradient Methods with Dynamic Bound of Learning
    Rate", 2019).

    Args:
        alpha (float): Coefficient of the learning rate.
        beta1 (float): Exponential decay rate of the first moment.
        beta2 (float): Exponential decay rate of the second moment.
        final_lr (float): The final (SGD) learning rate.
        gamma (float): Convergence speed of the bounds.
        eps (float): Small value for numerical stability.
        eta (float): Schedule multiplier (for learning-rate schedules).
    """

    def __init__(self,
                 alpha=_default_hyperparam.alpha,
                 beta1=_default_hyperparam.beta1,
                 beta2=_default_hyperparam.beta2,
                 final_lr=_default_hyperparam.final_lr,
                 gamma=_default_hyperparam.gamma,
                 eps=_default_hyperparam.eps,
                 eta=_default_hyperparam.eta):
        super().__init__(alpha=alpha, beta1=beta1, beta2=beta2, eps=eps,
                         eta=eta, adabound=True, final_lr=final_lr,
                         gamma=gamma)


class AMSBound(Adam):
    """AdaBound combined with AMSGrad.

    Args:
        alpha (float): Coefficient of the learning rate.
        beta1 (float): Exponential decay rate of the first moment.
        beta2 (float): Exponential decay rate of the second moment.
        final_lr (float): The final (SGD) learning rate.
        gamma (float): Convergence speed of the bounds.
        eps (float): Small value for numerical stability.
        eta (float): Schedule multiplier (for learning-rate schedules).
    """

    def __init__(self,
                 alpha=_default_hyperparam.alpha,
                 beta1=_default_hyperparam.beta1,
                 beta2=_default_hyperparam.beta2,
                 final_lr=_default_hyperparam.final_lr,
                 gamma=_default_hyperparam.gamma,
                 eps=_default_hyperparam.eps,
                 eta=_default_hyperparam.eta):
        super().__init__(alpha=alpha, beta1=beta1, beta2=beta2, eps=eps,
                         eta=eta, amsgrad=True, adabound=True,
                         final_lr=final_lr, gamma=gamma)
