"""Global-norm gradient clipping as an optimizer hook."""

import math

import chainer


def _sum_sqnorm(arrays):
    # One partial sum per device, added up on the host.
    total = 0.0
    for a in arrays:
        with chainer.using_device(chainer.backend.get_device_from_array(a)):
            flat = a.ravel()
            if flat.dtype.itemsize < 4:
                flat = flat.astype('f')
            total += float(flat.dot(flat))
    return total


class GradientClipping:
    """Rescales all the gradients so that their global L2 norm is at most
    ``threshold``.

    When the norm of all the gradients together, ``norm``, exceeds
    ``threshold``, every gradient is multiplied by ``threshold / norm``.
    It works on the whole optimizer (``hook(optimizer)``), not per
    parameter.

    Args:
        threshold (float): The largest allowed L2 norm.

    Attributes:
        threshold (float): The largest allowed L2 norm.
        timing (str): ``'pre'``: called before the update.
    """

    name = 'GradientClipping'
    timing = 'pre'

    def __init__(self, threshold):
        self.threshold = threshold

    def __call__(self, opt):
        grads = [p.grad for p in opt.target.params(False)
                 if p.grad is not None]
        norm = math.sqrt(_sum_sqnorm(grads))
        if norm <= self.threshold:
            return
        rate = self.threshold / norm
        for g in grads:
            with chainer.using_device(
                    chainer.backend.get_device_from_array(g)):
                g *= rate
