"""Layer-wise adaptive rate scaling (LARS) as an optimizer hook."""

import chainer


class GradientLARS:
    """Scales each parameter's gradient by its layer-wise trust ratio
    (You et al., "Large Batch Training of Convolutional Networks", 2017).

    With ``p_norm = ||param||`` and ``g_norm = ||grad||``, the local rate is
    ``p_norm / (eps + g_norm + weight_decay * p_norm)``; the gradient
    becomes ``rate * (grad + weight_decay * param)``, where ``rate`` is the
    local rate when ``p_norm`` exceeds ``threshold`` and 1 otherwise (so
    near-zero weights keep their plain gradient).

    Args:
        threshold (float): The weight norm above which the local rate is
            applied.
        weight_decay (float): Coefficient of the weight decay.
        eps (float): Small value for numerical stability.

    Attributes:
        threshold (float): See above.
        weight_decay (float): See above.
        eps (float): See above.
        timing (str): ``'pre'``: called before the update.
        call_for_each_param (bool): True: called as ``hook(rule, param)``.
    """

    name = 'GradientLARS'
    call_for_each_param = True
    timing = 'pre'

    def __init__(self, threshold=0.01, weight_decay=0.0, eps=1e-9):
        self.threshold = threshold
        self.weight_decay = weight_decay
        self.eps = eps

    def __call__(self, rule, param):
        p, g = param.array, param.grad
        if p is None or g is None:
            return
        xp = param.xp
        with chainer.using_device(param.device):
            p_norm = xp.linalg.norm(p)
            g_norm = xp.linalg.norm(g)
            local_rate = p_norm / (self.eps + g_norm +
                                   self.weight_decay * p_norm)
            # a 0-d array, so that no device synchronization is needed
            rate = xp.where(p_norm > self.threshold, local_rate, 1.0)
            if self.weight_decay:
                g += self.weight_decay * p
            g *= rate
