"""The communicator for GPUs whose MPI is not CUDA-aware: gradients averaged
over the node by NCCL, between nodes by MPI through host memory."""

from chainermn.communicators._nccl_required import require_nccl
from chainermn.communicators.flat_communicator import FlatCommunicator


class NonCudaAwareCommunicator(FlatCommunicator):
    """For an MPI that cannot read GPU memory: gradients are packed and
    averaged through host memory (as :class:`FlatCommunicator`); needs CuPy
    built with NCCL 2, as Chainer's does."""

    def __init__(self, mpi_comm):
        require_nccl(type(self).__name__)
        super().__init__(mpi_comm)
        self.intra_nccl_comm = None

    def _init_comms(self):
        pass

    def finalize(self):
        self.intra_nccl_comm = None
        super().finalize()
