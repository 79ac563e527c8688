"""Array comparison for tests."""

import numpy

from chainer import backend


def _to_numpy(x):
    x = getattr(x, 'array', x)
    if backend.is_gpu_array(x):
        return x.get()
    return numpy.asarray(x)


def assert_allclose(x, y, atol=1e-5, rtol=1e-4, verbose=True):
    """Asserts that ``x`` and ``y`` (arrays, Variables or scalars) are
    element-wise close: ``|x - y| <= atol + rtol * |y|``.

    The arrays may be on different devices; shapes must broadcast.
    """
    x = _to_numpy(x)
    y = _to_numpy(y)
    try:
        numpy.testing.assert_allclose(x, y, atol=atol, rtol=rtol,
                                      verbose=verbose)
    except AssertionError as e:
        if not verbose:
            raise
        f = numpy.abs(x.astype(numpy.float64) - y.astype(numpy.float64))
        msg = str(e)
        msg += '\n\nassert_allclose failed:\n  shape: {} {}\n  dtype: {} ' \
               '{}\n  max error: {}'.format(x.shape, y.shape, x.dtype,
                                            y.dtype, f.max() if f.size
                                            else 'n/a')
        raise AssertionError(msg) from None
