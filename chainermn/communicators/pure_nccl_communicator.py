"""The pure NCCL communicator: gradients averaged on the GPUs by NCCL."""

import numpy

from chainermn.communicators import _communication_utility as _util
from chainermn.communicators._nccl_required import require_nccl
from chainermn.communicators.mpi_communicator_base import MpiCommunicatorBase

_GRAD_DTYPES = (None, numpy.float16, numpy.float32, numpy.float64)


class PureNcclCommunicator(MpiCommunicatorBase):
    """Averages gradients with one NCCL allreduce over all ranks (one GPU a
    rank), in ``allreduce_grad_dtype`` when it is set, else in the gradients'
    own dtype (float32 for a model of mixed dtypes). Everything else goes
    through MPI. Needs CuPy built with NCCL 2."""

    _config_defaults = {'batched_copy': True, 'allreduce_grad_dtype': None}

    def __init__(self, mpi_comm):
        require_nccl(type(self).__name__)
        super().__init__(mpi_comm)
        self.nccl_comm = None

    @property
    def allreduce_grad_dtype(self):
        return self._configs['allreduce_grad_dtype']

    def set_config(self, name, value=True, **kwargs):
        if name == 'allreduce_grad_dtype':
            if value is not None:
                value = numpy.dtype(value).type
            if value not in _GRAD_DTYPES:
                raise ValueError('allreduce_grad_dtype must be float16, float32, float64 '
                                 'or None; got {}'.format(value))
        super().set_config(name, value, **kwargs)

    def _init_comms(self):
        if self.nccl_comm is not None:
            return
        from chainermn import nccl
        comm = self.mpi_comm
        uid = comm.bcast(nccl.get_unique_id() if comm.rank == 0 else None, root=0)
        self.nccl_comm = nccl.NcclCommunicator(comm.size, uid, comm.rank)

    def finalize(self):
        self.nccl_comm = None
        super().finalize()

    def multi_node_mean_grad(self, model, zero_fill=False):
        import cupy
        from chainermn import nccl
        self._init_comms()
        params = self._grads(model, zero_fill)
        if not params:
            return
        dtype = self.allreduce_grad_dtype
        if dtype is None:
            dtypes = {p.grad.dtype for p in params}
            dtype = dtypes.pop() if len(dtypes) == 1 else numpy.float32
        buf = cupy.concatenate([cupy.asarray(p.grad).reshape(-1).astype(dtype)
                                for p in params])
        stream = cupy.cuda.Stream.null
        self.nccl_comm.allReduce(buf.data.ptr, buf.data.ptr, buf.size,
                                 _util._get_nccl_type_id(dtype), nccl.NCCL_SUM, stream.ptr)
        buf /= self.size
        start = 0
        for p in params:
            n = p.grad.size
            p.grad = buf[start:start + n].reshape(p.grad.shape).astype(p.grad.dtype)
            start += n
        self._check_finite(params)
