"""Helpers shared by the initializers."""

from chainer import backend


class DtypeMismatchError(ValueError, AssertionError):
    """The array's dtype is not the initializer's.

    A ValueError, and also an AssertionError, which is what Chainer raises.
    """


def check_dtype(initializer, array, message=True):
    """Chainer's assertion, in its words: ``'float32 != <class
    'numpy.float16'>'`` (the dtype as the initializer was given it), or
    no message at all for the constant initializers (``message=False``)."""
    dtype = initializer.dtype
    if dtype is not None and array.dtype != dtype:
        raise DtypeMismatchError(
            '{} != {}'.format(array.dtype, dtype) if message else '')


def pop_rng(name, kwargs):
    """The ``rng=`` option of the random initializers (None: the global
    ``numpy.random`` / ``cupy.random``)."""
    rng = kwargs.pop('rng', None)
    if kwargs:
        from chainer.utils.argument import unexpected_error
        raise unexpected_error('__init__', kwargs)  # Chainer's text
    return rng


def fill_random(array, rng, method, *args):
    """Fills ``array`` with ``rng.<method>(*args, size=array.shape)``.

    Draws in float64 (``numpy.random`` semantics, so ``numpy.random.seed``
    reproduces it) and casts on assignment.
    """
    xp = backend.get_array_module(array)
    if rng is None:
        rng = xp.random
    values = getattr(rng, method)(*args, size=array.shape)
    array[...] = xp.asarray(values)
