import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op, on_device

T = numpy.array([[0, 1, -1, 1], [1, 1, 0, 0], [-1, 0, 1, 1]], numpy.int32)


def _ref(x, t, normalize, reduce):
    p = 1 / (1 + numpy.exp(-x))
    loss = -(t * numpy.log(p) + (1 - t) * numpy.log(1 - p)) * (t != -1)
    if reduce == 'no':
        return loss
    return loss.sum() / ((t != -1).sum() if normalize else t.shape[0])


@pytest.mark.parametrize('kw', [{}, {'normalize': False}, {'reduce': 'no'}])
def test_sigmoid_cross_entropy(kw):
    check_op(lambda x: F.sigmoid_cross_entropy(x, on_device(T), **kw),
             lambda rng, dt: (rng.randn(3, 4).astype(dt),),
             lambda x: _ref(x, T, kw.get('normalize', True),
                            kw.get('reduce', 'mean')))


def test_stable_and_values():
    x = chainer.Variable(numpy.array([1e4, -1e4], numpy.float32))
    y = F.sigmoid_cross_entropy(x, numpy.array([0, 1], numpy.int32),
                                reduce='no')
    numpy.testing.assert_allclose(y.array, [1e4, 1e4])
    F.sum(y).backward()
    numpy.testing.assert_allclose(x.grad, [1, -1])
    x = numpy.random.RandomState(0).randn(3, 4).astype(numpy.float32)
    y = F.sigmoid_cross_entropy(x, T)  # Chainer 7.8.1 gives 0.7627
    numpy.testing.assert_allclose(y.array, 0.7627, rtol=1e-4)
    assert type(y.creator).__name__ == 'SigmoidCrossEntropy'
    assert F.sigmoid_cross_entropy(x, -numpy.ones_like(T)).array == 0
    e = F.sigmoid_cross_entropy(numpy.zeros((0, 3), numpy.float32),
                                numpy.zeros((0, 3), numpy.int32))
    assert e.array == 0


def test_errors():
    x = numpy.zeros((3, 4), numpy.float32)
    with pytest.raises(InvalidType, match='t.dtype.kind == i'):
        F.sigmoid_cross_entropy(x, T.astype(numpy.float32))
    with pytest.raises(InvalidType, match='x.shape == t.shape'):
        F.sigmoid_cross_entropy(x, T[:2])
    with pytest.raises(ValueError, match="'mean' and 'no'"):
        F.sigmoid_cross_entropy(x, T, reduce='sum')


def test_bits_match_chainer_order():
    # Chainer computes with NumPy's promotion (float32 x with int32 t is
    # float64) and casts once; checked against Chainer 7.8.1.
    rs = numpy.random.RandomState(1)
    x = rs.randn(3, 4).astype(numpy.float32)
    loss64 = -(x * (T - (x >= 0)) - numpy.log1p(numpy.exp(-abs(x)))) * \
        (T != -1)
    numpy.testing.assert_array_equal(
        F.sigmoid_cross_entropy(x, T, reduce='no').array,
        loss64.astype(numpy.float32))
    v = chainer.Variable(x)
    y = F.sigmoid_cross_entropy(v, T)
    count = (T != -1).sum()
    assert y.array.item() == numpy.float32(loss64.sum() / count).item()
    y.grad = numpy.array(0.5, numpy.float32)
    y.backward()
    sig = numpy.tanh(x * numpy.float32(.5)) * numpy.float32(.5) + \
        numpy.float32(.5)
    numpy.testing.assert_array_equal(
        v.grad, (0.5 * (sig - T) * (T != -1) / count).astype(numpy.float32))
