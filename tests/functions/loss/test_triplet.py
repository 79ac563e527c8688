import numpy
import pytest

import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


def _ref(a, p, n, margin, reduce):
    d = ((a - p) ** 2 - (a - n) ** 2).sum(axis=1) + margin
    loss = numpy.maximum(d, 0)
    return loss if reduce == 'no' else loss.sum() / a.shape[0]


def _make(shape):
    def make(rng, dt):
        while True:
            a, p, n = (rng.randn(*shape) for _ in range(3))
            d = ((a - p) ** 2 - (a - n) ** 2).sum(axis=1) + 0.5
            if (abs(d) > 0.2).all():  # away from the kink
                return a.astype(dt), p.astype(dt), n.astype(dt)
    return make


@pytest.mark.parametrize('reduce', ['mean', 'no'])
@pytest.mark.parametrize('shape', [(4, 3), (2, 2, 2)])
def test_triplet(reduce, shape):
    check_op(lambda a, p, n: F.triplet(a, p, n, 0.5, reduce), _make(shape),
             lambda a, p, n: _ref(a, p, n, 0.5, reduce))


def test_values_and_errors():
    a = numpy.zeros((1, 2), numpy.float32)
    p = numpy.array([[1., 0.]], numpy.float32)
    n = numpy.array([[0., 0.5]], numpy.float32)
    y = F.triplet(a, p, n, margin=1.0)
    assert y.array == 1.75 and type(y.creator).__name__ == 'Triplet'
    with pytest.raises(ValueError, match='margin should be positive'):
        F.triplet(a, p, n, margin=0.)
    with pytest.raises(ValueError, match="'mean' and 'no'"):
        F.triplet(a, p, n, reduce='sum')
    with pytest.raises(InvalidType, match='anchor.shape == negative.shape'):
        F.triplet(a, p, numpy.zeros((2, 2), numpy.float32))
    with pytest.raises(InvalidType, match='anchor.ndim >= 2'):
        F.triplet(a[0], p[0], n[0])
