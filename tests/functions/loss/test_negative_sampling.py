import numpy
import pytest

import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op, on_device

T = numpy.array([1, -1, 0], numpy.int32)
NEG = numpy.array([[2, 3], [0, 1], [3, 3]], numpy.int32)


def _sampler(shape):
    assert shape == (3, 3)
    return numpy.concatenate([numpy.zeros((3, 1), numpy.int32), NEG], 1)


def _ref(x, W, reduce):
    samples = numpy.concatenate([numpy.maximum(T, 0)[:, None], NEG], 1)
    s = (W[samples] * x[:, None]).sum(2)
    s[:, 0] *= -1
    loss = (numpy.log1p(numpy.exp(s)) * (T != -1)[:, None]).sum(1)
    return loss if reduce == 'no' else loss.sum()


@pytest.mark.parametrize('reduce', ['sum', 'no'])
def test_negative_sampling(reduce):
    check_op(lambda x, W: F.negative_sampling(x, on_device(T), W, _sampler,
                                              2, reduce),
             lambda rng, dt: (rng.randn(3, 4).astype(dt),
                              rng.randn(5, 4).astype(dt)),
             lambda x, W: _ref(x, W, reduce))


def test_return_samples_and_errors():
    rng = numpy.random.RandomState(0)
    x = rng.randn(3, 4).astype(numpy.float32)
    W = rng.randn(5, 4).astype(numpy.float32)
    loss, samples = F.negative_sampling(x, T, W, _sampler, 2,
                                        return_samples=True)
    assert type(loss.creator).__name__ == 'NegativeSamplingFunction'
    assert samples[:, 0].tolist() == T.tolist()
    assert (samples[:, 1:] == NEG).all()
    with pytest.raises(ValueError, match="'sum' and 'no'"):
        F.negative_sampling(x, T, W, _sampler, 2, reduce='mean')
    with pytest.raises(TypeError, match='foo'):
        F.negative_sampling(x, T, W, _sampler, 2, foo=1)
    with pytest.raises(InvalidType, match='t.dtype.kind == i'):
        F.negative_sampling(x, T.astype(numpy.float32), W, _sampler, 2)
    with pytest.raises(IndexError, match='label 9'):
        F.negative_sampling(x, numpy.array([9, 0, 0], numpy.int32), W,
                            _sampler, 2)
