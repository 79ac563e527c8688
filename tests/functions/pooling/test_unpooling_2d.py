import numpy
import pytest

import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


def test_unpooling_2d_values():
    x = numpy.array([[[[1., 2.], [3., 4.]]]], numpy.float32)
    y = F.unpooling_2d(x, 2, cover_all=False)
    numpy.testing.assert_array_equal(
        y.array[0, 0], [[1, 1, 2, 2], [1, 1, 2, 2], [3, 3, 4, 4],
                        [3, 3, 4, 4]])
    assert type(y.creator).__name__ == 'Unpooling2D'
    # cover_all=True (the default) gives the size a cover_all pooling
    # maps back from: 2 * (2 - 1) + 2 - 2 + 1 = 3.
    assert F.unpooling_2d(x, 2).shape == (1, 1, 3, 3)


@pytest.mark.parametrize('kw', [
    dict(ksize=2, cover_all=False),
    dict(ksize=(3, 2), stride=(2, 1), pad=1, outsize=(5, 2)),
])
def test_unpooling_2d_gradients(kw):
    check_op(lambda x: F.unpooling_2d(x, **kw),
             lambda rng, dt: (rng.uniform(-1, 1, (2, 2, 3, 3)).astype(dt),))


def test_errors():
    with pytest.raises(InvalidType, match=r'in_types\[0\]\.ndim == 4'):
        F.unpooling_2d(numpy.ones((1, 2, 2), numpy.float32), 2)


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


def test_bits_match_chainer_unpool_grad():
    # Exact float32 values of the real Chainer 7.8.1 (same operation
    # order), not just close ones: printed arrays show 1-ulp changes.
    rs = numpy.random.RandomState(1)
    x = rs.randn(1, 2, 3, 3).astype(numpy.float32)
    _, (gx,) = _grads_for_bits(lambda v: F.unpooling_2d(v, 2, cover_all=False), x)
    out = {'gx': gx}
    expect = {
        'gx': numpy.array([
            -0.5310263633728027, 2.05849289894104,
            -1.5838346481323242, -1.0081216096878052,
            0.10904467105865479, 2.3203935623168945,
            -1.1661481857299805, -3.8091893196105957,
            -2.09365177154541, 0.07298046350479126,
            -2.074690818786621, 3.291463613510132,
            -0.6970465183258057, 1.2159814834594727,
            1.452322244644165, -4.518796920776367,
            0.11975085735321045, -0.05827617645263672],
            numpy.float32).reshape((1, 2, 3, 3)),
    }
    for k, v in expect.items():
        numpy.testing.assert_array_equal(out[k], v, err_msg=k)
        assert out[k].dtype == numpy.float32
