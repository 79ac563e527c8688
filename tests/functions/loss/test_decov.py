import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


@pytest.mark.parametrize('reduce', ['half_squared_sum', 'no'])
def test_decov(reduce):
    def ref(h):
        hc = h - h.mean(0)
        c = hc.T.dot(hc) / h.shape[0] * (1 - numpy.eye(h.shape[1]))
        return c if reduce == 'no' else (c * c).sum() / 2
    check_op(lambda h: F.decov(h, reduce),
             lambda rng, dt: (rng.randn(4, 3).astype(dt),), ref)


def test_values_and_errors():
    h = numpy.array([[1., 1.], [-1., -1.]], numpy.float32)
    y = F.decov(h)
    assert y.array == 1 and type(y.creator).__name__ == 'DeCov'
    with pytest.raises(ValueError, match="'half_squared_sum' and 'no'"):
        F.decov(h, reduce='mean')
    with pytest.raises(InvalidType, match='h.ndim == 2'):
        F.decov(h[0])
    with pytest.raises(InvalidType, match='h.dtype.kind == f'):
        F.decov(h.astype(numpy.int32))


def test_float16_gradients_round_as_chainer():
    # Chainer 7.8.1's values: its gradient divides by N exactly and
    # doubles hc @ cov before scaling by gy / N
    numpy.random.seed(0)
    h = (numpy.random.randn(5, 4) * 2).astype(numpy.float16)
    for reduce, want in [
            ('half_squared_sum',
             [-5.26953125, 7.67578125, 3.59375, 1.4638671875]),
            ('no', [-1.0908203125, 1.5888671875, 0.74365234375,
                    0.302978515625])]:
        hv = chainer.Variable(h)
        c = F.decov(hv, reduce=reduce)
        F.sum(c * c.array).backward()
        assert hv.grad.ravel()[:4].tolist() == want
