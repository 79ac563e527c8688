import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils import get_conv_outsize
from chainer.utils.type_check import InvalidType
from op_harness import check_op

F16_TOL = {numpy.float16: dict(atol=2e-2, rtol=2e-2)}
F16_BWD = {numpy.float16: dict(atol=1e-1, rtol=1e-1)}


def conv_ref(x, W, b=None, stride=1, pad=0, cover_all=False, dilate=1,
             groups=1):
    """A loop over output positions (the test's independent reference)."""
    nd = x.ndim - 2
    s, p, d = [(v,) * nd if numpy.isscalar(v) else tuple(v)
               for v in (stride, pad, dilate)]
    k = W.shape[2:]
    outs = [get_conv_outsize(x.shape[2 + i], k[i], s[i], p[i], cover_all,
                             d[i]) for i in range(nd)]
    xp = numpy.pad(x, [(0, 0), (0, 0)] + [(p[i], p[i] + s[i]) for i in
                                          range(nd)])
    n, c = x.shape[:2]
    out_c = W.shape[0]
    cg, og = c // groups, out_c // groups
    y = numpy.zeros((n, out_c) + tuple(outs))
    for pos in numpy.ndindex(*outs):
        sl = tuple(slice(pos[i] * s[i], pos[i] * s[i] + (k[i] - 1) * d[i] + 1,
                         d[i]) for i in range(nd))
        for g in range(groups):
            win = xp[(slice(None), slice(g * cg, (g + 1) * cg)) + sl]
            Wg = W[g * og:(g + 1) * og]
            y[(slice(None), slice(g * og, (g + 1) * og)) + pos] = \
                numpy.tensordot(win, Wg, (list(range(1, nd + 2)),
                                          list(range(1, nd + 2))))
    if b is not None:
        y += b.reshape((1, -1) + (1,) * nd)
    return y


CASES = [
    dict(),
    dict(stride=2, pad=1),
    dict(stride=2, pad=1, cover_all=True),  # stride not dividing
    dict(stride=(1, 2), pad=3),              # pad larger than the kernel
    dict(dilate=2, pad=(1, 0), groups=2),
]


