"""Elementwise gradient clipping as an optimizer hook."""

import chainer


class GradientHardClipping:
    """Clips each gradient element into ``[lower_bound, upper_bound]``.

    Args:
        lower_bound (float): The lower bound (None: no lower bound).
        upper_bound (float): The upper bound (None: no upper bound).

    Attributes:
        lower_bound (float): The lower bound.
        upper_bound (float): The upper bound.
        timing (str): ``'pre'``: called before the update.
        call_for_each_param (bool): True: called as ``hook(rule, param)``.
    """

    name = 'GradientHardClipping'
    call_for_each_param = True
    timing = 'pre'

    def __init__(self, lower_bound, upper_bound):
        self.lower_bound = lower_bound
        self.upper_bound = upper_bound

    def __call__(self, rule, param):
        g = param.grad
        if g is None:
            return
        with chainer.using_device(param.device):
            param.xp.clip(g, self.lower_bound, self.upper_bound, out=g)
