import numpy
import pytest

import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


def avg_ref(x, k, s, p):
    xp = numpy.pad(x, [(0, 0), (0, 0), (p, p), (p, p)])
    oh = (x.shape[2] + 2 * p - k) // s + 1
    ow = (x.shape[3] + 2 * p - k) // s + 1
    y = numpy.zeros(x.shape[:2] + (oh, ow))
    for i in range(oh):
        for j in range(ow):
            y[:, :, i, j] = xp[:, :, i * s:i * s + k,
                               j * s:j * s + k].mean((2, 3))
    return y


@pytest.mark.parametrize('shape,k,s,p', [
    ((2, 2, 4, 6), 2, 2, 0),
    ((1, 2, 5, 5), 3, 2, 1),   # padding counts as zeros
    ((1, 1, 3, 3), 2, 1, 2),   # pad larger than the kernel
])
def test_average_pooling_2d(shape, k, s, p):
    check_op(lambda x: F.average_pooling_2d(x, k, s, p),
             lambda rng, dt: (rng.uniform(-1, 1, shape).astype(dt),),
             lambda x: avg_ref(x, k, s, p))


def test_creator_and_errors():
    x = numpy.ones((1, 1, 4, 4), numpy.float32)
    assert type(F.average_pooling_2d(x, 2).creator).__name__ == \
        'AveragePooling2D'
    with pytest.raises(InvalidType, match=r'in_types\[0\]\.ndim == 4'):
        F.average_pooling_2d(x[0], 2)


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


def test_bits_match_chainer_avgpool_overlap_grad():
    # Exact float32 values of the real Chainer 7.8.1 (same operation
    # order), not just close ones: printed arrays show 1-ulp changes.
    rs = numpy.random.RandomState(0)
    x = rs.randn(1, 1, 4, 5).astype(numpy.float32)
    _, (gx,) = _grads_for_bits(lambda v: F.average_pooling_2d(v, 3, 2, 1), x)
    out = {'gx': gx}
    expect = {
        'gx': numpy.array([
            0.1878361850976944, 0.13606536388397217,
            -0.05177082121372223, -0.04812413454055786,
            0.003646685043349862, 0.2331157773733139,
            0.09368683397769928, -0.13942892849445343,
            -0.13555273413658142, 0.003876193193718791,
            0.04527958482503891, -0.04237852990627289,
            -0.0876581147313118, -0.08742859959602356,
            0.000229508092161268, 0.04527958482503891,
            -0.04237852990627289, -0.0876581147313118,
            -0.08742859959602356, 0.000229508092161268],
            numpy.float32).reshape((1, 1, 4, 5)),
    }
    for k, v in expect.items():
        numpy.testing.assert_array_equal(out[k], v, err_msg=k)
        assert out[k].dtype == numpy.float32


def test_float16_averages_in_float32_as_numpy_mean():
    # Chainer 7.8.1 takes the window means with NumPy's mean, whose float16
    # sums run in float32; its digits
    numpy.random.seed(0)
    x = numpy.random.randn(1, 2, 4, 4).astype(numpy.float16)
    y = F.average_pooling_2d(x, 2)
    assert y.dtype == numpy.float16
    assert y.array.ravel().tolist() == [
        0.763671875, 1.00390625, 0.297607421875, 0.59375, -0.1524658203125,
        -0.104736328125, 0.95458984375, 0.097900390625]
    y = F.average_pooling_2d(x, 3, 1, 1)
    assert y.array.ravel()[:6].tolist() == [
        0.33935546875, 0.5537109375, 0.38232421875, 0.4462890625,
        0.37353515625, 0.60400390625]
