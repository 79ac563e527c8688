"""``F.gumbel_softmax``: a differentiable relaxation of sampling from a
categorical distribution."""

import chainer
from chainer import backend
from chainer.functions.activation.softmax import softmax
from chainer.functions._errors import (check_float, names_bad_arguments)


@names_bad_arguments
def gumbel_softmax(log_pi, tau=0.1, axis=1):
    """Gumbel-Softmax sampling function.

    It returns :math:`\\mathrm{softmax}((\\log \\pi + g) / \\tau)` along
    ``axis``, where :math:`g` is standard Gumbel noise drawn by
    ``xp.random`` (NumPy's or CuPy's global generator). As the temperature
    :math:`\\tau` goes to 0 the samples approach one-hot vectors
    (Jang et al., 2016). It draws in test mode too.

    Args:
        log_pi (:class:`~chainer.Variable` or :ref:`ndarray`): The log
            probabilities (unnormalized log probabilities are fine).
        tau (float or :ref:`ndarray`): The temperature.
        axis (int): The axis of the categories.

    Returns:
        ~chainer.Variable: The relaxed sample, of ``log_pi``'s shape.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> log_pi = np.log(np.array([[0.2, 0.8]], np.float32))
    >>> F.gumbel_softmax(log_pi, tau=0.5).shape
    (1, 2)
    """
    xp = backend.get_array_module(log_pi)
    check_float('gumbel_softmax', log_pi, 'log_pi')
    if log_pi.ndim < 1:
        # One category: the sample is 1 (as Chainer returns it).
        return chainer.Variable(xp.ones((), log_pi.dtype))
    g = xp.random.gumbel(size=log_pi.shape)
    if log_pi.dtype.kind == 'f':
        g = g.astype(log_pi.dtype, copy=False)
    return softmax((log_pi + g) / tau, axis=axis)
