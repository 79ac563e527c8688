"""CuPy glue.  CuPy is optional: ``available`` says whether it is usable.

Importing this module never fails for want of CuPy; the functions that need
a GPU raise a clear error instead.
"""

import contextlib
import functools
import os

import numpy

from chainer import backend
from chainer.configuration import config  # NOQA  (Chainer re-exports it here)
# Chainer's private name for the performance warning of its CUDA paths.
from chainer.warnings import PerformanceWarning as _PerformanceWarning  # NOQA

try:
    import cupy
    import cupyx
    from cupy import cuda  # NOQA
    from cupy.cuda import Device, Event, Stream  # NOQA
    from cupy import ndarray
    try:
        cupy.cuda.runtime.getDeviceCount()
        available = True
    except Exception:  # no driver, no device
        available = False
    _import_error = None
except Exception as e:  # ImportError, or a broken CUDA install
    available = False
    _import_error = e
    cupy = object()
    cupyx = object()
    cuda = None

    class ndarray:  # a dummy that no array is an instance of
        @property
        def shape(self):
            pass

        @property
        def device(self):
            pass

        def get(self, stream=None):
            pass

        def set(self, arr, stream=None):
            pass

    class Device:  # NOQA  (a dummy, as in Chainer: it takes anything)
        def __init__(self, *args, **kwargs):
            pass

    class Event:  # NOQA
        pass

    class Stream:  # NOQA
        null = None

if available:
    memory_pool = cupy.get_default_memory_pool()
    pinned_memory_pool = cupy.get_default_pinned_memory_pool()


def _cudnn_enabled():
    # cuDNN comes through NVIDIA's cuDNN Frontend (CuPy 14 has no
    # cupy.cudnn), imported on first use: chainer.backends._cudnn_frontend.
    if not available:
        return False
    from chainer.backends import _cudnn_frontend
    return _cudnn_frontend.enabled()


def _legacy_cudnn():
    """``cupy.cuda.cudnn``: CuPy's module where it has one, else (CuPy 14)
    chainer-ng's stand-in with ``getVersion`` (Chainer's ``libcudnn``)."""
    try:
        return cupy.cuda.cudnn
    except Exception:  # AttributeError (CuPy 14), ImportError (no cuDNN)
        from chainer.backends import _cudnn_frontend
        cupy.cuda.cudnn = _cudnn_frontend._LegacyBindings()
        return cupy.cuda.cudnn


if available:
    # Chainer code asks ``cuda.cuda.cudnn.getVersion()`` (cupy.cuda.cudnn):
    # the stand-in where CuPy has none (made now; it asks cuDNN on a call).
    _legacy_cudnn()


def __getattr__(name):
    # ``cudnn_enabled`` is decided on first access, so that ``import
    # chainer`` never imports the frontend.
    if name == 'cudnn_enabled':
        return _cudnn_enabled()
    if name in ('cudnn', 'libcudnn') and _cudnn_enabled():
        # Chainer's names: cupy.cudnn (gone in CuPy 14: the frontend's
        # module stands for it) and cupy.cuda.cudnn
        if name == 'libcudnn':
            return _legacy_cudnn()
        from chainer.backends import _cudnn_frontend
        return getattr(cupy, 'cudnn', None) or _cudnn_frontend._frontend()
    raise AttributeError(
        'module {!r} has no attribute {!r}'.format(__name__, name))


_dropout_states = {}


def get_cudnn_dropout_states():
    """Returns the cuDNN dropout states of the current thread (needs cuDNN
    with CuPy's legacy ``cupy.cudnn``, which CuPy 14 removed)."""
    import threading
    return get_cudnn_dropout_states_core(threading.current_thread().ident)


def get_cudnn_dropout_states_core(thread_id):
    """Returns the cuDNN dropout states for ``thread_id`` on the current device."""
    if not _cudnn_enabled():
        raise RuntimeError('cuDNN is not enabled.')
    legacy = getattr(cupy, 'cudnn', None)
    if legacy is None:
        raise RuntimeError(
            'cuDNN dropout states are not available: they need '
            "CuPy's cupy.cudnn (removed in CuPy 14); chainer-ng's dropout "
            'draws its mask with CuPy')
    key = (cupy.cuda.get_device_id(), thread_id)
    states = _dropout_states.get(key)
    if states is None:
        seed = int(os.environ.get('CHAINER_SEED', numpy.random.randint(0, 2 ** 31)))
        states = legacy.DropoutStates(None, seed)
        _dropout_states[key] = states
    return states


