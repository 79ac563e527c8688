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
    except AssertionError:
        head = _numpy_head(x, y, atol, rtol, verbose)
        raise AssertionError(_report(head, x, y, atol, rtol)) from None


def _numpy_head(x, y, atol, rtol, verbose):
    """NumPy 1.26's assert_allclose message, which Chainer 7.8.1's reports
    begin with (NumPy 2 words it differently: ACTUAL/DESIRED, the maximum
    differences among the violations only, the first mismatches listed)."""
    header = 'Not equal to tolerance rtol=%g, atol=%g' % (rtol, atol)
    remarks = _numpy_remarks(x, y, atol, rtol)
    lines = ['\n' + header, remarks]
    if verbose:
        for name, a in (('x', x), ('y', y)):
            r = numpy.array_repr(a, precision=6)
            if r.count('\n') > 3:
                r = '\n'.join(r.splitlines()[:3]) + '...'
            lines.append(' {}: {}'.format(name, r))
    return '\n'.join(lines)


def _numpy_remarks(x, y, atol, rtol):
    if x.shape != () and y.shape != () and x.shape != y.shape:
        return '\n(shapes {}, {} mismatch)'.format(x.shape, y.shape)
    flagged = numpy.bool_(False)
    for has, test in (('nan', numpy.isnan),
                      ('+inf', lambda a: a == numpy.inf),
                      ('-inf', lambda a: a == -numpy.inf)):
        with numpy.errstate(all='ignore'):
            fx, fy = test(x), test(y)
        if not numpy.all(fx == fy):
            return '\nx and y {} location mismatch:'.format(has)
        # where one side is a scalar, its flag holds everywhere
        flagged = flagged | (fx if numpy.ndim(fx) == 0 else
                             fy if numpy.ndim(fy) == 0 else fy)
    if flagged.ndim:
        n_elements = flagged.size
        x, y = x[~flagged], y[~flagged]
    close = numpy.isclose(x, y, rtol=rtol, atol=atol, equal_nan=True)
    if not flagged.ndim:
        n_elements = close.size
    n_mismatch = close.size - int(close.sum())
    with numpy.errstate(all='ignore'):
        error = abs(x - y)
        if numpy.issubdtype(x.dtype, numpy.unsignedinteger):
            error = numpy.minimum(error, abs(y - x))
        max_abs = numpy.max(error)
        y_b = numpy.broadcast_to(y, error.shape)
        nonzero = y_b != 0
        if not nonzero.any():
            max_rel = numpy.array(numpy.inf)
        else:
            max_rel = numpy.max(error[nonzero] / abs(y_b[nonzero]))
    return '\n'.join([
        '',
        'Mismatched elements: {} / {} ({:.3g}%)'.format(
            n_mismatch, n_elements, 100 * n_mismatch / n_elements),
        'Max absolute difference: ' + numpy.array2string(max_abs),
        'Max relative difference: ' + numpy.array2string(max_rel)])


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
