"""``F.fft`` and ``F.ifft`` on complex data held as a (real, imag) pair."""

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import check_float, invalid_type


class FFT(FunctionNode):
    """One-dimensional (inverse) DFT along the last axis."""

    def __init__(self, method):
        self._method = method

    def forward(self, inputs):
        real, imag = inputs
        check_float(self, real, 'real')
        if real.dtype != imag.dtype:
            raise invalid_type(self, 'real.dtype == imag.dtype',
                               '{} != {}'.format(real.dtype, imag.dtype))
        if real.shape != imag.shape:
            raise invalid_type(self, 'real.shape == imag.shape',
                               '{} != {}'.format(real.shape, imag.shape))
        if real.ndim == 0:
            raise invalid_type(self, 'real.ndim >= 1', '0 < 1')
        xp = backend.get_array_module(real, imag)
        y = getattr(xp.fft, self._method)(real + 1j * imag)
        dtype = real.dtype
        return y.real.astype(dtype), y.imag.astype(dtype)

    def backward(self, indexes, grad_outputs):
        gr, gi = grad_outputs
        shape = self.inputs[0].shape
        dtype = self.inputs[0].dtype
        xp = backend.get_array_module(self.inputs[0])
        if gr is None:
            gr = xp.zeros(shape, dtype)
        if gi is None:
            gi = xp.zeros(shape, dtype)
        n = shape[-1]
        # The DFT matrix W is symmetric, so the adjoint is conj(W): n * ifft
        # for fft, fft / n for ifft.
        if self._method == 'fft':
            gxr, gxi = FFT('ifft').apply((gr, gi))
            gxr, gxi = gxr * n, gxi * n
        else:
            gxr, gxi = FFT('fft').apply((gr, gi))
            gxr, gxi = gxr * (1. / n), gxi * (1. / n)
        return tuple([gxr, gxi][i] for i in indexes)


def _check_pair(func, x):
    if not isinstance(x, (tuple, list)) or len(x) != 2:
        raise TypeError('{}: x must be a tuple (real, imag) of two arrays, '
                        'got {}'.format(func, type(x).__name__))


def fft(x):
    """Fast Fourier transform.

    Args:
        x (tuple): ``(real, imag)``: two arrays (or Variables) of one shape,
            the real and imaginary parts of the input; the transform runs
            along the last axis.

    Returns:
        tuple: ``(real, imag)`` of the transform, as Variables.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> r, i = F.fft((np.ones(4, np.float32), np.zeros(4, np.float32)))
    >>> r.array
    array([4., 0., 0., 0.], dtype=float32)
    """
    _check_pair('fft', x)
    return FFT('fft').apply(tuple(x))


def ifft(x):
    """Inverse fast Fourier transform.

    Args:
        x (tuple): ``(real, imag)``: two arrays (or Variables) of one shape,
            the real and imaginary parts of the input; the transform runs
            along the last axis.

    Returns:
        tuple: ``(real, imag)`` of the inverse transform, as Variables.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> r, i = F.ifft((np.ones(4, np.float32), np.zeros(4, np.float32)))
    >>> r.array
    array([1., 0., 0., 0.], dtype=float32)
    """
    _check_pair('ifft', x)
    return FFT('ifft').apply(tuple(x))