def check_cuda_available():
    """Raises RuntimeError unless CuPy and a GPU are usable."""
    if not available:
        # Chainer's text, the import error glued on as it does
        msg = ('CUDA environment is not correctly set up\n'
               '(see https://github.com/chainer/chainer#installation).')
        if _import_error is not None:
            msg += str(_import_error)
        raise RuntimeError(msg)


class DummyDeviceType:
    """A no-op device standing for the CPU in ``with device:`` blocks."""

    id = -1

    def __int__(self):
        return -1

    def __enter__(self):
        return self

    def __exit__(self, *args):
        pass

    def use(self):
        pass

    def synchronize(self):
        pass

    def __eq__(self, other):
        return isinstance(other, DummyDeviceType)

    def __hash__(self):
        return hash(-1)


DummyDevice = DummyDeviceType()


class GpuDevice(backend.Device):
    """One GPU, computing with CuPy."""

    def __init__(self, device):
        check_cuda_available()
        if not isinstance(device, Device):
            raise TypeError('GpuDevice: expected cupy.cuda.Device, got '
                            '{}'.format(type(device).__name__))
        self.device = device

    @property
    def xp(self):
        return cupy

    @property
    def supported_array_types(self):
        return (ndarray,)

    @property
    def name(self):
        return '@cupy:{}'.format(self.device.id)

    @staticmethod
    def from_device_id(device_id):
        check_cuda_available()
        if not (isinstance(device_id, int) and device_id >= 0):
            raise ValueError('GpuDevice: invalid device id {!r}'.format(
                device_id))
        return GpuDevice(Device(device_id))

    @staticmethod
    def from_array(array):
        if available and isinstance(array, ndarray):
            return GpuDevice(array.device)
        return None

    def __repr__(self):
        return '<GpuDevice (cupy):{}>'.format(self.device.id)

    def create_context(self):
        return Device(self.device.id)

    def send_array(self, array):
        return _array_to_gpu(array, self.device, None)

    def use(self):
        self.device.use()

    def is_array_supported(self, array):
        return isinstance(array, ndarray) and \
            array.device.id == self.device.id


def get_device_from_id(device_id):
    """Returns ``cupy.cuda.Device(device_id)``, or the dummy for None or a
    negative id."""
    if device_id is None or device_id < 0:
        return DummyDevice
    check_cuda_available()
    return Device(int(device_id))


def get_device_from_array(*arrays):
    """Returns the ``cupy.cuda.Device`` of the first CuPy array, else the
    dummy device."""
    for array in arrays:
        array = getattr(array, 'array', array)
        if available and isinstance(array, ndarray):
            return array.device
    return DummyDevice


def get_device(*args):
    """Deprecated: use :func:`get_device_from_id` or
    :func:`get_device_from_array`."""
    import warnings
    warnings.warn('get_device is deprecated. Please use get_device_from_id or'
                  ' get_device_from_array instead.', DeprecationWarning)
    for arg in args:
        # any int, -1 too, asks for CUDA there
        if isinstance(arg, (int, numpy.integer)) and \
                not isinstance(arg, bool):
            check_cuda_available()
            return Device(int(arg))
        if available and isinstance(arg, Device):
            return arg
        if available and isinstance(arg, ndarray):
            return arg.device
    return DummyDevice


def _get_device_or_current(device):
    if device is None:
        return cuda.Device()
    if isinstance(device, Device):
        return device
    if isinstance(device, backend.Device):
        return device.device
    return Device(int(device))


def _array_to_gpu(array, device, stream):
    if array is None:
        return None
    array = getattr(array, 'array', array) if not isinstance(
        array, (numpy.ndarray, ndarray)) else array
    if isinstance(array, ndarray):
        if array.device.id == device.id:
            return array
        with device:
            return cupy.array(array, copy=True)
    if isinstance(array, (numpy.ndarray, numpy.generic)):
        with device:
            if stream is not None and stream.ptr != 0:
                out = cupy.empty_like(array)
                out.set(numpy.ascontiguousarray(array), stream)
                return out
            return cupy.asarray(array)
    raise TypeError(
        'to_gpu: expected a numpy or cupy array, got {}'.format(
            type(array).__name__))


