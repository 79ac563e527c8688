from chainer.training import extension
from chainermn.extensions._util import float_persistents


class AllreducePersistent(extension.Extension):
    """Averages the floating-point persistent arrays of ``model`` (the
    running statistics of BatchNormalization) over the ranks, every epoch by
    default, so that every rank evaluates with the same statistics."""

    trigger = 1, 'epoch'
    # Before evaluators and snapshots of the same iteration.
    priority = extension.PRIORITY_WRITER + 1

    def __init__(self, model, comm):
        self.model = model
        self.comm = comm

    def __call__(self, trainer=None):
        for _, owner, name in float_persistents(self.model):
            value = getattr(owner, name)
            mean = self.comm.allreduce(value) / self.comm.size
            setattr(owner, name, mean.astype(value.dtype, copy=False))


