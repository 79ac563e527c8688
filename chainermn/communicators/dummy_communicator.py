"""A communicator that averages nothing, to time everything else."""

from chainermn.communicators.mpi_communicator_base import MpiCommunicatorBase


class DummyCommunicator(MpiCommunicatorBase):
    """Leaves gradients as they are; for measuring what the rest of training
    costs without the allreduce."""

    def multi_node_mean_grad(self, model, zero_fill=False):
        self._grads(model, zero_fill)
