"""Annealed Gaussian gradient noise as an optimizer hook."""

import numpy

import chainer


def exponential_decay_noise(xp, shape, dtype, hook, opt):
    """The default noise of :class:`GradientNoise`: Gaussian noise whose
    variance decays as ``hook.eta / (1 + t) ** 0.55`` (Neelakantan et al.,
    "Adding Gradient Noise Improves Learning for Very Deep Networks", 2015).

    Args:
        xp: The array module (numpy or cupy).
        shape (tuple of ints): Shape of the noise.
        dtype: Data type of the noise.
        hook (GradientNoise): The hook (its ``eta`` is used).
        opt: The update rule (or optimizer) whose ``t`` is the step count.

    Returns:
        The noise array.
    """
    std = numpy.sqrt(hook.eta / numpy.power(1 + opt.t, 0.55))
    return xp.random.normal(0, std, shape).astype(dtype)


class GradientNoise:
    """Adds Gaussian noise to the gradient before the update.

    Args:
        eta (float): Parameter of the noise schedule (the variance at
            ``t = 0``).
        noise_func (callable): ``noise_func(xp, shape, dtype, hook, rule)``
            returning the noise array; :func:`exponential_decay_noise` by
            default.

    Attributes:
        eta (float): See above.
        noise_func (callable): See above.
        timing (str): ``'pre'``: called before the update.
        call_for_each_param (bool): True: called as ``hook(rule, param)``.
    """

    name = 'GradientNoise'
    call_for_each_param = True
    timing = 'pre'

    def __init__(self, eta, noise_func=exponential_decay_noise):
        self.eta = eta
        self.noise_func = noise_func

    def __call__(self, rule, param):
        g = param.grad
        if g is None:
            return
        xp = param.xp
        with chainer.using_device(param.device):
            g += self.noise_func(xp, g.shape, g.dtype, self, rule)
