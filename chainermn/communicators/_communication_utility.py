"""What every MPI communicator shares: finding mpi4py, the node layout of the
ranks, pickled objects broadcast in chunks, and arrays moved through host
memory."""

import pickle

import numpy

INT_MAX = 2 ** 31 - 1  # MPI counts are C ints

_MPI_EXTRA = "pip install 'chainer[mpi]'"


try:
    # Imported with this module (first needed by a communicator, never by
    # ``import chainermn``), as mpi4py.MPI initializes MPI.
    from mpi4py import MPI as _MPI
    _MPI_ERROR = None
except ImportError as e:
    _MPI, _MPI_ERROR = None, e


def get_mpi():
    """``mpi4py.MPI``, or an ImportError that says how to install it."""
    if _MPI is None:
        raise ImportError(
            'chainermn needs mpi4py and an MPI library; install them with '
            '{} ({})'.format(_MPI_EXTRA, _MPI_ERROR)) from _MPI_ERROR
    return _MPI


def init_ranks(mpi_comm):
    """``[rank, intra_rank, intra_size, inter_rank, inter_size]`` of this
    process: ranks on one host form a node; nodes are numbered in the order
    of their lowest rank."""
    host = get_mpi().Get_processor_name()
    hosts = mpi_comm.allgather(host)
    nodes = list(dict.fromkeys(hosts))
    same = [r for r, h in enumerate(hosts) if h == host]
    return [mpi_comm.rank, same.index(mpi_comm.rank), len(same),
            nodes.index(host), len(nodes)]


def chunked_bcast_obj(obj, mpi_comm, max_buf_len=256 * 1024 * 1024, root=0):
    """Broadcasts a picklable object from ``root`` in pieces of at most
    ``max_buf_len`` bytes (an MPI message counts its bytes in a C int)."""
    assert 0 < max_buf_len < INT_MAX
    if mpi_comm.rank == root:
        data = numpy.frombuffer(pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL),
                                dtype=numpy.uint8)
        n = mpi_comm.bcast(len(data), root=root)
    else:
        n = mpi_comm.bcast(None, root=root)
        data = numpy.empty(n, dtype=numpy.uint8)
    MPI = get_mpi()
    for start in range(0, n, max_buf_len):
        mpi_comm.Bcast([data[start:start + max_buf_len], MPI.BYTE], root=root)
    return obj if mpi_comm.rank == root else pickle.loads(data.tobytes())


def to_host(x):
    """``x`` as a C-contiguous NumPy array (CuPy arrays are copied to the
    host) and the array module to give it back in."""
    if isinstance(x, numpy.ndarray):
        return numpy.ascontiguousarray(x), numpy
    import chainer
    xp = chainer.backend.get_array_module(x)
    return numpy.ascontiguousarray(chainer.backend.CpuDevice().send(x)), xp


def from_host(a, xp):
    if xp is numpy:
        return a
    return xp.asarray(a)


def meta(x):
    """What a receiver needs to allocate ``x``."""
    return x.shape, x.dtype.str


def empty(m):
    return numpy.empty(m[0], dtype=numpy.dtype(m[1]))


def as_bytes(a):
    """A writable byte view of a C-contiguous array, for MPI.BYTE messages
    (MPI has no float16, and bytes need no type matching)."""
    return a.reshape(-1).view(numpy.uint8) if a.size else numpy.empty(0, numpy.uint8)


def _get_nccl_type_id(dtype):
    """NCCL's id of a float dtype."""
    from chainermn import nccl
    return {numpy.float16: nccl.NCCL_FLOAT16, numpy.float32: nccl.NCCL_FLOAT32,
            numpy.float64: nccl.NCCL_FLOAT64}[numpy.dtype(dtype).type]
