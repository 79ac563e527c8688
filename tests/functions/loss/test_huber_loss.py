import numpy
import pytest

import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


def _ref(x, t, delta, reduce):
    d = x - t
    y = numpy.where(abs(d) <= delta, 0.5 * d * d,
                    delta * (abs(d) - 0.5 * delta))
    return y.sum(axis=1) if reduce != 'no' else y


def _make(shape, delta):
    def make(rng, dt):
        x = rng.randn(*shape)
        # Keep |x - t| away from delta, where the second derivative jumps.
        d = rng.choice([0.3, 1.7], shape) * delta * rng.choice([-1, 1], shape)
        return numpy.asarray(x, dt), numpy.asarray(x + d, dt)
    return make


@pytest.mark.parametrize('reduce', ['sum_along_second_axis', 'no'])
@pytest.mark.parametrize('shape', [(3, 4), (2, 3, 2)])
def test_huber_loss(reduce, shape):
    check_op(lambda x, t: F.huber_loss(x, t, 0.5, reduce=reduce),
             _make(shape, 0.5), lambda x, t: _ref(x, t, 0.5, reduce))


def test_values_and_errors():
    x = numpy.array([[0., 2.]], numpy.float32)
    y = F.huber_loss(x, numpy.zeros_like(x), 1.0)
    assert y.array.tolist() == [1.5] and y.dtype == numpy.float32
    assert type(y.creator).__name__ == 'HuberLoss'
    with pytest.raises(ValueError, match="'sum_along_second_axis' and 'no'"):
        F.huber_loss(x, x, 1.0, reduce='mean')
    with pytest.raises(InvalidType, match='x.shape == t.shape'):
        F.huber_loss(x, x[:, :1], 1.0)
    with pytest.raises(InvalidType, match='x.ndim >= 2'):
        F.huber_loss(x[0], x[0], 1.0)
    assert F.huber_loss(x[0], x[0], 1.0, reduce='no').shape == (2,)


@pytest.mark.parametrize('dtype, x, t, want', [
    # Chainer 7.8.1's values (its order of operations, delta in x's dtype)
    (numpy.float16, [0.80029296875, 4.48046875], [0.378173828125, -1.98046875],
     [0.0816650390625, 1.8935546875]),
    (numpy.float32, [-0.7191063165664673, -1.6262925863265991],
     [1.222445011138916, 0.2082749754190445],
     [0.5374653935432434, 0.5053702592849731]),
])
def test_rounds_as_chainer(dtype, x, t, want):
    y = F.huber_loss(numpy.array(x, dtype), numpy.array(t, dtype), 0.3,
                     reduce='no')
    assert y.dtype == dtype
    assert y.array.tolist() == want


def test_mixed_dtypes_without_type_check():
    # as Chainer: with type_check off x - t is cast to x's dtype first
    import chainer
    x = numpy.array([[0.3, -1.7, 2.2]], numpy.float16)
    t = numpy.array([[2.2, 0.8, -0.7]], numpy.float32)
    with pytest.raises(InvalidType, match='x.dtype == t.dtype'):
        F.huber_loss(x, t, 1.)
    with chainer.using_config('type_check', False):
        y = F.huber_loss(x, t, 1.)
        z = F.contrastive(x, t / 2, numpy.array([1], 'i'))
        w = F.triplet(x, t / 2, numpy.array([[0.9, -0.2, 0.45]]), margin=3)
    assert y.dtype == numpy.float16 and y.array.tolist() == [5.796875]
    assert z.dtype == numpy.float16 and z.array.tolist() == 5.7734375
    assert w.dtype == numpy.float16 and w.array.tolist() == 8.8828125
