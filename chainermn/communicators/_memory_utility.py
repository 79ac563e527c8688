"""Buffers that gradients are packed into for one allreduce, and MPI views of
arrays.

:class:`HostPinnedMemory` is host memory (page-locked through CuPy when CuPy
is there, plain NumPy memory otherwise); :class:`DeviceMemory` is GPU memory
and needs CuPy. :func:`pack_params` copies an attribute (``'grad'`` or
``'data'``) of a list of parameters into one buffer, in one dtype, and
:func:`unpack_params` copies it back.
"""

import numpy

import chainer
from chainermn.communicators import _communication_utility as _util


def _cupy():
    from chainer.backends import cuda
    return cuda.cupy if cuda.available else None


def _is_cupy(array):
    from chainer.backends import cuda
    return isinstance(array, cuda.ndarray)  # (a stand-in type without CuPy)


def get_device_memory_pointer(array):
    """An ``mpi4py`` buffer over the memory of ``array``: the array itself
    for NumPy, its device memory for CuPy (for a CUDA-aware MPI)."""
    if _is_cupy(array):
        return _util.get_mpi().memory.fromaddress(array.data.ptr, array.nbytes)
    if not isinstance(array, numpy.ndarray):
        raise TypeError('get_device_memory_pointer takes a NumPy or CuPy array, got {}'
                        .format(type(array).__name__))
    if not array.flags.c_contiguous:
        raise ValueError('get_device_memory_pointer needs a C-contiguous array')
    return array


def array_to_buffer_object(array, mpi_dtype=None):
    """``[buffer, MPI type]`` of a C-contiguous array, for mpi4py's
    upper-case calls (``MPI.FLOAT`` unless ``mpi_dtype`` says otherwise)."""
    if mpi_dtype is None:
        mpi_dtype = _util.get_mpi().FLOAT
    return [get_device_memory_pointer(array), mpi_dtype]


class HostPinnedMemory:
    """A growable host buffer: :meth:`assign` makes it at least ``size``
    bytes, :meth:`array` views part of it as an array. Page-locked (faster
    copies to and from GPUs) when CuPy is available."""

    def __init__(self):
        self.size = 0
        self.memory = None
        self._bytes = numpy.empty(0, numpy.uint8)

    def assign(self, size):
        if size <= self.size:
            return
        cupy = _cupy()
        if cupy is not None:
            self.memory = cupy.cuda.alloc_pinned_memory(size)
            self._bytes = numpy.frombuffer(self.memory, numpy.uint8, size)
        else:
            self._bytes = numpy.empty(size, numpy.uint8)
        self.size = size

    def ptr(self, offset=0):
        return self._bytes[offset:].ctypes.data

    def buffer(self, size):
        """The first ``size`` bytes, for MPI."""
        return [self._bytes[:size], _util.get_mpi().BYTE]

    def array(self, count, offset=0, dtype=numpy.float32):
        """``count`` elements of ``dtype`` from byte ``offset``: a view."""
        dtype = numpy.dtype(dtype)
        return self._bytes[offset:offset + count * dtype.itemsize].view(dtype)


class DeviceMemory:
    """A growable GPU buffer (needs CuPy): :meth:`assign`, :meth:`array`,
    and copies from and to other device memory."""

    def __init__(self):
        if _cupy() is None:
            raise RuntimeError('DeviceMemory needs CuPy, which is not available: '
                               "pip install 'chainer[cuda]'")
        self.size = 0
        self.memory = None

    def assign(self, size):
        if size > self.size:
            self.memory = _cupy().cuda.alloc(size)
            self.size = size

    def ptr(self):
        return self.memory.ptr

    def buffer(self, size):
        return [_util.get_mpi().memory.fromaddress(self.memory.ptr, size),
                _util.get_mpi().BYTE]

    def array(self, shape, offset=0, dtype=numpy.float32):
        cupy = _cupy()
        return cupy.ndarray(shape, memptr=self.memory + offset, dtype=dtype)

    def from_device(self, src, size, offset=0, stream=None):
        dst = self.memory + offset
        if stream is None:
            dst.copy_from_device(src.data, size)
        else:
            dst.copy_from_device_async(src.data, size, stream)

    def to_device(self, dst, size, offset=0, stream=None):
        src = self.memory + offset
        if stream is None:
            dst.data.copy_from_device(src, size)
        else:
            dst.data.copy_from_device_async(src, size, stream)


def extract_params_set_data(model):
    """The parameters of ``model`` that hold an array, by name."""
    return [p for _, p in sorted(model.namedparams()) if p.data is not None]


def extract_params_set_grad(model, zero_fill):
    """The parameters of ``model`` whose gradients take part in an
    allreduce, by name: those with a gradient, and with ``zero_fill`` also
    those without one (as zeros) that hold an array."""
    return [p for _, p in sorted(model.namedparams())
            if p.grad is not None or (zero_fill and p.data is not None)]


def count_grad_elements(params, zero_fill):
    """The number of gradient elements :func:`pack_params` packs."""
    return sum(p.grad.size if p.grad is not None else p.data.size
               for p in params if p.grad is not None or zero_fill)


class ParamsData:
    """The arrays of one attribute of ``params`` (``'grad'`` or ``'data'``)
    and where each one starts in a packed buffer (in elements)."""

    def __init__(self, params, attr_name, zero_fill):
        self.arrays, self.offsets = [], []
        n = 0
        for p in params:
            a = getattr(p, attr_name)
            if a is None:
                if not zero_fill or attr_name != 'grad':
                    continue
                # Packs as zeros; unpacking gives the parameter its gradient.
                a = p.grad = chainer.backend.get_array_module(p.data).zeros_like(p.data)
            self.arrays.append(a)
            self.offsets.append(n)
            n += a.size
        self.n_elems = n


def _part(buffer, count, offset, dtype):
    if isinstance(buffer, numpy.ndarray):
        return buffer.view(numpy.uint8)[offset:offset + count * dtype.itemsize].view(dtype)
    return buffer.array(count, offset, dtype)


def pack_params(params, attr_name, buffer, transfer_dtype, zero_fill, stream=None):
    """Copies ``attr_name`` of every parameter into ``buffer`` (a 1-d NumPy
    array, or an object with ``array(count, offset, dtype)`` such as
    :class:`HostPinnedMemory`), one after the other, as ``transfer_dtype``."""
    data = ParamsData(params, attr_name, zero_fill)
    transfer_dtype = numpy.dtype(transfer_dtype)
    itemsize = transfer_dtype.itemsize
    for a, offset in zip(data.arrays, data.offsets):
        dst = _part(buffer, a.size, offset * itemsize, transfer_dtype)
        if _is_cupy(a) and isinstance(dst, numpy.ndarray):
            a = a.get(stream)
        dst[...] = a.reshape(-1)
    return data


def unpack_params(params, attr_name, buffer, transfer_dtype, zero_fill, stream=None):
    """Copies what :func:`pack_params` packed (as changed since, by an
    allreduce) back into ``attr_name`` of every parameter, in its own
    dtype."""
    data = ParamsData(params, attr_name, zero_fill)
    transfer_dtype = numpy.dtype(transfer_dtype)
    itemsize = transfer_dtype.itemsize
    for a, offset in zip(data.arrays, data.offsets):
        src = _part(buffer, a.size, offset * itemsize, transfer_dtype).reshape(a.shape)
        if _is_cupy(a) and isinstance(src, numpy.ndarray):
            a.set(src.astype(a.dtype, copy=False), stream)
        else:
            a[...] = src
    return data
