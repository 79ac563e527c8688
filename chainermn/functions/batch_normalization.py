"""Batch normalization over the examples of all ranks."""

import numpy

import chainer.functions as F
from chainer import function_node

_BACKENDS = ('auto', 'mpi', 'nccl')


def get_communication_backend(comm, communication_backend='auto'):
    """The backend that moves the statistics of a multi-node batch
    normalization: ``'nccl'`` needs the ``pure_nccl`` communicator, ``'mpi'``
    works with any; ``'auto'`` picks ``'nccl'`` where it can. Anything else
    raises :class:`ValueError`."""
    from chainermn.communicators.pure_nccl_communicator import PureNcclCommunicator
    nccl = isinstance(comm, PureNcclCommunicator)
    if communication_backend not in _BACKENDS:
        raise ValueError('communication_backend must be one of {}, got {!r}'.format(
            _BACKENDS, communication_backend))
    if communication_backend == 'nccl' and not nccl:
        raise ValueError("communication_backend 'nccl' needs the pure_nccl communicator, "
                         'not {}'.format(type(comm).__name__))
    if communication_backend == 'auto':
        return 'nccl' if nccl else 'mpi'
    return communication_backend


class AllReduceSum(function_node.FunctionNode):
    """The sum of every rank's input. Its backward is the same sum of the
    gradients: each rank's loss depends on every rank's input."""

    def __init__(self, comm):
        self.comm = comm

    def forward(self, inputs):
        return self.comm.allreduce(inputs[0]),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        return AllReduceSum(self.comm).apply((gy,))


def _allreduce_sum(comm, x):
    return AllReduceSum(comm).apply((x,))[0]


def multi_node_batch_normalization(x, gamma, beta, comm, eps=2e-5, running_mean=None,
                                   running_var=None, decay=0.9):
    """Batch normalization whose mean and variance are those of the batches
    of all ranks together (axis 0 and the axes after the channel axis 1).

    Gradients are those of the sum of every rank's loss, so that averaging
    the parameters' gradients over the ranks (as the multi-node optimizer
    does) gives what one process computes on the concatenated batch. The
    statistics are computed in float32 at least (float16 input, or a
    ``gamma`` of another dtype as in mixed16, is cast), and ``y`` has the
    dtype of ``x``. The running statistics (the unbiased variance) are
    updated in place.
    """
    x_dtype = x.dtype
    dtype = numpy.promote_types(numpy.promote_types(x_dtype, gamma.dtype), numpy.float32)
    if x_dtype != dtype:
        x = F.cast(x, dtype)
    if gamma.dtype != dtype:
        gamma, beta = F.cast(gamma, dtype), F.cast(beta, dtype)
    axes = (0,) + tuple(range(2, x.ndim))
    shape = [1] * x.ndim
    shape[1] = x.shape[1]
    n_local = x.size // x.shape[1]
    n = comm.allreduce_obj(n_local)
    mean = _allreduce_sum(comm, F.sum(x, axis=axes)) / n
    xc = x - F.reshape(mean, shape)
    var = _allreduce_sum(comm, F.sum(xc * xc, axis=axes)) / n
    y = xc * F.reshape(gamma / F.sqrt(var + eps), shape) + F.reshape(beta, shape)
    if running_mean is not None:
        adjust = n / max(n - 1., 1.)
        running_mean *= decay
        running_mean += (1 - decay) * mean.array.astype(running_mean.dtype, copy=False)
        running_var *= decay
        running_var += (1 - decay) * adjust * var.array.astype(running_var.dtype, copy=False)
    return y if y.dtype == x_dtype else F.cast(y, x_dtype)
