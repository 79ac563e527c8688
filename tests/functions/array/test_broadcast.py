import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


@pytest.mark.parametrize('shape,to', [((1, 3), (2, 3)), ((3,), (2, 2, 3)),
                                      ((), (2,)), ((2, 1), (2, 0))])
def test_broadcast_to(shape, to):
    check_op(lambda x: F.broadcast_to(x, to),
             lambda rng, dt: (numpy.asarray(rng.randn(*shape)).astype(dt),),
             lambda x: numpy.broadcast_to(x, to))


def test_broadcast_to_same_shape_and_creator():
    x = numpy.ones((2, 3), numpy.float32)
    y = F.broadcast_to(x, (2, 3))
    assert isinstance(y, chainer.Variable)
    assert type(F.broadcast_to(x, (2, 2, 3)).creator).__name__ == \
        'BroadcastTo'


def test_broadcast():
    check_op(lambda a, b, c: F.broadcast(a, b, c),
             lambda rng, dt: (rng.randn(2, 1).astype(dt),
                              rng.randn(3).astype(dt),
                              numpy.asarray(rng.randn()).astype(dt)),
             lambda a, b, c: tuple(numpy.broadcast_arrays(a, b, c)))


def test_broadcast_single_and_creator():
    x = numpy.ones(3, numpy.float32)
    assert isinstance(F.broadcast(x), chainer.Variable)
    ys = F.broadcast(x, numpy.ones((2, 1), numpy.float32))
    assert type(ys[0].creator).__name__ == 'Broadcast'
    assert [y.shape for y in ys] == [(2, 3), (2, 3)]


def test_broadcast_errors():
    x = numpy.ones((2, 3), numpy.float32)
    # Chainer's text: the last mismatching axis, or too many dimensions
    with pytest.raises(InvalidType, match=r'Expect: in_type\[0\].shape\[-2\] == 3 '
                       r'or in_type\[0\].shape\[-2\] == 1\nActual: '
                       r'in_type\[0\].shape: \(2, 3\)$'):
        F.broadcast_to(x, (3, 3))
    with pytest.raises(InvalidType, match=r'shape\[-1\] == 4 or'):
        F.broadcast_to(x, (2, 4))
    with pytest.raises(InvalidType, match=r'x.ndim <= len\(shape\)\n'
                       r'Actual: 2 > 1$'):
        F.broadcast_to(x, (3,))
    with pytest.raises(InvalidType, match='cannot broadcast'):
        F.broadcast(x, numpy.ones(2, numpy.float32))
    with pytest.raises(InvalidType, match='in_types.size > 0'):
        F.broadcast()
