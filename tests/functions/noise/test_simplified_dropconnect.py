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


# Chainer 7.8.1's values: the kept weights are scaled before the product,
# summed per example as einsum does (the last bits of y), and W's gradient
# is the batch's masked outer products summed, then scaled.
_Y_BATCHWISE = [
    [0.42146873474121094, -5.775145530700684, -0.3250797688961029],
    [0.4559398889541626, -1.9587552547454834, 2.617042303085327],
    [3.9116973876953125, -7.335084915161133, 6.311161518096924],
    [1.1443824768066406, -6.310323238372803, -6.1520514488220215],
    [2.532371997833252, -0.649344801902771, -1.6126880645751953]]
_GW_BATCHWISE = [
    [0.0] * 7,
    [8.263124465942383, 9.004216194152832, 5.177523136138916,
     9.242597579956055, 7.3996381759643555, 3.556954860687256,
     0.7982580065727234],
    [4.652389049530029, 3.4008638858795166, 9.038300514221191,
     13.696425437927246, 23.00975799560547, 7.113909721374512,
     16.321516036987305]]
_Y_SHARED = [
    [0.42146873474121094, -5.775145530700684, -0.3250797688961029],
    [2.320993661880493, -10.833044052124023, 2.8846707344055176],
    [0.6696505546569824, -12.959930419921875, 3.087592601776123],
    [3.6783711910247803, -6.624111652374268, -6.040371894836426],
    [0.015213251113891602, -8.927087783813477, 1.244203805923462]]
_GW_SHARED = [
    [0.0] * 7,
    [8.263124465942383, 12.767683029174805, 7.486738204956055,
     11.047344207763672, 12.106537818908691, 4.7704362869262695,
     11.125946044921875],
    [0.0, 0.0, 0.0, 22.094688415527344, 24.213075637817383,
     9.540872573852539, 22.25189208984375]]


@pytest.mark.parametrize('batchwise, y_want, gw_want', [
    (True, _Y_BATCHWISE, _GW_BATCHWISE), (False, _Y_SHARED, _GW_SHARED)])
def test_chainer_last_bits(batchwise, y_want, gw_want):
    numpy.random.seed(1)
    x = chainer.Variable((numpy.random.rand(5, 7) * 3).astype(numpy.float32))
    W = chainer.Variable(numpy.random.randn(3, 7).astype(numpy.float32))
    numpy.random.seed(0)
    y = F.simplified_dropconnect(x, W, None, 0.3,
                                 use_batchwise_mask=batchwise)
    y.grad = numpy.ones((5, 3), numpy.float32) * numpy.arange(
        3, dtype=numpy.float32)
    y.backward()
    assert y.array.tolist() == y_want
    assert W.grad.tolist() == gw_want


def test_test_mode_draws_its_mask():
    # Chainer draws the all-ones mask at ratio 0 from the global generator
    x = numpy.ones((2, 3), numpy.float32)
    W = numpy.ones((4, 3), numpy.float32)
    for batchwise, after in [(True, 0.11827442586893322),
                             (False, 0.5680445610939323)]:
        numpy.random.seed(0)
        y = F.simplified_dropconnect(x, W, None, 0.3, train=False,
                                     use_batchwise_mask=batchwise)
        assert numpy.random.rand() == after
        assert y.array.tolist() == [[3.] * 4] * 2


def test_mixed_dtypes_without_type_check():
    # as Chainer: b's dtype check is a type check; with it off the output
    # keeps x's dtype
    x = numpy.array([[.3, -1.7]])
    W = numpy.array([[1.1, .4], [-.35, .9]], numpy.float32)
    b = numpy.array([.2, .1], numpy.float32)
    with pytest.raises(InvalidType, match='b.dtype == x.dtype'):
        F.simplified_dropconnect(x, W, b, train=False)
    with chainer.using_config('type_check', False):
        y = F.simplified_dropconnect(x, W, b, train=False)
    assert y.dtype == numpy.float64
    numpy.testing.assert_allclose(
        y.array, [[-0.14999999999999997, -1.534999956190586]], rtol=1e-15)
