"""Chainer's N-d max pooling kernel generators, by name (see
:mod:`chainer.utils.conv_nd_kernel`: chainer-ng generates no CUDA kernels)."""

from chainer.functions.pooling import pooling_nd_kernel


class MaxPoolingNDKernelForward(pooling_nd_kernel.PoolingNDKernelForward):
    pass


class MaxPoolingNDKernelBackward(pooling_nd_kernel.PoolingNDKernelBackward):
    pass
