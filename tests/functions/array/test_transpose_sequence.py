import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


def _ref(*xs):
    return tuple(numpy.stack([x[t] for x in xs if len(x) > t])
                 for t in range(len(xs[0])))


@pytest.mark.parametrize('shapes', [((3,), (2,), (2,)),
                                    ((2, 2), (1, 2)),
                                    ((2,), (0,))])
def test_transpose_sequence(shapes):
    check_op(lambda *xs: F.transpose_sequence(xs),
             lambda rng, dt: tuple(rng.randn(*s).astype(dt) for s in shapes),
             _ref)


def test_transpose_sequence_empty_and_partial_grad():
    assert F.transpose_sequence([]) == ()
    xs = [chainer.Variable(numpy.ones(2, numpy.float32)),
          chainer.Variable(numpy.ones(1, numpy.float32))]
    ys = F.transpose_sequence(xs)
    assert type(ys[0].creator).__name__ == 'TransposeSequence'
    F.sum(ys[1]).backward()
    numpy.testing.assert_array_equal(xs[0].grad, [0, 1])
    numpy.testing.assert_array_equal(xs[1].grad, [0])


def test_transpose_sequence_errors():
    with pytest.raises(InvalidType, match=r'shape\[0\] >= '):
        F.transpose_sequence([numpy.ones(2, numpy.float32),
                              numpy.ones(3, numpy.float32)])
    with pytest.raises(TypeError, match='0-dimensional'):
        F.transpose_sequence([numpy.ones((), numpy.float32)])
