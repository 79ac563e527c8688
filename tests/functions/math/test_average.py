import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


@pytest.mark.parametrize('shape,axis,keepdims', [
    ((2, 3), 1, False), ((2, 3, 2), (0, 2), True), ((2, 3), -1, True),
    ((3, 2), 0, False),
])
def test_average(shape, axis, keepdims):
    check_op(lambda x: F.average(x, axis=axis, keepdims=keepdims),
             lambda rng, dt: (rng.randn(*shape).astype(dt),),
             lambda x: numpy.mean(x, axis=axis, keepdims=keepdims))


def test_average_all_and_mean_alias():
    assert F.mean is F.average
    x = chainer.Variable(numpy.arange(6, dtype=numpy.float32).reshape(2, 3))
    y = F.mean(x)
    assert y.shape == () and float(y.array) == 2.5
    y.backward()
    numpy.testing.assert_allclose(x.grad, numpy.full((2, 3), 1 / 6))


@pytest.mark.parametrize('axis,keepdims', [(1, False), (-1, True),
                                           (0, False)])
def test_average_weights_1d(axis, keepdims):
    shape = (3, 3)
    w_len = shape[axis]

    def ref(x, w):
        y = numpy.average(x, axis=axis, weights=w)
        return numpy.expand_dims(y, axis) if keepdims else y
    check_op(lambda x, w: F.average(x, axis=axis, weights=w,
                                    keepdims=keepdims),
             lambda rng, dt: (rng.randn(*shape).astype(dt),
                              rng.uniform(0.5, 1.5, w_len).astype(dt)),
             ref)


def test_average_weights_full_shape():
    check_op(lambda x, w: F.reshape(F.average(x, weights=w), (1,)),
             lambda rng, dt: (rng.randn(2, 3).astype(dt),
                              rng.uniform(0.5, 1.5, (2, 3)).astype(dt)),
             lambda x, w: numpy.average(x, weights=w).reshape(1))


def test_average_weights_values():
    x = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    w = numpy.array([1., 2., 3.], numpy.float32)
    y = F.average(x, axis=1, weights=w, keepdims=True)
    numpy.testing.assert_allclose(y.array, [[8 / 6], [26 / 6]], rtol=1e-6)


def test_average_errors():
    x = numpy.ones((2, 3), numpy.float32)
    w = numpy.ones(3, numpy.float32)
    with pytest.raises(ValueError, match='tuple axis'):
        F.average(x, axis=(0, 1), weights=x)
    with pytest.raises(InvalidType, match='average'):
        F.average(x, axis=0, weights=w)
    with pytest.raises(InvalidType):
        F.average(x, axis=None, weights=w)
    with pytest.raises(InvalidType):
        F.average(x, axis=2)
    with pytest.raises(InvalidType):
        F.average(numpy.ones(3, numpy.int32))


def test_mean_node_matches_numpy_mean():
    rs = numpy.random.RandomState(0)
    x = rs.randn(4, 5).astype(numpy.float32)
    v = chainer.Variable(x)
    y = F.mean(v)
    assert type(y.creator).__name__ == 'Mean'
    # bit-identical to NumPy's mean (not sum * (1/n))
    assert y.array.tobytes() == numpy.asarray(x.mean()).tobytes()
    assert F.mean(x, axis=0).array.tobytes() == x.mean(axis=0).tobytes()
    y.backward()
    numpy.testing.assert_array_equal(v.grad, numpy.full_like(x, numpy.float32(0.05)))
    h = rs.randn(300).astype(numpy.float16)
    assert F.mean(h).array.item() == h.mean().item()
    assert F.mean(x, axis=1, keepdims=True).shape == (4, 1)


def test_mean_empty_raises_like_chainer():
    with pytest.raises(ZeroDivisionError, match='average: division by '
                       'zero .*an empty axis'):
        F.mean(numpy.zeros((0, 3), numpy.float32))
    assert F.mean(numpy.zeros((0, 3), numpy.float32), axis=1).shape == (0,)


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


def test_bits_match_chainer_average_weights_grad():
    # Exact float32 values of the real Chainer 7.8.1 (same operation
    # order), not just close ones: printed arrays show 1-ulp changes.
    rs = numpy.random.RandomState(8)
    x = rs.randn(6, 7).astype(numpy.float32)
    w = rs.rand(7).astype(numpy.float32)
    _, (gx, gw) = _grads_for_bits(
        lambda a, b: F.average(a, axis=1, weights=b), x, w)
    out = {'gw': gw}
    expect = {
        'gw': numpy.array([
            -0.1608426719903946, 0.5056745409965515,
            -0.8806695938110352, -0.37850654125213623,
            -0.9466993808746338, 1.084565281867981,
            0.9030298590660095],
            numpy.float32).reshape((7,)),
    }
    for k, v in expect.items():
        numpy.testing.assert_array_equal(out[k], v, err_msg=k)
        assert out[k].dtype == numpy.float32
