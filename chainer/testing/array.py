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
        raise AssertionError(_report(str(e), x, y, atol, rtol)) from None


def _report(head, x, y, atol, rtol):
    """Chainer's failure report: NumPy's message, then the shapes, dtypes,
    the worst element against its tolerance, and both arrays in full."""
    lines = [head, '', 'assert_allclose failed:',
             '  shape: {} {}'.format(x.shape, y.shape),
             '  dtype: {} {}'.format(x.dtype, y.dtype)]
    if x.shape == y.shape and x.size:
        xx, yy = numpy.atleast_1d(x), numpy.atleast_1d(y)
        err = numpy.abs(xx - yy)
        rel_tol = rtol * numpy.abs(yy).astype(numpy.float64)
        tol = atol + rel_tol
        # the element furthest beyond its tolerance
        i = numpy.unravel_index(
            numpy.argmax(err.astype(numpy.float64) - tol), err.shape)
        rel = 'inf' if yy[i] == 0 else err[i] / numpy.abs(yy[i])
        lines += ['  i: {}'.format(tuple(int(k) for k in i)), '  x[i]: {}'.format(xx[i]),
                  '  y[i]: {}'.format(yy[i]),
                  '  relative error[i]: {}'.format(rel),
                  '  absolute error[i]: {}'.format(err[i]),
                  '  relative tolerance * |y[i]|: {}'.format(rel_tol[i]),
                  '  absolute tolerance: {}'.format(atol),
                  '  total tolerance: {}'.format(tol[i])]
    with numpy.printoptions(threshold=10000):
        lines.append('x: ' + numpy.array2string(x, prefix='x: '))
        lines.append('y: ' + numpy.array2string(y, prefix='y: '))
    return '\n'.join(lines) + '\n'
