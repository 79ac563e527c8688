"""The flat communicator: every gradient packed into one buffer, averaged by
a single MPI allreduce."""

import numpy

from chainermn.communicators import _communication_utility as _util
from chainermn.communicators import _memory_utility
from chainermn.communicators.mpi_communicator_base import MpiCommunicatorBase


class FlatCommunicator(MpiCommunicatorBase):
    """Packs all gradients into one host buffer (float32, or float64 when a
    gradient is float64) and averages it with one MPI allreduce, so a model of
    many small parameters costs one message instead of one each. The mean is
    written back into the gradient arrays in place."""

    def __init__(self, mpi_comm):
        super().__init__(mpi_comm)
        self._buffer = _memory_utility.HostPinnedMemory()

    def multi_node_mean_grad(self, model, zero_fill=False):
        params = self._grads(model, zero_fill)
        if not params:
            return
        dtype = numpy.dtype(numpy.float64 if any(p.grad.dtype == numpy.float64 for p in params)
                            else numpy.float32)
        n = sum(p.grad.size for p in params)
        self._buffer.assign(n * dtype.itemsize)
        _memory_utility.pack_params(params, 'grad', self._buffer, dtype, zero_fill)
        buf = self._buffer.array(n, 0, dtype)
        self.mpi_comm.Allreduce(_util.get_mpi().IN_PLACE, buf)
        buf /= self.size
        _memory_utility.unpack_params(params, 'grad', self._buffer, dtype, zero_fill)
        self._check_finite(params)
