"""ChainerX, as Chainer 7.8.1 ships it when its C++ core is not built.

``pip install chainer`` ships this package whether or not ChainerX's C++
core is compiled, and code built on Chainer imports it unconditionally, then
asks :func:`is_available`.  chainer-ng has no ChainerX core, so the module
is what Chainer's is without one: :func:`is_available` (False), the
``ndarray`` type for ``isinstance`` checks (no array is an instance of it;
making one raises ``RuntimeError('chainerx is not available.')``) and
``_build_info``.  Any other name (``chainerx.array``, ``chainerx.float32``,
``chainerx.get_device``, ...) raises the AttributeError it raises there, and
``hasattr`` tells the same as there.
"""

import os  # NOQA  (names Chainer's module has)
import warnings  # NOQA

from chainerx import _build_info

_available = _build_info.build_chainerx


class ndarray(object):
    """Stands for ChainerX's array type in ``isinstance`` checks; no array
    is an instance of it."""

    def __init__(self, *args, **kwargs):
        raise RuntimeError('chainerx is not available.')


def is_available():
    """Whether ChainerX's C++ core is built: never, in chainer-ng."""
    return _available
