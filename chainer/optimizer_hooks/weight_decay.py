"""L2 regularization as an optimizer hook."""

import chainer


class WeightDecay:
    """Adds ``rate * param`` to the gradient before the update (L2
    regularization).

    Args:
        rate (float): Coefficient of the weight decay.

    Attributes:
        rate (float): Coefficient of the weight decay.
        timing (str): ``'pre'``: called before the update.
        call_for_each_param (bool): True: called as ``hook(rule, param)``,
            so it can also be added to a single parameter's update rule.

    >>> import numpy as np
    >>> import chainer
    >>> from chainer import optimizers, optimizer_hooks
    >>> rule = optimizers.SGD(lr=1.).create_update_rule()
    >>> rule.add_hook(optimizer_hooks.WeightDecay(0.5))
    >>> p = chainer.Parameter(np.array([2.], np.float32))
    >>> p.grad = np.array([1.], np.float32)
    >>> rule.update(p)
    >>> p.array
    array([0.], dtype=float32)
    """

    name = 'WeightDecay'
    call_for_each_param = True
    timing = 'pre'

    def __init__(self, rate):
        self.rate = rate

    def __call__(self, rule, param):
        p, g = param.array, param.grad
        if p is None or g is None:
            return
        rate = self.rate
        loss_scale = param.node._loss_scale
        if loss_scale is not None:
            # The gradient is still scaled (an optimizer-level hook runs
            # before the rule divides it): scale the decay term alike.
            rate = rate * loss_scale
        with chainer.using_device(param.device):
            g += rate * p
