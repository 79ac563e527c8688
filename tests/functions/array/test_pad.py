import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


@pytest.mark.parametrize('shape,width,mode,kw', [
    ((2, 3), 1, 'constant', {}),
    ((2, 3), ((0, 1), (2, 1)), 'constant', {'constant_values': 3}),
    ((3,), (1, 2), 'constant', {}),
    ((2, 3), ((1, 2),), 'edge', {}),
    ((2, 3), 2, 'reflect', {}),
    ((2, 3), ((1, 0), (2, 1)), 'symmetric', {}),
    ((2, 3), 1, 'wrap', {}),
    ((0, 2), 1, 'constant', {}),
    ((), 1, 'constant', {}),  # a 0-d array has nothing to pad
    ((), 2, 'edge', {}),
])
def test_pad(shape, width, mode, kw):
    check_op(lambda x: F.pad(x, width, mode, **kw),
             lambda rng, dt: (numpy.asarray(rng.randn(*shape)).astype(dt),),
             lambda x: numpy.pad(x, width, mode, **kw))


def test_pad_edge_gradient_counts_copies():
    x = chainer.Variable(numpy.zeros(3, numpy.float32))
    F.sum(F.pad(x, 1, 'edge')).backward()
    numpy.testing.assert_array_equal(x.grad, [2, 1, 2])


def test_pad_errors():
    x = numpy.zeros((2, 3), numpy.float32)
    assert type(F.pad(x, 1, 'constant').creator).__name__ == 'Pad'
    with pytest.raises(InvalidType, match='dtype.kind == f'):
        F.pad(x.astype(numpy.int32), 1, 'constant')
    with pytest.raises(ValueError, match='negative'):
        F.pad(x, -1, 'constant')
    with pytest.raises(ValueError, match='pad_width'):
        F.pad(x, ((1, 1), (1, 1), (1, 1)), 'constant')
    with pytest.raises(TypeError):
        F.pad(x, 1)
    v = chainer.Variable(x)
    y = F.pad(v, 1, 'mean')
    with pytest.raises(NotImplementedError, match='mean'):
        y.grad = numpy.ones_like(y.array)
        y.backward()
