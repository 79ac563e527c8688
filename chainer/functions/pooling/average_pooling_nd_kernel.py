"""Chainer's N-d average pooling kernel generators, by name (see
:mod:`chainer.utils.conv_nd_kernel`: chainer-ng generates no CUDA kernels)."""

from chainer.functions.pooling import pooling_nd_kernel


class AveragePoolingNDKernelForward(pooling_nd_kernel.PoolingNDKernelForward):
    pass


class AveragePoolingNDKernelBackward(pooling_nd_kernel.PoolingNDKernelBackward):
    pass
