"""The naive communicator: one MPI allreduce per gradient."""

import numpy

from chainermn.communicators import _communication_utility as _util
from chainermn.communicators.mpi_communicator_base import MpiCommunicatorBase


class NaiveCommunicator(MpiCommunicatorBase):
    """Averages each gradient with its own MPI allreduce (float16 ones are
    summed in float32); simple, and slow for models of many parameters."""

    def multi_node_mean_grad(self, model, zero_fill=False):
        comm = self.mpi_comm
        MPI = _util.get_mpi()
        params = self._grads(model, zero_fill)
        for param in params:
            a, xp = _util.to_host(param.grad)
            buf = a.astype(numpy.float32) if a.dtype == numpy.float16 else a.copy()
            comm.Allreduce(MPI.IN_PLACE, buf)
            buf /= self.size
            param.grad = _util.from_host(buf.astype(a.dtype, copy=False), xp)
        self._check_finite(params)
