import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op, on_device


def reference(mask, scale, batchwise):
    def f(x, W, b=None):
        x2 = x.reshape(len(x), -1)
        if batchwise:
            y = numpy.einsum('ni,noi->no', x2, W * mask)
        else:
            y = x2.dot((W * mask).T)
        y = y * scale
        return y if b is None else y + b
    return f


@pytest.mark.parametrize('batchwise', [True, False])
@pytest.mark.parametrize('x_shape', [(2, 3), (2, 3, 1)])
def test_given_mask(batchwise, x_shape):
    mshape = ((2,) if batchwise else ()) + (4, 3)
    mask = numpy.random.RandomState(1).randint(0, 2, mshape)
    check_op(lambda x, W, b: F.simplified_dropconnect(
        x, W, b, 0.25, mask=on_device(mask.astype(x.dtype)),
        use_batchwise_mask=batchwise),
        lambda rng, dt: (numpy.asarray(rng.randn(*x_shape), dt),
                         numpy.asarray(rng.randn(4, 3), dt),
                         numpy.asarray(rng.randn(4), dt)),
        reference(mask, 1 / 0.75, batchwise),
        fwd_tol={numpy.float16: dict(atol=2e-2, rtol=2e-2)})


def test_random_mask_from_the_global_generator():
    x = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    W = numpy.arange(12, dtype=numpy.float32).reshape(4, 3) / 10
    b = numpy.arange(4, dtype=numpy.float32)
    numpy.random.seed(0)
    y = F.simplified_dropconnect(x, W, b, 0.6)
    assert y.creator.label == 'SimplifiedDropconnect'
    numpy.random.seed(0)
    mask = numpy.random.rand(2, 4, 3) >= 0.6
    numpy.testing.assert_allclose(y.array, reference(mask, 1 / 0.4, True)(
        x, W, b), rtol=1e-6)
    numpy.random.seed(0)
    y = F.simplified_dropconnect(x, W, b, 0.6, use_batchwise_mask=False)
    numpy.random.seed(0)
    mask = numpy.random.rand(4, 3) >= 0.6
    numpy.testing.assert_allclose(y.array, reference(mask, 1 / 0.4, False)(
        x, W, b), rtol=1e-6)


def test_test_mode():
    x = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    W = numpy.ones((4, 3), numpy.float32)
    y = F.simplified_dropconnect(x, W, ratio=0.6, train=False)
    numpy.testing.assert_allclose(y.array, x.dot(W.T))
    # A given mask is applied, unscaled.
    mask = numpy.full((2, 4, 3), 2., numpy.float32)
    y = F.simplified_dropconnect(x, W, ratio=0.6, train=False, mask=mask)
    numpy.testing.assert_allclose(y.array, 2 * x.dot(W.T))


def test_no_bias_and_empty_batch():
    W = numpy.ones((4, 3), numpy.float32)
    y = F.simplified_dropconnect(numpy.zeros((0, 3), numpy.float32), W)
    assert y.shape == (0, 4)


def test_errors():
    x = numpy.zeros((2, 3), numpy.float32)
    W = numpy.zeros((4, 3), numpy.float32)
    b = numpy.zeros(4, numpy.float32)
    with pytest.raises(InvalidType, match='x.ndim >= 2'):
        F.simplified_dropconnect(x[0], W, b)
    with pytest.raises(InvalidType, match='W.shape'):
        F.simplified_dropconnect(x, W[:, :2], b)
    with pytest.raises(InvalidType, match='b.shape'):
        F.simplified_dropconnect(x, W, b[:2])
    with pytest.raises(InvalidType, match='b.dtype'):
        F.simplified_dropconnect(x, W, b.astype(numpy.float64))
    with pytest.raises(InvalidType, match='mask.shape'):
        F.simplified_dropconnect(x, W, b, mask=numpy.ones((4, 3)))
    with pytest.raises(InvalidType):
        F.simplified_dropconnect(x.astype(numpy.int32), W, b)


def test_gradients_without_bias():
    mask = numpy.random.RandomState(2).randint(0, 2, (3, 2))
    check_op(lambda x, W: F.simplified_dropconnect(
        x, W, ratio=0.5, mask=on_device(mask.astype(x.dtype)),
        use_batchwise_mask=False),
        lambda rng, dt: (numpy.asarray(rng.randn(2, 2), dt),
                         numpy.asarray(rng.randn(3, 2), dt)),
        reference(mask, 2., False),
        fwd_tol={numpy.float16: dict(atol=2e-2, rtol=2e-2)})


def test_mask_shape_and_variable_mask():
    # as in Chainer: outside training the (all-ones) mask keeps the
    # batchwise shape, and a Variable mask gives its array
    x = numpy.ones((4, 3), numpy.float32)
    W = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    y = F.simplified_dropconnect(x, W, train=False, use_batchwise_mask=True)
    assert y.creator.mask.shape == (4, 2, 3)
    numpy.testing.assert_array_equal(y.array, x.dot(W.T))
    mask = chainer.Variable(numpy.zeros((4, 2, 3), numpy.float32))
    y = F.simplified_dropconnect(x, W, ratio=0.5, mask=mask)
    assert isinstance(y.creator.mask, numpy.ndarray)
    numpy.testing.assert_array_equal(y.array, numpy.zeros((4, 2)))