@pytest.mark.parametrize('kw', CASES)
def test_convolution_2d(kw):
    groups = kw.get('groups', 1)

    def make(rng, dt):
        return (rng.uniform(-1, 1, (2, 4, 5, 6)).astype(dt),
                rng.uniform(-1, 1, (3 * groups, 4 // groups, 3, 2)).astype(dt),
                rng.uniform(-1, 1, (3 * groups,)).astype(dt))

    check_op(lambda x, W, b: F.convolution_2d(x, W, b, **kw), make,
             lambda x, W, b: conv_ref(x, W, b, **kw), fwd_tol=F16_TOL,
             bwd_tol=F16_BWD)


def test_convolution_2d_no_bias_batch1():
    def make(rng, dt):
        return (rng.uniform(-1, 1, (1, 2, 4, 4)).astype(dt),
                rng.uniform(-1, 1, (2, 2, 2, 2)).astype(dt))

    check_op(lambda x, W: F.convolution_2d(x, W, stride=3), make,
             lambda x, W: conv_ref(x, W, stride=3), fwd_tol=F16_TOL,
             bwd_tol=F16_BWD)


def test_creator_and_attributes():
    x = numpy.ones((1, 2, 4, 4), numpy.float32)
    W = numpy.ones((3, 2, 2, 2), numpy.float32)
    y = F.convolution_2d(x, W, stride=(1, 2), pad=1, dilate=(2, 1))
    f = y.creator
    assert type(f).__name__ == 'Convolution2DFunction'
    assert (f.sy, f.sx, f.ph, f.pw, f.dy, f.dx) == (1, 2, 1, 1, 2, 1)
    v = chainer.Variable(x)
    y = F.convolution_2d(v, W)
    gx, = chainer.grad([F.sum(y)], [v], enable_double_backprop=True)
    assert type(gx.creator).__name__ == 'Deconvolution2DFunction'


def test_mixed_dtype_keeps_x_dtype():
    x = numpy.ones((1, 2, 3, 3), numpy.float32)
    W = numpy.ones((1, 2, 2, 2), numpy.float64)
    assert F.convolution_2d(x, W).dtype == numpy.float32


def test_errors():
    x = numpy.ones((2, 3, 5, 5), numpy.float32)
    W = numpy.ones((4, 3, 2, 2), numpy.float32)
    with pytest.raises(InvalidType, match=r'in_types\[0\]\.shape\[1\] == '
                       r'in_types\[1\]\.shape\[1\]'):
        F.convolution_2d(x, numpy.ones((4, 2, 2, 2), numpy.float32))
    with pytest.raises(InvalidType, match=r'in_types\[0\]\.ndim == 4'):
        F.convolution_2d(x[0], W)
    with pytest.raises(InvalidType, match=r'in_types\[2\]\.shape\[0\] == '
                       r'in_types\[1\]\.shape\[0\]'):
        F.convolution_2d(x, W, numpy.ones(3, numpy.float32))
    with pytest.raises(InvalidType, match=r'in_types\[0\]\.dtype\.kind == f'):
        F.convolution_2d(x.astype(numpy.int32), W)
    # Chainer's words and types for an empty output, by family
    with pytest.raises(AssertionError,
                       match=r'^Height in the output should be positive\.$'):
        F.convolution_2d(x, numpy.ones((4, 3, 7, 7), numpy.float32))
    with pytest.raises(AssertionError,
                       match=r'^Width in the output should be positive\.$'):
        F.convolution_2d(x, numpy.ones((4, 3, 1, 7), numpy.float32))
    with pytest.raises(AssertionError,
                       match=r'^Output sizes should be positive\.$'):
        F.convolution_nd(x, numpy.ones((4, 3, 7, 7), numpy.float32))
    with pytest.raises(RuntimeError,
                       match=r'^Height in the output must be positive\.$'):
        F.deconvolution_2d(x, numpy.ones((3, 2, 1, 1), numpy.float32),
                           pad=5)
    with pytest.raises(RuntimeError,
                       match=r'^Width in the output must be positive\.$'):
        F.deconvolution_2d(x, numpy.ones((3, 2, 1, 1), numpy.float32),
                           pad=(0, 5))
    with pytest.raises(AssertionError,
                       match=r'^Output sizes should be positive\.$'):
        F.deconvolution_nd(x, numpy.ones((3, 2, 1, 1), numpy.float32),
                           pad=5)
    with pytest.raises(ValueError, match='deterministic'):
        F.convolution_2d(x, W, deterministic=True)
    with pytest.raises(TypeError, match="'foo'"):
        F.convolution_2d(x, W, foo=1)
    with pytest.raises(ValueError, match='groups'):
        F.convolution_2d(x, numpy.ones((4, 1, 2, 2), numpy.float32),
                         groups=3)


def _grads_for_bits(fn, *arrays):
    """Outputs and input gradients of fn, backpropagating
    sum(y * gy) with gy drawn from RandomState(7)."""
    import chainer
    vs = [chainer.Variable(a) for a in arrays]
    ys = fn(*vs)
    ys = ys if isinstance(ys, (tuple, list)) else (ys,)
    rs = numpy.random.RandomState(7)
    loss = None
    for y in ys:
        t = F.sum(y * rs.randn(*y.shape).astype(y.dtype))
        loss = t if loss is None else loss + t
    loss.backward()
    return [y.array for y in ys], [v.grad for v in vs]


def _window_columns(x, k, pad):
    """The windows of x as an (n, c, k, k, out_h, out_w) C-contiguous
    array: the column array Chainer's convolution multiplies."""
    from numpy.lib.stride_tricks import sliding_window_view
    xp = numpy.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    view = sliding_window_view(xp, (k, k), axis=(2, 3))
    return numpy.ascontiguousarray(view.transpose(0, 1, 4, 5, 2, 3))


@pytest.mark.parametrize('shape', [
    # a small product and a larger one
    ((2, 3, 7, 8), (4, 3, 3, 3)),
    ((8, 16, 16, 16), (32, 16, 3, 3)),
])
def test_close_to_chainer_products_conv2d(shape):
    # Chainer computes y and gW as numpy.tensordot of the window columns;
    # chainer-ng's products per chunk of samples may round float32
    # otherwise, so they are held to the float64 tensordot.
    xs, ws = shape
    rs = numpy.random.RandomState(2)
    x = rs.randn(*xs).astype(numpy.float32)
    W = rs.randn(*ws).astype(numpy.float32)
    b = rs.randn(ws[0]).astype(numpy.float32)
    (y,), (gx, gW, gb) = _grads_for_bits(
        lambda a, w, c: F.convolution_2d(a, w, c, pad=1), x, W, b)
    col = _window_columns(x.astype(numpy.float64), 3, 1)
    W = W.astype(numpy.float64)
    y_ref = numpy.rollaxis(
        numpy.tensordot(col, W, ((1, 2, 3), (1, 2, 3))) + b, 3, 1)
    gy = numpy.random.RandomState(7).randn(*y.shape).astype(numpy.float32)
    gW_ref = numpy.tensordot(gy.astype(numpy.float64), col,
                             ((0, 2, 3), (0, 4, 5)))
    numpy.testing.assert_allclose(y, y_ref, rtol=1e-5, atol=1e-4)
    numpy.testing.assert_allclose(gW, gW_ref, rtol=1e-5, atol=1e-3)
    assert y.dtype == gW.dtype == numpy.float32