def to_gpu(array, device=None, stream=None):
    """Copies an array (or a list/tuple of arrays) to a GPU.

    Args:
        array: A numpy or cupy array, None, or a list/tuple of them.
        device: A device id, a ``cupy.cuda.Device``, or None for the
            current device.
        stream: A CUDA stream for the copy (optional).
    """
    check_cuda_available()
    with _get_device_or_current(device) as dev:
        if isinstance(array, (list, tuple)):
            return type(array)(_array_to_gpu(a, dev, stream) for a in array)
        return _array_to_gpu(array, dev, stream)


def _array_to_cpu(array, stream):
    if available and isinstance(array, ndarray):
        with array.device:
            return array.get(stream)
    return backend.CpuDevice().send_array(array)


def to_cpu(array, stream=None):
    """Copies an array (or a list/tuple of arrays) to the host; scalars
    become 0-dim arrays."""
    if isinstance(array, (list, tuple)):
        return type(array)(_array_to_cpu(a, stream) for a in array)
    return _array_to_cpu(array, stream)


def copy(array, out=None, out_device=None, stream=None):
    """Copies a cupy array, possibly to another device."""
    check_cuda_available()
    if out is None:
        with _get_device_or_current(
                out_device if out_device is not None else array.device):
            out = cupy.empty_like(array)
    with array.device:
        cupy.copyto(out, array)
    return out


def get_array_module(*args):
    """Returns ``cupy`` if any argument is a CuPy array, else ``numpy``."""
    return backend.get_array_module(*args)


def memoize(for_each_device=False):
    """Caches a function's results (per device when asked)."""
    if available:
        return cupy.memoize(for_each_device)

    def decorator(f):
        return functools.lru_cache(maxsize=None)(f)
    return decorator


def clear_memo():
    if available:
        cupy.clear_memo()


@memoize(for_each_device=True)
def elementwise(in_params, out_params, operation, name, **kwargs):
    check_cuda_available()
    return cupy.ElementwiseKernel(in_params, out_params, operation, name,
                                  **kwargs)


@memoize(for_each_device=True)
def reduce(in_params, out_params, map_expr, reduce_expr, post_map_expr,
           identity, name, **kwargs):
    check_cuda_available()
    return cupy.ReductionKernel(in_params, out_params, map_expr, reduce_expr,
                                post_map_expr, identity, name, **kwargs)


@memoize(for_each_device=True)
def raw(code, name, *args, **kwargs):
    check_cuda_available()
    return cupy.RawKernel(code, name, *args, **kwargs)


_max_workspace_size = 8 * 1024 * 1024


def get_max_workspace_size():
    # 0 without cuDNN, as in Chainer
    return _max_workspace_size if _cudnn_enabled() else 0


def set_max_workspace_size(size):
    global _max_workspace_size
    _max_workspace_size = size  # the cuDNN graphs' plans keep within it


def fuse(*args, **kwargs):
    """``cupy.fuse`` when CuPy is available, else the plain function."""
    if available:
        return cupy.fuse(*args, **kwargs)
    if len(args) == 1 and callable(args[0]) and not kwargs:
        return args[0]
    return lambda f: f


_SHOULD_USE_CUDNN = {
    '==always': {'always': True, 'auto': False, 'never': False},
    '>=auto': {'always': True, 'auto': True, 'never': False},
}


def should_use_cudnn(level, lowest_version=0):
    """Whether cuDNN should be used, after ``chainer.config.use_cudnn``."""
    if not _cudnn_enabled():
        return False
    import chainer
    if level not in _SHOULD_USE_CUDNN:
        raise ValueError('should_use_cudnn: invalid level {!r}; expected '
                         "'==always' or '>=auto'".format(level))
    value = chainer.config.use_cudnn
    if value not in _SHOULD_USE_CUDNN[level]:
        raise ValueError('invalid chainer.config.use_cudnn value {!r}; '
                         "expected 'always', 'auto' or 'never'".format(value))
    return _SHOULD_USE_CUDNN[level][value]


def should_use_cudnn_tensor_core(dtype):
    """Whether cuDNN tensor cores should be used for ``dtype``."""
    import chainer
    mode = chainer.config.use_cudnn_tensor_core
    if mode == 'always':
        return True
    if mode == 'never':
        return False
    return numpy.dtype(dtype) == numpy.float16


@contextlib.contextmanager
def using_device(*args):
    yield get_device(*args)
