"""Chainer's N-d pooling kernel generators, by name (see
:mod:`chainer.utils.conv_nd_kernel`: chainer-ng generates no CUDA kernels)."""

from chainer.utils.conv_nd_kernel import _NDKernel


class PoolingNDKernelForward(_NDKernel):
    pass


class PoolingNDKernelBackward(_NDKernel):
    pass
