import numpy
import pytest

import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


def reference(x, beta):
    b = beta.reshape((1,) + beta.shape + (1,) * (x.ndim - 1 - beta.ndim))
    return x / (1 + numpy.exp(-b * x))


@pytest.mark.parametrize('x_shape,b_shape', [((3, 2), (2,)),
                                             ((2, 3, 2), (3,)),
                                             ((2, 3), ())])
def test_swish(x_shape, b_shape):
    check_op(F.swish, lambda rng, dt: (numpy.asarray(rng.randn(*x_shape), dt),
                                       numpy.asarray(rng.uniform(0.5, 2, b_shape), dt)),
             reference)


def test_values():
    y = F.swish(numpy.array([[0., 2.]], numpy.float32),
                numpy.array([1., 1.], numpy.float32))
    assert y.creator.label == 'Swish'
    numpy.testing.assert_allclose(y.array, [[0, 2 / (1 + numpy.exp(-2))]],
                                  rtol=1e-6)


def test_errors():
    x = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(InvalidType, match='beta.shape'):
        F.swish(x, numpy.ones(1, numpy.float32))
    with pytest.raises(InvalidType, match='beta.dtype'):
        F.swish(x, numpy.ones(3, numpy.float64))


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


def test_bits_match_chainer_swish_grad():
    # Exact float32 values of the real Chainer 7.8.1 (same operation
    # order), not just close ones: printed arrays show 1-ulp changes.
    rs = numpy.random.RandomState(6)
    x = (rs.randn(4, 3) * 2).astype(numpy.float32)
    beta = rs.randn(3).astype(numpy.float32)
    _, (gx, gbeta) = _grads_for_bits(F.swish, x, beta)
    out = {'gx': gx, 'gbeta': gbeta}
    expect = {
        'gx': numpy.array([
            1.0210129022598267, -0.502122163772583,
            0.017204217612743378, 0.31973135471343994,
            0.008586606942117214, 0.0012409866321831942,
            -0.0001377617591060698, 0.10752115398645401,
            0.6901958584785461, 0.3857669532299042,
            -0.630526602268219, -0.09721305221319199],
            numpy.float32).reshape((4, 3)),
        'gbeta': numpy.array([
            0.5713735818862915, -0.548876166343689,
            2.5873472690582275],
            numpy.float32).reshape((3,)),
    }
    for k, v in expect.items():
        numpy.testing.assert_array_equal(out[k], v, err_msg=k)
        assert out[k].dtype == numpy.float32
