import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils import get_conv_outsize
from chainer.utils.type_check import InvalidType
from op_harness import check_op


def pool_ref(x, ksize, stride, pad, cover_all, reduce, pval):
    nd = x.ndim - 2
    k, s, p = [(v,) * nd if numpy.isscalar(v) else tuple(v)
               for v in (ksize, stride, pad)]
    outs = [get_conv_outsize(x.shape[2 + i], k[i], s[i], p[i], cover_all)
            for i in range(nd)]
    xp = numpy.pad(x, [(0, 0), (0, 0)] + [(p[i], p[i] + s[i])
                                          for i in range(nd)],
                   constant_values=pval)
    y = numpy.zeros(x.shape[:2] + tuple(outs))
    for pos in numpy.ndindex(*outs):
        sl = tuple(slice(pos[i] * s[i], pos[i] * s[i] + k[i])
                   for i in range(nd))
        win = xp[(Ellipsis,) + sl].reshape(x.shape[:2] + (-1,))
        y[(Ellipsis,) + pos] = reduce(win)
    return y


def _distinct(rng, shape, dt):
    # Distinct values spaced apart: the maximum is unique in every window.
    x = rng.permutation(numpy.prod(shape)).reshape(shape) * 0.5
    return (x - x.mean()).astype(dt)


@pytest.mark.parametrize('func,shape,kw', [
    (F.max_pooling_2d, (2, 2, 5, 6), dict(ksize=2)),
    (F.max_pooling_2d, (1, 2, 5, 5), dict(ksize=3, stride=2, pad=1)),
    (F.max_pooling_2d, (1, 1, 5, 4), dict(ksize=(3, 2), stride=2,
                                          cover_all=False)),
    (F.max_pooling_1d, (2, 2, 7), dict(ksize=3, stride=2, pad=1)),
    (F.max_pooling_3d, (1, 2, 3, 4, 3), dict(ksize=2, stride=1)),
    (F.max_pooling_nd, (1, 1, 4, 5), dict(ksize=2, stride=(1, 2))),
])
def test_max_pooling(func, shape, kw):
    ksize = kw['ksize']
    stride = kw.get('stride', ksize)
    ref = lambda x: pool_ref(x, ksize, stride, kw.get('pad', 0),  # NOQA
                             kw.get('cover_all', True),
                             lambda w: w.max(-1), -numpy.inf)
    check_op(lambda x: func(x, **kw), lambda rng, dt: (
        _distinct(rng, shape, dt),), ref, eps=1e-3)


def test_return_indices_and_ties():
    x = numpy.arange(25, dtype=numpy.float32).reshape(1, 1, 5, 5)
    y, idx = F.max_pooling_2d(x, 3, 2, 1, return_indices=True)
    assert idx.dtype == numpy.int64
    numpy.testing.assert_array_equal(idx[0, 0], [[8, 8, 7], [8, 8, 7],
                                                 [5, 5, 4]])
    assert type(y.creator).__name__ == 'MaxPoolingND'
    # Ties: the gradient goes to the first maximum only.
    v = chainer.Variable(numpy.ones((1, 1, 2, 2), numpy.float32))
    F.sum(F.max_pooling_2d(v, 2)).backward()
    numpy.testing.assert_array_equal(v.grad[0, 0], [[1, 0], [0, 0]])


def test_errors():
    x = numpy.ones((1, 1, 4, 4), numpy.float32)
    with pytest.raises(ValueError, match='should be 2'):
        F.max_pooling_2d(x[0], 2)
    with pytest.raises(InvalidType, match=r'in_types\[0\]\.dtype\.kind == f'):
        F.max_pooling_2d(x.astype(numpy.int32), 2)
    # Chainer's words: max pooling names the sizes, 2-D average pooling
    # the side
    with pytest.raises(AssertionError,
                       match=r'^Output sizes should be positive\.$'):
        F.max_pooling_2d(x, 6, cover_all=False)
    with pytest.raises(AssertionError,
                       match=r'^Height in the output should be positive\.$'):
        F.average_pooling_2d(x, 6)
    with pytest.raises(AssertionError,
                       match=r'^Output sizes should be positive\.$'):
        F.average_pooling_nd(x, 6)


def test_grad_zeros_are_positive_like_chainer():
    # Chainer scatters gy into zeros: the positions no window picked hold
    # +0.0 even for negative gy (printed "0.", never "-0.").
    import chainer
    x = chainer.Variable(numpy.arange(16, dtype=numpy.float32).reshape(
        1, 1, 4, 4))
    y = F.max_pooling_2d(x, 2)
    y.grad = -numpy.ones_like(y.array)
    y.backward()
    assert not numpy.signbit(x.grad[x.grad == 0]).any()
    assert (x.grad == -1).sum() == 4
