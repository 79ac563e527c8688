import numpy
import pytest

import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


def reference(beta):
    return lambda x: numpy.logaddexp(0, beta * x) / beta


@pytest.mark.parametrize('beta,shape', [(1.0, (3, 2)), (2.0, ()),
                                        (0.5, (2, 1, 2))])
def test_softplus(beta, shape):
    check_op(lambda x: F.softplus(x, beta),
             lambda rng, dt: (numpy.asarray(rng.randn(*shape) * 2, dt),),
             reference(beta))


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32])
def test_stable(dtype):
    y = F.softplus(numpy.array([-1e4, 0, 1e4, 100], dtype), beta=2.)
    assert y.creator.label == 'Softplus' and y.dtype == dtype
    numpy.testing.assert_allclose(y.array, [0, numpy.log(2) / 2, 1e4, 100],
                                  rtol=1e-3)


def test_errors():
    with pytest.raises(InvalidType, match='Softplus'):
        F.softplus(numpy.array([1], numpy.int32))
    with pytest.raises(ZeroDivisionError):
        F.softplus(numpy.array([1.], numpy.float32), beta=0)


def test_empty():
    assert F.softplus(numpy.zeros((0,), numpy.float32)).shape == (0,)


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


def test_bits_match_chainer_softplus_grad():
    # Exact float32 values of the real Chainer 7.8.1 (same operation
    # order), not just close ones: printed arrays show 1-ulp changes.
    rs = numpy.random.RandomState(5)
    x = (rs.randn(12) * 3).astype(numpy.float32)
    _, (g1,) = _grads_for_bits(F.softplus, x)
    _, (g2,) = _grads_for_bits(lambda v: F.softplus(v, 2.0), x)
    out = {'g1': g1, 'g2': g2}
    expect = {
        'g1': numpy.array([
            1.335166573524475, -0.1259879618883133,
            0.03279783949255943, 0.13018321990966797,
            -0.45873865485191345, 0.002047810470685363,
            -5.463285924633965e-05, -0.2543170154094696,
            0.648352324962616, 0.16272856295108795,
            -0.016989663243293762, -0.06021410599350929],
            numpy.float32).reshape((12,)),
        'g2': numpy.array([
            1.5786947011947632, -0.05626819282770157,
            0.03282015025615692, 0.07358147203922272,
            -0.5196906924247742, 0.0020654175896197557,
            -3.788589083342231e-06, -0.04900498688220978,
            0.7683618664741516, 0.07290177047252655,
            -0.00048730417620390654, -0.03882327303290367],
            numpy.float32).reshape((12,)),
    }
    for k, v in expect.items():
        numpy.testing.assert_array_equal(out[k], v, err_msg=k)
        assert out[k].dtype == numpy.float32
