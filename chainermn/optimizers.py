"""The multi-node optimizer: an optimizer whose update averages the
gradients over the ranks first."""

import weakref

import numpy

from chainermn.communicators import _memory_utility


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

    def _backward(self, lossfun, args, kwds):
        loss = lossfun(*args, **kwds)
        if getattr(self.actual_optimizer, '_use_cleargrads', True):
            self.target.cleargrads()
        else:
            self.target.zerograds()
        loss.backward(loss_scale=getattr(self.actual_optimizer, '_loss_scale', None))

    def update(self, lossfun=None, *args, **kwds):
        target = self.target
        if lossfun is not None:
            self._backward(lossfun, args, kwds)
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


class _DoubleBufferingOptimizer(_MultiNodeOptimizer):
    """A multi-node optimizer whose allreduce runs while the next iteration
    computes: each ``update`` starts a non-blocking MPI allreduce of this
    iteration's gradients (packed into one of two host buffers) and steps
    with the mean gradients of the previous iteration, one step stale. The
    first update after the parameters are broadcast steps nothing."""

    def __init__(self, actual_optimizer, communicator, zero_fill):
        super().__init__(actual_optimizer, communicator, zero_fill)
        object.__setattr__(self, '_buffers', [numpy.empty(0, numpy.float32)] * 2)
        # (params, buffer, request) of the allreduce in flight. MPI must not
        # finalize with it pending: it is waited for when the optimizer goes,
        # or at exit (before mpi4py's own exit handler, registered earlier).
        pending = [None]
        object.__setattr__(self, '_pending_box', pending)
        weakref.finalize(self, _wait, pending)

    @property
    def _pending(self):
        return self._pending_box[0]

    def update(self, lossfun=None, *args, **kwds):
        target = self.target
        if lossfun is not None:
            self._backward(lossfun, args, kwds)
        if self.is_changed(target):
            self.wait()  # the mean of gradients of other parameters: dropped
            self._pending_box[0] = None
            self.communicator.bcast_data(target)
            return
        comm = self.communicator
        params = comm._grads(target, self.zero_fill)
        previous = self._pending
        if previous is not None:
            previous[2].Wait()
        dtype = numpy.dtype(numpy.float64 if any(p.grad.dtype == numpy.float64 for p in params)
                            else numpy.float32)
        n = sum(p.grad.size for p in params)
        # Two buffers: [the one done with, the one in flight].
        buf = self._buffers[0]
        if buf.dtype != dtype or buf.size != n:
            buf = numpy.empty(n, dtype)
        object.__setattr__(self, '_buffers', [self._buffers[1], buf])
        _memory_utility.pack_params(params, 'grad', buf, dtype, self.zero_fill)
        self._pending_box[0] = params, buf, comm._start_allreduce(buf)
        if previous is None:
            return
        mean = previous[1]
        mean /= comm.size
        # Into the parameters of that iteration, as they were packed.
        _memory_utility.unpack_params(previous[0], 'grad', mean, mean.dtype, True)
        comm._check_finite(previous[0])
        self.actual_optimizer.update(None, *args, **kwds)

    def wait(self):
        """Waits for the allreduce in flight, if any (its mean is used by
        the next update)."""
        _wait(self._pending_box)


def _wait(pending):
    if pending[0] is not None:
        pending[0][2].Wait()


def create_multi_node_optimizer(actual_optimizer, communicator, double_buffering=False,
                                zero_fill=True):
    """An optimizer that averages gradients over the ranks before it steps.

    Args:
        actual_optimizer (chainer.Optimizer): the optimizer that updates.
        communicator (CommunicatorBase): the ranks that train together.
        double_buffering (bool): overlap the allreduce with the next
            iteration: each update steps with the mean gradients of the
            previous iteration (one step stale; the first update after the
            broadcast steps nothing). Chainer offers it on the
            ``'pure_nccl'`` communicator; here it runs on any MPI
            communicator, through host memory and a non-blocking MPI
            allreduce.
        zero_fill (bool): a parameter without a gradient on some rank counts
            as a zero gradient there (so lazily used parameters still match).

    The first update (and the first after the parameters change) broadcasts
    rank 0's parameters instead of stepping, so every rank starts alike.
    """
    if double_buffering:
        from chainermn.communicators.mpi_communicator_base import MpiCommunicatorBase
        if not isinstance(communicator, MpiCommunicatorBase):
            raise ValueError('double buffering needs an MPI communicator; got {}'
                             .format(type(communicator).__name__))
        return _DoubleBufferingOptimizer(actual_optimizer, communicator, zero_fill)
    return _MultiNodeOptimizer(actual_optimizer, communicator, zero_fill)
