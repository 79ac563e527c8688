import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


def reference(pool, axis):
    def f(x):
        shape = x.shape[:axis] + (x.shape[axis] // pool, pool) + \
            x.shape[axis + 1:]
        return x.reshape(shape).max(axis=axis + 1)
    return f


def distinct(rng, shape, dtype):
    # A permutation scaled apart: no near-ties for the numerical gradients.
    n = int(numpy.prod(shape))
    return (rng.permutation(n).reshape(shape) * 0.25).astype(dtype)


@pytest.mark.parametrize('shape,pool,axis', [((2, 6), 3, 1), ((4, 3), 2, 0),
                                             ((2, 4, 3), 2, -2)])
def test_maxout(shape, pool, axis):
    check_op(lambda x: F.maxout(x, pool, axis),
             lambda rng, dt: (distinct(rng, shape, dt),),
             reference(pool, axis % len(shape)),
             fwd_tol={numpy.float16: dict(atol=1e-3, rtol=1e-3)})


def test_ties_share_the_gradient():
    x = chainer.Variable(numpy.array([[1., 1., 0., 2.]], numpy.float32))
    y = F.maxout(x, 2)
    numpy.testing.assert_array_equal(y.array, [[1, 2]])
    y.grad = numpy.ones((1, 2), numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [[1, 1, 0, 1]])


def test_empty():
    assert F.maxout(numpy.zeros((0, 4), numpy.float32), 2).shape == (0, 2)


def test_errors():
    x = numpy.zeros((2, 6), numpy.float32)
    with pytest.raises(InvalidType, match='pool_size'):
        F.maxout(x, 4)
    with pytest.raises(ValueError, match='positive integer'):
        F.maxout(x, 0)
    with pytest.raises(TypeError):
        F.maxout(x, 2.0)
    with pytest.raises(IndexError):
        F.maxout(x, 2, axis=2)
    with pytest.raises(InvalidType):
        F.maxout(x.astype(numpy.int32), 2)


def test_grad_zeros_are_signed_like_chainer():
    # Chainer 7.8.1 (F.max's gy * mask): [[-0. -1. -1. -0.]]
    import chainer
    x = chainer.Variable(numpy.array([[1., 3., 2., 0.]], numpy.float32))
    y = F.maxout(x, 2)
    y.grad = numpy.array([[-1., -1.]], numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [[0., -1., -1., 0.]])
    assert numpy.signbit(x.grad).all()


def test_graph_and_error_are_chainers():
    # Chainer 7.8.1 builds maxout of a reshape and a max (a program sees
    # their nodes), and words its error so
    import chainer
    x = chainer.Variable(numpy.arange(12, dtype=numpy.float32).reshape(2, 6))
    y = F.maxout(x, 3)
    assert y.creator.label == 'Max'
    assert y.creator.inputs[0].creator.label == 'Reshape'
    with pytest.raises(InvalidType) as e:
        F.maxout(x, 4)
    assert str(e.value) == 'axis dimension must be divided by pool_size'
    assert e.value.expect == 'x.shape[axis] % pool_size == 0'
    assert e.value.actual == 'x.shape[axis]=6, pool_size=4'
