"""Helpers shared by the initializers."""

from chainer import backend


class DtypeMismatchError(ValueError, AssertionError):
    """The array's dtype is not the initializer's.

    A ValueError, and also an AssertionError, which is what Chainer raises.
    """


def check_dtype(initializer, array):
    dtype = initializer.dtype
    if dtype is not None and array.dtype != dtype:
        raise DtypeMismatchError(
            '{}: dtype mismatch, the initializer has dtype {} but the array '
            'has dtype {}'.format(type(initializer).__name__, dtype,
                                  array.dtype))


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
