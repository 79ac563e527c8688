"""Devices: where arrays live, and which array module computes on them.

NumPy is the CPU backend; CuPy, when importable, the GPU one.  Everything that
needs to know "numpy or cupy" asks here (or ``x.xp`` on a Variable).
"""

import contextlib

import numpy


class Device:
    """A device that holds arrays: the CPU, or one GPU.

    Subclasses set :attr:`xp` and :attr:`name` and implement
    :meth:`send_array`.
    """

    xp = None
    name = None
    supported_array_types = ()

    def __str__(self):
        return self.name

    def __repr__(self):
        return '<{} ({})>'.format(type(self).__name__, self.name.lstrip('@'))

    def __eq__(self, other):
        return isinstance(other, Device) and self.name == other.name

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash(self.name)

    def __enter__(self):
        raise RuntimeError(
            'Device class does not support runtime context using `with` '
            'statement. Use chainer.using_device instead.')

    def __exit__(self, *exc):
        pass

    def create_context(self):
        """A context manager that makes this device current."""
        return contextlib.nullcontext()

    def send_array(self, array):
        raise NotImplementedError

    def send(self, arrays):
        """Transfers an array, or a list/tuple of arrays, to this device.

        ``None`` (alone or as an entry) is kept as it is; an object listed
        twice is sent once.
        """
        if not isinstance(arrays, (list, tuple)):
            return self.send_array(arrays)
        sent = {}
        for a in arrays:
            if a is not None and id(a) not in sent:
                sent[id(a)] = self.send_array(a)
        return type(arrays)(
            None if a is None else sent[id(a)] for a in arrays)

    def use(self):
        """Makes this device current (a no-op on the CPU)."""

    def is_array_supported(self, array):
        return isinstance(array, self.supported_array_types)


# The CPU device lives in chainer.backends._cpu (as in Chainer, whose users
# see that class path); it needs Device above.
from chainer.backends._cpu import CpuDevice  # NOQA: E402

_cpu_device = CpuDevice()


_cuda = None


def _gpu_module():
    global _cuda
    if _cuda is None:
        from chainer.backends import cuda
        _cuda = cuda
    return _cuda


def get_device(device_spec):
    """Returns a :class:`Device` for a device specifier.

    Accepted: a :class:`Device`; ``'@numpy'``; ``'@cupy:N'``; a
    ``cupy.cuda.Device``; an int or int-string (``-1`` or below: CPU,
    ``N >= 0``: GPU N). ChainerX specifiers (``'native:0'``, ``'cuda:0'``,
    any other string without ``@``) raise RuntimeError, as in a Chainer
    built without ChainerX.

    >>> import chainer
    >>> chainer.get_device('@numpy')
    <CpuDevice (numpy)>
    """
    if isinstance(device_spec, Device):
        return device_spec
    if isinstance(device_spec, str):
        spec = device_spec
        if spec == '@numpy':
            return _cpu_device
        if spec.startswith('@cupy:'):
            # Chainer parses the id before it looks for CUDA.
            return _gpu_module().GpuDevice.from_device_id(int(spec[6:]))
        if spec == '@intel64':
            from chainer.backends import intel64
            intel64.check_ideep_available()
        if spec.startswith('@'):
            raise ValueError(
                'Device specifiers starting with \'@\' must be followed by a '
                'module name and depending on the module, module specific '
                'precise device specifiers. Actual: {}'.format(spec))
        try:
            device_spec = int(spec)
        except ValueError:
            # As in Chainer, any other string names a ChainerX device.
            raise RuntimeError(
                'Tried to parse ChainerX device specifier \'{}\', but '
                'ChainerX is not available. Note that device specifiers '
                'without \'@\' prefix are assumed to be ChainerX device '
                'specifiers.'.format(spec)) from None
    if isinstance(device_spec, (int, numpy.integer)):
        # bool is an int here too: False names GPU 0, as in Chainer.
        if device_spec < 0:
            return _cpu_device
        return _gpu_module().GpuDevice.from_device_id(int(device_spec))
    cuda = _gpu_module()
    if cuda.available and isinstance(device_spec, cuda.Device):
        return cuda.GpuDevice(device_spec)
    raise TypeError(
        'Device specifier must be a backend.Device, cuda.Device, '
        'chainerx.Device, integer or a string. Actual: {}'.format(
            type(device_spec)))


def get_device_from_array(*arrays):
    """Returns the device of the first array that has one (else the CPU)."""
    for array in arrays:
        if array is None:
            continue
        if isinstance(array, numpy.ndarray):
            return _cpu_device
        array = getattr(array, 'array', array)  # Variable
        cuda = _gpu_module()
        if cuda.available and isinstance(array, cuda.ndarray):
            return cuda.GpuDevice.from_array(array)
    return _cpu_device


def using_device(device_spec):
    """Makes a device current within a ``with`` block.

    The specifier is checked at once (a bad one raises here, not at the
    ``with``); as in Chainer, the block gets what the device's context
    gives (None on the CPU).
    """
    return get_device(device_spec).create_context()


def get_array_module(*args):
    """Returns ``numpy`` or ``cupy``, after the given arrays or Variables.

    >>> import numpy as np
    >>> from chainer import backend
    >>> backend.get_array_module(np.zeros(3)) is np
    True
    """
    cuda = _cuda or _gpu_module()
    if cuda.available:
        return cuda.cupy.get_array_module(
            *[getattr(a, 'array', a) for a in args])
    return numpy


def copyto(dst, src):
    """Copies ``src`` into ``dst`` across devices (CPU and GPU)."""
    if isinstance(dst, numpy.ndarray):
        # a list or tuple is sent entry by entry, as Chainer does
        numpy.copyto(dst, _cpu_device.send(src))
        return
    cuda = _gpu_module()
    if cuda.available and isinstance(dst, cuda.ndarray):
        if isinstance(src, (numpy.ndarray, numpy.generic)):
            dst.set(numpy.ascontiguousarray(src))
        else:
            with cuda.get_device_from_array(dst):
                cuda.cupy.copyto(dst, src)
        return
    raise TypeError(
        'cannot copy to non-array object of type {}'.format(type(dst)))


def _get_array_types():
    cuda = _cuda or _gpu_module()
    if cuda.available:
        return (numpy.ndarray, cuda.ndarray)
    return (numpy.ndarray,)


def is_gpu_array(array):
    cuda = _gpu_module()
    return cuda.available and isinstance(array, cuda.ndarray)


def to_chx(array):
    """ChainerX is not available in chainer-ng: raises RuntimeError."""
    raise RuntimeError('ChainerX is not available.')


def from_chx(array):
    """Returns ``array`` (there are no ChainerX arrays in chainer-ng)."""
    return array


class ChainerxDevice(Device):
    """A ChainerX device; constructing it raises (ChainerX is not
    available)."""

    def __init__(self, device=None):
        to_chx(None)

    @staticmethod
    def from_array(array):
        return None  # no array is a ChainerX array here


def __getattr__(name):
    # The device classes of the optional backends, loaded on first use.
    if name == 'GpuDevice':
        return _gpu_module().GpuDevice
    if name == 'Intel64Device':
        from chainer.backends import intel64
        return intel64.Intel64Device
    if name == 'cuda':  # Chainer's module imported it: code reaches it so
        from chainer.backends import cuda
        return cuda
    raise AttributeError(
        "module 'chainer.backend' has no attribute {!r}".format(name))
