"""ChainerX, as Chainer ships it when its C++ core is not built.

The real ``pip install chainer`` ships this package whether or not ChainerX's
C++ core is compiled, and Chainer code (its own modules, its tests, the
libraries built on it) imports it unconditionally, then asks
:func:`is_available`. chainer-ng has no ChainerX core, so ``is_available()``
is False and every ``chainer.backend`` path treats ChainerX as absent.

What is here is the surface such code touches at import time: the array
type for ``isinstance`` checks (no array is an instance of it), the dtype
names, and the device, backprop-mode and array-creation names, each of which
raises a :class:`RuntimeError` that says ChainerX is not available when it
is actually called.
"""

from numpy import (  # NOQA  (ChainerX re-exports NumPy's dtypes)
    bool_, dtype, float16, float32, float64, int8, int16, int32, int64,
    uint8)

all_dtypes = (
    bool_, int8, int16, int32, int64, uint8, float16, float32, float64)


def is_available():
    """Whether ChainerX's C++ core is built: never, in chainer-ng."""
    return False


def _unavailable(name):
    return RuntimeError(
        'chainerx.{} needs the ChainerX C++ core, which chainer-ng does not '
        'have (chainerx.is_available() is False); use NumPy or CuPy arrays '
        'with chainer.backend instead'.format(name))


class ndarray:
    """Stands for ChainerX's array type in ``isinstance`` checks; no array
    is an instance of it."""

    def __init__(self, *args, **kwargs):
        raise RuntimeError('chainerx is not available.')


class _Unavailable:
    """A ChainerX class that cannot be instantiated without the core."""

    def __init__(self, *args, **kwargs):
        raise _unavailable(type(self).__name__)


class Device(_Unavailable):
    pass


class Backend(_Unavailable):
    pass


class Context(_Unavailable):
    pass


class DeviceScope(_Unavailable):
    pass


class BackpropId(_Unavailable):
    pass


class ChainerxError(Exception):
    """ChainerX's base error (never raised here)."""


class DimensionError(ChainerxError):
    pass


class DtypeError(ChainerxError):
    pass


class DeviceError(ChainerxError):
    pass


class BackendError(ChainerxError):
    pass


class ContextError(ChainerxError):
    pass


class NotImplementedError(ChainerxError):  # NOQA  (ChainerX's own name)
    pass


def _stub(name):
    def function(*args, **kwargs):
        raise _unavailable(name)
    function.__name__ = function.__qualname__ = name
    function.__doc__ = 'Needs the ChainerX core: raises RuntimeError.'
    return function


# The functions Chainer's code and tests call on ChainerX.
for _name in (
        'get_device', 'get_default_device', 'set_default_device',
        'using_device', 'get_backend', 'get_default_context',
        'set_default_context', 'get_global_default_context',
        'set_global_default_context', 'is_backprop_required',
        'no_backprop_mode', 'force_backprop_mode', 'backward', 'grad',
        'array', 'asarray', 'asanyarray', 'ascontiguousarray', 'empty',
        'empty_like', 'full', 'full_like', 'zeros', 'zeros_like', 'ones',
        'ones_like', 'arange', 'eye', 'identity', 'linspace', 'copy',
        'broadcast_to', 'reshape', 'transpose', 'concatenate', 'stack',
        'square', 'sqrt', 'exp', 'log', 'sum', 'dot', 'maximum', 'minimum',
        'to_numpy', 'from_numpy', '_to_cupy'):
    globals()[_name] = _stub(_name)
del _name
