import numpy
import pytest

import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op, on_device

T = numpy.array([1, 4, 0], numpy.int32)
S = numpy.array([[2, 3], [0, 1], [3, 3]], numpy.int32)


def _ref(x, W, reduce):
    pos = (W[T] * x).sum(1)
    neg = (W[S] * x[:, None]).sum(2)
    logz = numpy.log(numpy.exp(pos) + numpy.exp(neg).sum(1))
    loss = -(pos - logz + numpy.log(1 - numpy.exp(neg - logz[:, None])).sum(1))
    return loss if reduce == 'no' else loss.mean()


@pytest.mark.parametrize('reduce', ['mean', 'no'])
def test_black_out(reduce):
    check_op(lambda x, W: F.black_out(x, on_device(T), W, on_device(S),
                                      reduce),
             lambda rng, dt: (rng.randn(3, 4).astype(dt),
                              rng.randn(5, 4).astype(dt)),
             lambda x, W: _ref(x, W, reduce),
             fwd_tol={numpy.float16: dict(atol=2e-2, rtol=2e-2)},
             bwd_tol={numpy.float16: dict(atol=1e-1, rtol=1e-1)})


def test_chainer_value_and_errors():
    rng = numpy.random.RandomState(0)
    x = rng.randn(3, 4).astype(numpy.float32)
    W = rng.randn(5, 4).astype(numpy.float32)
    numpy.testing.assert_allclose(F.black_out(x, T, W, S).array, 2.93421,
                                  rtol=1e-5)
    with pytest.raises(ValueError, match="'mean' and 'no'"):
        F.black_out(x, T, W, S, reduce='sum')
    with pytest.raises(InvalidType, match='t.dtype.kind == i'):
        F.black_out(x, T.astype(numpy.float32), W, S)
    with pytest.raises(IndexError, match='label -1'):
        F.black_out(x, numpy.array([1, -1, 0], numpy.int32), W, S)
    with pytest.raises(InvalidType, match='samples: \\(N, S\\)'):
        F.black_out(x, T, W, S[:2])
