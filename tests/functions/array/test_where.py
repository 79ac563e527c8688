import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op, on_device


@pytest.mark.parametrize('cshape,xshape,yshape', [
    ((2, 3), (2, 3), (2, 3)), ((3,), (2, 3), (3,)), ((2, 1), (3,), ()),
    ((0, 3), (0, 3), (3,)),
])
def test_where(cshape, xshape, yshape):
    cond = numpy.random.RandomState(1).rand(*cshape) > 0.5
    check_op(lambda x, y: F.where(on_device(cond), x, y),
             lambda rng, dt: (numpy.asarray(rng.randn(*xshape)).astype(dt),
                              numpy.asarray(rng.randn(*yshape)).astype(dt)),
             lambda x, y: numpy.where(cond, x, y))


def test_where_variable_condition():
    c = chainer.Variable(numpy.array([True, False]))
    x = numpy.ones(2, numpy.float32)
    y = F.where(c, x, x * 0)
    assert type(y.creator).__name__ == 'Where'
    numpy.testing.assert_array_equal(y.array, [1, 0])


def test_where_errors():
    c = numpy.array([True, False, True])
    x = numpy.ones(3, numpy.float32)
    with pytest.raises(InvalidType, match='x.dtype == y.dtype'):
        F.where(c, x, x.astype(numpy.float64))
    with pytest.raises(InvalidType, match='condition.dtype'):
        F.where(c.astype(numpy.int32), x, x)
    with pytest.raises(InvalidType, match='cannot broadcast'):
        F.where(c[:2], x, x)
    with pytest.raises(TypeError):
        F.where(c, 1.0, x)


def test_not_broadcastable_text_is_chainers():
    x = numpy.ones((2, 3), numpy.float32)
    with pytest.raises(InvalidType) as e:
        F.where(numpy.ones((2, 3), bool), x, x.T)
    assert str(e.value) == (
        'cannot broadcast inputs of the following shapes:\n'
        'condition.shape = (2, 3)\nx.shape = (2, 3)\ny.shape = (3, 2)')


def test_mixed_dtypes_without_type_check():
    # as Chainer: the dtype check is a type check; with it off NumPy
    # promotes
    c = numpy.array([[True, False, True]])
    x = numpy.array([[0.3, -1.7, 2.2]], numpy.float16)
    y = numpy.array([[1.1, 0.4, -0.35]], numpy.float32)
    with pytest.raises(InvalidType, match='x.dtype == y.dtype'):
        F.where(c, x, y)
    with chainer.using_config('type_check', False):
        z = F.where(c, x, y)
    assert z.dtype == numpy.float32
    assert z.array.tolist() == [[0.300048828125, 0.4000000059604645,
                                 2.19921875]]
