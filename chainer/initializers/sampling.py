"""Bilinear filters for upsampling deconvolutions and downsampling
convolutions."""

import numpy

from chainer import backend
from chainer.initializer import Initializer
from chainer.initializers._common import DtypeMismatchError, check_dtype


def _bilinear_kernel(ksize, ndim):
    factor = (ksize + 1) // 2
    center = factor - 1 if ksize % 2 == 1 else factor - 0.5
    filt = 1 - numpy.abs(numpy.arange(ksize) - center) / factor
    kernel = filt
    for _ in range(ndim - 1):
        kernel = numpy.multiply.outer(kernel, filt)
    return kernel


class _SamplingFilter(Initializer):

    def __init__(self, interpolation='linear', dtype=None):
        if interpolation != 'linear':
            raise ValueError('Unsupported interpolation method: {}'.format(
                interpolation))
        self.interpolation = interpolation
        super().__init__(dtype)

    def __call__(self, array):
        check_dtype(self, array)
        shape = array.shape
        if array.ndim < 3:
            raise DtypeMismatchError(
                '{}: the array must have a kernel of at least one axis, '
                'shape (out, in, k, ...); got {}'.format(
                    type(self).__name__, shape))
        out_ch, in_ch, ksizes = shape[0], shape[1], shape[2:]
        for k in ksizes[1:]:
            if k != ksizes[0]:
                raise ValueError('ksize must be all same: {} != {}'.format(
                    ksizes[0], k))
        if in_ch != 1 and in_ch != out_ch:
            raise DtypeMismatchError(
                '{}: in_channels must equal out_channels (or be 1); got '
                'shape {}'.format(type(self).__name__, shape))
        kernel = self._kernel(ksizes[0], len(ksizes))
        weight = numpy.zeros(shape, dtype=array.dtype)
        if in_ch == 1:
            weight[:, 0] = kernel
        else:
            idx = numpy.arange(out_ch)
            weight[idx, idx] = kernel
        array[...] = backend.get_device_from_array(array).send(weight)


class UpsamplingDeconvFilter(_SamplingFilter):
    """The bilinear upsampling kernel of a deconvolution.

    Each output channel ``i`` gets the kernel from input channel ``i`` (or
    from the only input channel), and zeros elsewhere.

    Args:
        interpolation (str): Only ``'linear'``.
        dtype: The dtype of the arrays it fills.
    """

    def _kernel(self, ksize, ndim):
        return _bilinear_kernel(ksize, ndim)


class DownsamplingConvFilter(_SamplingFilter):
    """The bilinear downsampling (averaging) kernel of a convolution: the
    upsampling kernel normalized to sum to one.

    Args:
        interpolation (str): Only ``'linear'``.
        dtype: The dtype of the arrays it fills.
    """

    def _kernel(self, ksize, ndim):
        kernel = _bilinear_kernel(ksize, ndim)
        return kernel / kernel.sum()
