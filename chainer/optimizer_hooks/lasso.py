"""L1 regularization as an optimizer hook."""

import chainer


class Lasso:
    """Adds ``rate * sign(param)`` to the gradient before the update (L1
    regularization).

    Args:
        rate (float): Coefficient of the L1 term.

    Attributes:
        rate (float): Coefficient of the L1 term.
        timing (str): ``'pre'``: called before the update.
        call_for_each_param (bool): True: called as ``hook(rule, param)``.
    """

    name = 'Lasso'
    call_for_each_param = True
    timing = 'pre'

    def __init__(self, rate):
        self.rate = rate

    def __call__(self, rule, param):
        p, g = param.array, param.grad
        if p is None or g is None:
            return
        with chainer.using_device(param.device):
            g += self.rate * param.xp.sign(p)
