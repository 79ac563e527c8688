"""Small utilities shared by the framework and by users' functions."""

import collections.abc as collections_abc  # NOQA
import contextlib
import shutil
import tempfile

import numpy

from chainer.utils.array import size_of_shape, sum_to  # NOQA


def force_array(x, dtype=None):
    """Makes ``x`` an array: NumPy ops on 0-d arrays give scalars, which an
    op must not return."""
    if numpy.isscalar(x):
        if dtype is None:
            return numpy.array(x)
        return numpy.array(x, dtype)
    if dtype is None:
        return x
    return x.astype(dtype, copy=False)


def force_type(dtype, value):
    """Casts a scalar or array ``value`` to ``dtype``."""
    if numpy.isscalar(value):
        return dtype.type(value)
    if value.dtype != dtype:
        return value.astype(dtype, copy=False)
    return value


@contextlib.contextmanager
def tempdir(**kwargs):
    """A temporary directory, removed at the end of the ``with`` block."""
    ignore_errors = kwargs.pop('ignore_errors', False)
    temp_dir = tempfile.mkdtemp(**kwargs)
    try:
        yield temp_dir
    finally:
        shutil.rmtree(temp_dir, ignore_errors=ignore_errors)


def get_conv_outsize(size, k, s, p, cover_all=False, d=1):
    """The output size of a convolution along one axis."""
    dk = k + (k - 1) * (d - 1)
    if cover_all:
        return (size + p * 2 - dk + s - 1) // s + 1
    return (size + p * 2 - dk) // s + 1


def get_deconv_outsize(size, k, s, p, cover_all=False, d=1):
    """The output size of a deconvolution along one axis."""
    dk = (k - 1) * d + 1
    if cover_all:
        return s * (size - 1) + dk - s + 1 - 2 * p
    return s * (size - 1) + dk - 2 * p


from chainer.utils.sparse import CooMatrix, get_order, to_coo  # NOQA
from chainer.utils import argument  # NOQA
from chainer.utils import cache  # NOQA
from chainer.utils import error  # NOQA
from chainer.utils import imgproc  # NOQA
from chainer.utils import meta  # NOQA
from chainer.utils import precision  # NOQA
from chainer.utils import walker_alias  # NOQA
from chainer.utils.meta import enable_final, final  # NOQA
from chainer.utils.walker_alias import WalkerAlias  # NOQA
# The submodules are shadowed by their functions, as in Chainer.
from chainer.utils.experimental import experimental  # NOQA
from chainer.utils.nondeterministic import nondeterministic  # NOQA
