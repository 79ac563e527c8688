import numpy
import pytest

import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


def _ref(length, padding):
    def f(*xs):
        n = length or max(len(x) for x in xs)
        y = numpy.full((len(xs), n) + xs[0].shape[1:], padding, xs[0].dtype)
        for i, x in enumerate(xs):
            y[i, :len(x)] = x
        return y
    return f


@pytest.mark.parametrize('shapes,length,padding', [
    (((3,), (1,)), None, 0), (((3, 2), (1, 2), (0, 2)), 4, -1.5),
    (((2,),), None, 0),
])
def test_pad_sequence(shapes, length, padding):
    check_op(lambda *xs: F.pad_sequence(xs, length, padding),
             lambda rng, dt: tuple(rng.randn(*s).astype(dt) for s in shapes),
             _ref(length, padding))


def test_pad_sequence_int_and_creator():
    xs = [numpy.ones(3, numpy.int32), numpy.ones(1, numpy.int32)]
    y = F.pad_sequence(xs)
    assert type(y.creator).__name__ == 'PadSequence'
    numpy.testing.assert_array_equal(y.array, [[1, 1, 1], [1, 0, 0]])


def test_pad_sequence_errors():
    a = numpy.ones((3, 2), numpy.float32)
    with pytest.raises(InvalidType, match=r'shape\[0\] <= 2'):
        F.pad_sequence([a], 2)
    with pytest.raises(InvalidType, match=r'shape\[1:\]'):
        F.pad_sequence([a, numpy.ones((1, 3), numpy.float32)])
    with pytest.raises(InvalidType, match='dtype'):
        F.pad_sequence([a, a.astype(numpy.float64)])
    with pytest.raises(InvalidType, match='in_types.size > 0'):
        F.pad_sequence([])
    with pytest.raises(InvalidType, match='ndim > 0'):
        F.pad_sequence([numpy.ones((), numpy.float32)])


def test_mixed_dtypes_without_type_check():
    # as Chainer: the dtype check is a type check; with it off the padded
    # array keeps x0's dtype
    import chainer
    xs = [numpy.array([.3, -1.7], numpy.float16),
          numpy.array([1.1], numpy.float32)]
    with pytest.raises(InvalidType, match='x1.dtype == x0.dtype'):
        F.pad_sequence(xs, padding=-1)
    with chainer.using_config('type_check', False):
        y = F.pad_sequence(xs, padding=-1)
    assert y.dtype == numpy.float16
    assert y.array.tolist() == [[0.300048828125, -1.7001953125],
                                [1.099609375, -1.0]]
