"""Chainer's generators of N-dimensional CUDA kernels, by name.

Chainer built its N-d im2col/col2im and pooling on the GPU from CUDA source
that it generated per number of dimensions (``SomeKernel.generate(ndim)``,
memoized). chainer-ng runs those ops on CuPy through the strided-window
im2col of :mod:`chainer.utils.conv_nd`, so these classes keep Chainer's
names and memoization for code that refers to them, and ``_generate``
raises, saying so.
"""

from chainer.backends import cuda


@cuda.memoize()
def _generate_memo(kernel, ndim):
    return kernel._generate(ndim)


class _NDKernel:
    """A memoized generator of CUDA source for ``ndim`` dimensions."""

    @classmethod
    def generate(cls, ndim):
        return _generate_memo(cls, ndim)

    @classmethod
    def _generate(cls, ndim):
        raise RuntimeError(
            '{}: chainer-ng runs N-dimensional convolution and pooling on '
            'CuPy through chainer.utils.conv_nd (strided windows) and has no '
            'generated CUDA kernels'.format(cls.__name__))


class Im2colNDKernel(_NDKernel):
    pass


class Col2imNDKernel(_NDKernel):
    pass
