"""The flat communicator: every gradient packed into one buffer, averaged by
a single MPI allreduce."""

import numpy

from chainermn.communicators import _communication_utility as _util
from chainermn.communicators.mpi_communicator_base import MpiCommunicatorBase


class FlatCommunicator(MpiCommunicatorBase):
    """Packs all gradients into one buffer (float32, or float64 when a
    gradient is float64) and averages it with one MPI allreduce, so a model of
    many small parameters costs one message instead of one each."""

    def multi_node_mean_grad(self, model, zero_fill=False):
        params = self._grads(model, zero_fill)
        if not params:
            return
        host = [_util.to_host(p.grad) for p in params]
        dtype = numpy.float64 if any(a.dtype == numpy.float64 for a, _ in host) \
            else numpy.float32
        buf = numpy.concatenate([a.reshape(-1).astype(dtype, copy=False) for a, _ in host])
        self.mpi_comm.Allreduce(_util.get_mpi().IN_PLACE, buf)
        buf /= self.size
        start = 0
        for param, (a, xp) in zip(params, host):
            part = buf[start:start + a.size].reshape(a.shape).astype(a.dtype, copy=False)
            param.grad = _util.from_host(part, xp)
            start += a.size
        self._check_finite(params)
