"""Batch normalization over the examples of all ranks."""

import chainer.functions as F
from chainer import function_node


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
    running statistics (the unbiased variance) are updated in place.
    """
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
    return y


