"""The multi-node optimizer: an optimizer whose update averages the
gradients over the ranks first."""


class _MultiNodeOptimizer:
    """Wraps an optimizer: ``update`` averages the gradients over the ranks,
    then lets the actual optimizer step. Whenever the set of parameters
    changes (at the first update, or after a lazily initialized link takes
    its shape), that update broadcasts rank 0's parameters instead, so all
    ranks start from the same point. Every other attribute is the actual
    optimizer's."""

    def __init__(self, actual_optimizer, communicator, zero_fill):
        for name, value in (('actual_optimizer', actual_optimizer),
                            ('communicator', communicator), ('zero_fill', zero_fill),
                            ('target_params', [])):
            object.__setattr__(self, name, value)

    def update(self, lossfun=None, *args, **kwds):
        target = self.target
        if lossfun is not None:
            loss = lossfun(*args, **kwds)
            if getattr(self.actual_optimizer, '_use_cleargrads', True):
                target.cleargrads()
            else:
                target.zerograds()
            loss.backward(loss_scale=getattr(self.actual_optimizer, '_loss_scale', None))
            del loss
        if self.is_changed(target):
            self.communicator.bcast_data(target)
        else:
            self.communicator.multi_node_mean_grad(target, self.zero_fill)
            self.actual_optimizer.update(None, *args, **kwds)

    def is_changed(self, target):
        params = [(name, p.array is not None) for name, p in sorted(target.namedparams())]
        if params == self.target_params:
            return False
        object.__setattr__(self, 'target_params', params)
        return True

    def setup(self, link):
        self.actual_optimizer.setup(link)
        return self

    def __getattr__(self, name):
        return getattr(self.actual_optimizer, name)

    def __setattr__(self, name, value):
        setattr(self.actual_optimizer, name, value)


def create_multi_node_optimizer(actual_optimizer, communicator, double_buffering=False,
                                zero_fill=True):
    """An optimizer that averages gradients over the ranks before it steps.

    Args:
        actual_optimizer (chainer.Optimizer): the optimizer that updates.
        communicator (CommunicatorBase): the ranks that train together.
        double_buffering (bool): overlap the allreduce with the next
            iteration (one step stale gradients); needs the ``'pure_nccl'``
            communicator and raises :class:`ValueError` otherwise.
        zero_fill (bool): a parameter without a gradient on some rank counts
            as a zero gradient there (so lazily used parameters still match).

    The first update (and the first after the parameters change) broadcasts
    rank 0's parameters instead of stepping, so every rank starts alike.
    """
    if double_buffering:
        from chainermn.communicators.pure_nccl_communicator import PureNcclCommunicator
        if not isinstance(communicator, PureNcclCommunicator):
            raise ValueError('double buffering needs the pure_nccl communicator; got {}'
                             .format(type(communicator).__name__))
        raise NotImplementedError('double buffering is not implemented in chainer-ng')
    return _MultiNodeOptimizer(actual_optimizer, communicator, zero_fill)


