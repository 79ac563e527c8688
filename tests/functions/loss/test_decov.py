import numpy
import pytest

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
