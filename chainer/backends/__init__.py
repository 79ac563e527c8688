"""Backends: ``chainer.backends.cuda`` is the GPU glue (CuPy, optional)."""

from chainer.backends import cuda  # NOQA
from chainer.backends import intel64  # NOQA
