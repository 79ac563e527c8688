"""Collectives whose backward is the adjoint collective: allgather's is an
alltoall and a sum, bcast's a gather and a sum to the root, gather's a
scatter, scatter's a gather. Every rank must run forward and backward.
Backward runs MPI on arrays, so these give first-order gradients only."""

import chainer
from chainer import function_node
from chainer.utils import experimental
from chainermn.functions import _delegate


def _var(x):
    return chainer.Variable(x)


def _zeros_for_none(gys, like):
    return tuple(g.array if g is not None else
                 chainer.backend.get_array_module(y).zeros(y.shape, y.dtype)
                 for g, y in zip(gys, like))


class AllGather(function_node.FunctionNode):

    def __init__(self, comm):
        experimental('chainermn.functions.AllGather')
        self.comm = comm

    def forward(self, inputs):
        ys = self.comm.allgather(inputs[0])
        self._like = ys
        return ys

    def backward(self, indexes, grad_outputs):
        gys = _zeros_for_none(grad_outputs, self._like)
        gxs = self.comm.alltoall(gys)
        gx = gxs[0].copy()
        for g in gxs[1:]:
            gx += g
        return _var(gx),


class AllToAll(function_node.FunctionNode):

    def __init__(self, comm):
        experimental('chainermn.functions.AllToAll')
        self.comm = comm

    def forward(self, inputs):
        ys = self.comm.alltoall(inputs)
        self._like = ys
        return ys

    def backward(self, indexes, grad_outputs):
        gys = _zeros_for_none(grad_outputs, self._like)
        return tuple(_var(g) for g in self.comm.alltoall(gys))


class Bcast(function_node.FunctionNode):

    def __init__(self, comm, root):
        experimental('chainermn.functions.Bcast')
        self.comm, self.root = comm, root

    def forward(self, inputs):
        x, = inputs
        self._x = x.shape, x.dtype, chainer.backend.get_array_module(x)
        y = self.comm.bcast(x if self.comm.rank == self.root else None, self.root)
        self._like = y,
        return y,

    def backward(self, indexes, grad_outputs):
        gy, = _zeros_for_none(grad_outputs, self._like)
        gys = self.comm.gather(gy, self.root)
        if self.comm.rank != self.root:
            shape, dtype, xp = self._x
            return _var(xp.zeros(shape, dtype)),
        gx = gys[0].copy()
        for g in gys[1:]:
            gx += g
        return _var(gx),


class Gather(function_node.FunctionNode):

    def __init__(self, comm, root):
        experimental('chainermn.functions.Gather')
        self.comm, self.root = comm, root

    def forward(self, inputs):
        x, = inputs
        ys = self.comm.gather(x, self.root)
        if self.comm.rank == self.root:
            self._like = ys
            return ys
        self._like = None
        return _delegate.empty_like_device(x),

    def backward(self, indexes, grad_outputs):
        if self.comm.rank == self.root:
            gx = self.comm.scatter(_zeros_for_none(grad_outputs, self._like), self.root)
        else:
            gx = self.comm.scatter(None, self.root)
        return _var(gx),


class Scatter(function_node.FunctionNode):

    def __init__(self, comm, root):
        experimental('chainermn.functions.Scatter')
        self.comm, self.root = comm, root

    def forward(self, inputs):
        self._xs = [(x.shape, x.dtype, chainer.backend.get_array_module(x)) for x in inputs]
        y = self.comm.scatter(inputs if self.comm.rank == self.root else None, self.root)
        self._like = y,
        return y,

    def backward(self, indexes, grad_outputs):
        gy, = _zeros_for_none(grad_outputs, self._like)
        gxs = self.comm.gather(gy, self.root)
        if self.comm.rank == self.root:
            return tuple(_var(g) for g in gxs)
        return tuple(_var(xp.zeros(shape, dtype)) for shape, dtype, xp in self._xs)


def _dummy():
    return _delegate.delegate()


def allgather(comm, x):
    """Every rank's ``x``, as a tuple of Variables by rank, on every rank.
    Backward sums each rank's gradients of the copies of its ``x``."""
    experimental('chainermn.functions.all_gather')
    return AllGather(comm).apply((x,))


def alltoall(comm, xs):
    """Sends ``xs[i]`` to rank ``i``; returns the tuple of what each rank sent
    here. ``len(xs)`` must be the number of ranks (every rank raises
    otherwise)."""
    experimental('chainermn.functions.all_to_all')
    return AllToAll(comm).apply(tuple(xs))


def bcast(comm, x, root=0):
    """``x`` of rank ``root`` on every rank (the others may pass None).
    Backward sums every rank's gradient into the root's ``x``."""
    experimental('chainermn.functions.bcast')
    if comm.rank == root:
        return Bcast(comm, root).apply((x,))[0]
    return Bcast(comm, root).apply((_dummy(),))[0]


def gather(comm, x, root=0):
    """On ``root``, the tuple of every rank's ``x``; elsewhere a delegate
    variable whose ``backward()`` receives ``x``'s gradient from the root."""
    experimental('chainermn.functions.gather')
    ys = Gather(comm, root).apply((x,))
    return ys if comm.rank == root else _delegate.ready(ys[0])


def scatter(comm, xs, root=0):
    """Rank ``i`` gets ``xs[i]`` of rank ``root`` (the others may pass None).
    Backward gathers the gradients back to the root."""
    experimental('chainermn.functions.scatter')
    if comm.rank == root:
        return Scatter(comm, root).apply(tuple(xs))[0]
    return Scatter(comm, root).apply((_dummy(),))[0]
