"""Communicators over mpi4py: arrays travel as raw bytes through host memory,
objects as pickles; a shape or dtype mismatch is found by exchanging each
array's shape and dtype first, so that every rank raises the same error
instead of one rank hanging."""

import collections
import pickle
import zlib

import numpy

import chainer
from chainer.utils import experimental
from chainermn.communicators import _communication_utility as _util
from chainermn.communicators.communicator_base import CommunicatorBase


class _Failed:
    """What a rank contributes to a metadata exchange when its own input is
    bad, so that the others raise too."""

    def __init__(self, message):
        self.message = message


def _raise_if_failed(metas, what):
    bad = [(r, m) for r, m in enumerate(metas) if isinstance(m, _Failed)]
    if bad:
        raise ValueError('{}: {}'.format(what, '; '.join(
            'rank {}: {}'.format(r, m.message) for r, m in bad)))


class MpiCommunicatorBase(CommunicatorBase):
    """A communicator over an ``mpi4py`` communicator (``mpi_comm``).

    Arrays may be NumPy or CuPy arrays (CuPy's go through host memory and
    come back as CuPy arrays on the current device). Subclasses say how
    gradients are averaged.
    """

    def __init__(self, mpi_comm):
        super().__init__()
        self._mpi_comm = mpi_comm
        # What this rank sent to itself, by tag: MPI's blocking send to
        # oneself returns only while the message fits its eager buffer.
        self._to_self = collections.defaultdict(collections.deque)
        (self._rank, self._intra_rank, self._intra_size, self._inter_rank,
         self._inter_size) = _util.init_ranks(mpi_comm)
        self._size = mpi_comm.size

    @property
    def mpi_comm(self):
        """The ``mpi4py`` communicator underneath."""
        if self._mpi_comm is None:
            raise RuntimeError('this {} has been finalized; create a new communicator'
                               .format(type(self).__name__))
        return self._mpi_comm

    rank = property(lambda self: self._rank)
    size = property(lambda self: self._size)
    intra_rank = property(lambda self: self._intra_rank)
    intra_size = property(lambda self: self._intra_size)
    inter_rank = property(lambda self: self._inter_rank)
    inter_size = property(lambda self: self._inter_size)

    def finalize(self):
        self._mpi_comm = None

    def split(self, color, key):
        return type(self)(mpi_comm=self.mpi_comm.Split(color, key))

    def _from_self(self, key, what):
        queue = self._to_self.get(key)
        if not queue:
            raise RuntimeError('{}: rank {} receives from itself (tag {}) what it has not '
                               'sent to itself'.format(what, self.rank, key[1]))
        return queue.popleft()

    # Arrays: metadata (shape, dtype) goes first as a pickle, then the bytes.
    def send(self, data, dest, tag):
        experimental('chainermn.communicators.MpiCommunicatorBase.send')
        comm = self.mpi_comm
        is_tuple = isinstance(data, (tuple, list))
        if dest == self.rank:
            xs = [x.copy() for x in (data if is_tuple else (data,))]
            self._to_self[('array', tag)].append(tuple(xs) if is_tuple else xs[0])
            return
        arrays = [_util.to_host(x)[0] for x in (data if is_tuple else (data,))]
        comm.send((is_tuple, [_util.meta(a) for a in arrays]), dest=dest, tag=tag)
        for a in arrays:
            comm.Send([_util.as_bytes(a), _util.get_mpi().BYTE], dest=dest, tag=tag)

    def recv(self, source, tag):
        experimental('chainermn.communicators.MpiCommunicatorBase.recv')
        comm = self.mpi_comm
        if source == self.rank:
            return self._from_self(('array', tag), 'recv')
        is_tuple, metas = comm.recv(source=source, tag=tag)
        arrays = []
        for m in metas:
            a = _util.empty(m)
            comm.Recv([_util.as_bytes(a), _util.get_mpi().BYTE], source=source, tag=tag)
            arrays.append(a)
        return tuple(arrays) if is_tuple else arrays[0]

    def bcast(self, data, max_buf_len=None, root=0):
        experimental('chainermn.communicators.MpiCommunicatorBase.bcast')
        comm = self.mpi_comm
        if comm.rank == root:
            a, xp = _util.to_host(data)
            comm.bcast(_util.meta(a), root=root)
        else:
            xp = numpy
            a = _util.empty(comm.bcast(None, root=root))
        comm.Bcast([_util.as_bytes(a), _util.get_mpi().BYTE], root=root)
        return _util.from_host(a, xp)

    def gather(self, data, root=0):
        experimental('chainermn.communicators.MpiCommunicatorBase.gather')
        a, xp = _util.to_host(data)
        ys = self.mpi_comm.gather(a, root=root)
        return None if ys is None else tuple(_util.from_host(y, xp) for y in ys)

    def allgather(self, x):
        experimental('chainermn.communicators.MpiCommunicatorBase.allgather')
        a, xp = _util.to_host(x)
        return tuple(_util.from_host(y, xp) for y in self.mpi_comm.allgather(a))

    def allreduce(self, data):
        comm = self.mpi_comm
        a, xp = _util.to_host(data)
        metas = comm.allgather(_util.meta(a))
        if any(m != metas[0] for m in metas):
            raise ValueError(
                'allreduce needs the same shape and dtype on every rank; got {}'.format(
                    ', '.join('rank {}: {} {}'.format(r, m[0], numpy.dtype(m[1]))
                              for r, m in enumerate(metas))))
        # MPI has no float16: sum it in float32.
        buf = a.astype(numpy.float32) if a.dtype == numpy.float16 else a.copy()
        comm.Allreduce(_util.get_mpi().IN_PLACE, buf)
        return _util.from_host(buf.astype(a.dtype, copy=False), xp)

    def scatter(self, xs, root=0):
        experimental('chainermn.communicators.CommunicatorBase.scatter')
        comm = self.mpi_comm
        xp = numpy
        if comm.rank == root:
            if len(xs) != comm.size:
                parts = [_Failed('scatter needs {} arrays, got {}'.format(comm.size, len(xs)))
                         ] * comm.size
            else:
                xp = chainer.backend.get_array_module(xs[0])
                parts = [_util.to_host(x)[0] for x in xs]
        else:
            parts = None
        y = comm.scatter(parts, root=root)
        if isinstance(y, _Failed):
            raise ValueError('scatter from rank {}: {}'.format(root, y.message))
        return _util.from_host(y, xp)

    def alltoall(self, xs):
        experimental('chainermn.communicators.MpiCommunicatorBase.alltoall')
        comm = self.mpi_comm
        if len(xs) != comm.size:
            parts = [_Failed('alltoall needs {} arrays, got {}'.format(comm.size, len(xs)))
                     ] * comm.size
            xp = numpy
        else:
            xp = chainer.backend.get_array_module(xs[0])
            parts = [_util.to_host(x)[0] for x in xs]
        ys = comm.alltoall(parts)
        _raise_if_failed(ys, 'alltoall')
        return tuple(_util.from_host(y, xp) for y in ys)

    # Objects.
    def send_obj(self, obj, dest, tag=0):
        if dest == self.rank:
            self.mpi_comm  # noqa: B018  (raises once finalized)
            self._to_self[('obj', tag)].append(pickle.dumps(obj))
            return
        self.mpi_comm.send(obj, dest=dest, tag=tag)

    def recv_obj(self, source, status=None, tag=None):
        MPI = _util.get_mpi()
        if tag is None:
            tag = MPI.ANY_TAG
        if source == self.rank:
            self.mpi_comm  # noqa: B018
            if tag == MPI.ANY_TAG:
                tag = next((t for kind, t in self._to_self
                            if kind == 'obj' and self._to_self[kind, t]), tag)
            return pickle.loads(self._from_self(('obj', tag), 'recv_obj'))
        return self.mpi_comm.recv(source=source, status=status, tag=tag)

    def bcast_obj(self, obj, max_buf_len=256 * 1024 * 1024, root=0):
        comm = self.mpi_comm
        return _util.chunked_bcast_obj(obj if comm.rank == root else None, comm,
                                       max_buf_len=max_buf_len, root=root)

    def gather_obj(self, obj, root=0):
        return self.mpi_comm.gather(obj, root=root)

    def allreduce_obj(self, obj):
        return self.mpi_comm.allreduce(obj)

    # Models.
    def bcast_data(self, model):
        comm = self.mpi_comm
        MPI = _util.get_mpi()
        params = [(name, p) for name, p in sorted(model.namedparams()) if p.array is not None]
        self._check_same_params('bcast_data', [(n, p.array) for n, p in params])
        for _, param in params:
            a, xp = _util.to_host(param.array)
            comm.Bcast([_util.as_bytes(a), MPI.BYTE], root=0)
            if xp is numpy and a is param.array:
                continue
            param.array[...] = _util.from_host(a, xp)

    def _check_same_params(self, what, named_arrays):
        """Raises the same ValueError on every rank unless every rank holds
        parameters of the same names, shapes and dtypes: a collective over
        arrays that differ would fail on some ranks and wait forever on the
        others. One small allgather (a checksum) when they agree."""
        described = [(name, tuple(a.shape), a.dtype.str) for name, a in named_arrays]
        comm = self.mpi_comm
        sums = comm.allgather(zlib.crc32(repr(described).encode()))
        if len(set(sums)) == 1:
            return
        every = comm.allgather(described)
        first = next(i for i in range(max(map(len, every)) + 1)
                     if len({repr(d[i:i + 1]) for d in every}) > 1)
        raise ValueError(
            '{}: the ranks hold different parameters (names, shapes and dtypes must '
            'agree); the first difference: {}'.format(what, '; '.join(
                'rank {}: {}'.format(r, d[first] if first < len(d) else '(none)')
                for r, d in enumerate(every))))

    def _grads(self, model, zero_fill):
        """The parameters whose gradients are averaged, in the same order on
        every rank (checked), with a zero gradient given to those lacking one
        when ``zero_fill``."""
        named = []
        for name, param in sorted(model.namedparams()):
            if param.array is None:
                continue
            if param.grad is None:
                if not zero_fill:
                    continue
                xp = chainer.backend.get_array_module(param.array)
                param.grad = xp.zeros_like(param.array)
            named.append((name, param))
        self._check_same_params('multi_node_mean_grad', [(n, p.grad) for n, p in named])
        return [p for _, p in named]

    def _start_allreduce(self, buf):
        """A non-blocking in-place sum of ``buf`` (a NumPy array) over the
        ranks: the MPI request to ``Wait()`` on."""
        return self.mpi_comm.Iallreduce(_util.get_mpi().IN_PLACE, buf)

    def _check_finite(self, params):
        if chainer.is_debug():
            for p in params:
                xp = chainer.backend.get_array_module(p.grad)
                if not bool(xp.isfinite(p.grad).all()):
                    raise ValueError('Parameters diverged after allreduce: the mean '
                                     'gradient of {} holds NaN or inf'.format(p.name))
