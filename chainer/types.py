"""Type aliases for annotating code that uses Chainer.

These names exist for static type checkers and for documentation. At run
time they are ordinary :mod:`typing` objects; importing this module never
imports CuPy or ChainerX (their array and device types are written as
forward references).

>>> from chainer import types
>>> def zeros(shape: types.ShapeSpec, dtype: types.DTypeSpec = None):
...     pass
>>> types.Shape
typing.Tuple[int, ...]
"""

import numbers
import typing as tp
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    # Only for resolving the forward references below.
    from types import ModuleType  # NOQA

    import numpy  # NOQA

    from chainer import backend  # NOQA
    from chainer.backends import cuda  # NOQA


# A concrete shape, as ``ndarray.shape`` gives it.
Shape = tp.Tuple[int, ...]

# What a function accepts as a shape: one int, or a sequence of ints.
ShapeSpec = tp.Union[int, tp.Sequence[int]]

# An array of any backend Chainer knows about.
NdArray = tp.Union['numpy.ndarray', 'cuda.ndarray', 'chainerx.ndarray']  # noqa: F821

# A single value that NumPy treats as a scalar.
ScalarValue = tp.Union['numpy.generic', bytes, str, memoryview, numbers.Number]

if TYPE_CHECKING:  # pragma: no cover
    # Anything ``numpy.dtype()`` accepts.
    DTypeSpec = tp.Union['numpy.dtype', type, str, None]
    # An array module: ``numpy`` or ``cupy``.
    Xp = ModuleType
else:
    # Kept loose at run time: a precise dtype spec cannot be spelled
    # without importing NumPy's typing machinery.
    DTypeSpec = tp.Any
    Xp = tp.Any


class AbstractInitializer(tp.Protocol):
    """What an initializer looks like to a type checker.

    Any :class:`chainer.Initializer`, or any callable that fills an array in
    place, qualifies (structural typing, PEP 544). It is not meant for
    ``isinstance`` checks.
    """

    dtype: tp.Optional[DTypeSpec] = None

    def __call__(self, array: NdArray) -> None:
        ...


# What ``initializer=`` arguments accept: an initializer, a scalar to fill
# with, or an array to copy.
InitializerSpec = tp.Union[AbstractInitializer, ScalarValue, 'numpy.ndarray']

# A GPU device: a ``cupy.cuda.Device`` or its integer id.
CudaDeviceSpec = tp.Union['cuda.Device', int, 'numpy.integer']

# Anything :func:`chainer.get_device` accepts: a device object, a specifier
# string such as ``'@numpy'`` or ``'@cupy:0'``, a ``(backend, id)`` pair, or
# an array module with an optional device id.
DeviceSpec = tp.Union[
    'backend.Device',
    'chainerx.Device',  # noqa: F821
    'cuda.Device',
    str,
    tp.Tuple[str, int],
    'ModuleType',
    tp.Tuple['ModuleType', int],
]
