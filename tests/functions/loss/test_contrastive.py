import warnings

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op, on_device

Y = numpy.array([1, 0, 1, 0], numpy.int32)


def _ref(x0, x1, y, margin, reduce):
    d = numpy.sqrt(((x0 - x1) ** 2).sum(axis=1))
    loss = (y * d * d + (1 - y) * numpy.maximum(margin - d, 0) ** 2) / 2
    return loss if reduce == 'no' else loss.sum() / len(y)


def _make(rng, dt):
    x0 = rng.uniform(-1, 1, (4, 3))
    # distances of about 0.5 or 2: away from 0 and from the margin 1.
    step = rng.randn(4, 3)
    step /= numpy.sqrt((step ** 2).sum(1, keepdims=True))
    x1 = x0 + step * numpy.array([0.5, 0.5, 2, 2])[:, None]
    return x0.astype(dt), x1.astype(dt)


@pytest.mark.parametrize('reduce', ['mean', 'no'])
def test_contrastive(reduce):
    check_op(lambda a, b: F.contrastive(a, b, on_device(Y), 1, reduce),
             _make,
             lambda a, b: _ref(a, b, Y, 1, reduce))


def test_values_and_errors():
    x0 = numpy.zeros((2, 2), numpy.float32)
    x1 = numpy.array([[3., 4.], [0.6, 0.8]], numpy.float32)
    y = F.contrastive(x0, x1, numpy.array([1, 0], numpy.int32), reduce='no')
    numpy.testing.assert_allclose(y.array, [12.5, 0])
    assert type(y.creator).__name__ == 'Contrastive'
    with pytest.raises(ValueError, match='margin should be positive'):
        F.contrastive(x0, x1, Y[:2], margin=0)
    with pytest.raises(ValueError, match="'mean' and 'no'"):
        F.contrastive(x0, x1, Y[:2], reduce='sum')
    with pytest.raises(InvalidType, match='y.dtype.kind == i'):
        F.contrastive(x0, x1, Y[:2].astype(numpy.float32))
    with pytest.raises(InvalidType, match='y.shape'):
        F.contrastive(x0, x1, Y)


@pytest.mark.parametrize('reduce', ['mean', 'no'])
def test_contrastive_zero_distance_gradient(reduce):
    # A dissimilar pair at distance 0: the gradient is 0 (as Chainer gives),
    # with no division by zero.
    x0 = chainer.Variable(numpy.array([[1., 2.], [0., 0.]], numpy.float32))
    x1 = chainer.Variable(numpy.array([[1., 2.], [0., 1.]], numpy.float32))
    y = numpy.array([0, 0], numpy.int32)
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        loss = F.contrastive(x0, x1, y, reduce=reduce)
        F.sum(loss).backward()
    numpy.testing.assert_array_equal(x0.grad, numpy.zeros((2, 2)))
    numpy.testing.assert_array_equal(x1.grad, numpy.zeros((2, 2)))


def test_gradient_rounds_as_chainer():
    # Chainer 7.8.1's bits and zeros' signs (its backward step by step)
    rs = numpy.random.RandomState(0)
    x0 = chainer.Variable(rs.randn(4, 3).astype(numpy.float32))
    x1 = chainer.Variable(rs.randn(4, 3).astype(numpy.float32))
    y = F.contrastive(x0, x1, numpy.array([1, 0, 0, 1], numpy.int32),
                      margin=2, reduce='no')
    y.grad = rs.randn(4).astype(numpy.float32)
    y.backward()
    assert x0.grad.tolist() == [
        [2.276597261428833, 0.6320862770080566, 1.2140345573425293],
        [0.0, 0.0, 0.0], [0.0, 0.0, 0.0],
        [0.04548943042755127, 0.13484586775302887, -0.4111378490924835]]
    assert not numpy.signbit(x0.grad[1:3]).any()
