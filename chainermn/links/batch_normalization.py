import chainer
import chainer.links as L
from chainer.utils import experimental
from chainermn.functions.batch_normalization import get_communication_backend
from chainermn.functions.batch_normalization import multi_node_batch_normalization


class MultiNodeBatchNormalization(L.BatchNormalization):
    """Batch normalization over the examples of all ranks.

    In training it normalizes with the mean and variance of the batches of
    every rank together (so ``size`` ranks of ``b`` examples behave as one
    batch of ``size * b``), and keeps those statistics' running averages; in
    test mode it uses the running averages, as
    :class:`chainer.links.BatchNormalization`. All ranks must call it
    together. ``communication_backend`` is ``'auto'``, ``'mpi'`` or
    ``'nccl'`` (which needs the ``pure_nccl`` communicator; ValueError
    otherwise); chainer-ng moves the statistics through the communicator
    either way.
    """

    def __init__(self, size, comm, decay=0.9, eps=2e-5, dtype=None, use_gamma=True,
                 use_beta=True, initial_gamma=None, initial_beta=None,
                 communication_backend='auto'):
        experimental('chainermn.links.MultiNodeBatchNormalization')
        get_communication_backend(comm, communication_backend)  # checks it
        super().__init__(size, decay=decay, eps=eps, dtype=dtype, use_gamma=use_gamma,
                         use_beta=use_beta, initial_gamma=initial_gamma,
                         initial_beta=initial_beta)
        self.comm = comm
        self.communication_backend = communication_backend

    def forward(self, x, finetune=False):
        if not chainer.config.train:
            return super().forward(x)
        gamma, beta = self._gamma_beta(x)
        decay = self._decay(finetune)
        return multi_node_batch_normalization(
            x, gamma, beta, self.comm, eps=self.eps, running_mean=self.avg_mean,
            running_var=self.avg_var, decay=decay)
