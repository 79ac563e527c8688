import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.functions.util.forget import Forget
from op_harness import check_op


def f(a, b):
    return F.tanh(a * b) + a


def test_forget_matches_the_function():
    check_op(lambda a, b: F.forget(f, a, b),
             lambda rng, dt: (numpy.asarray(rng.randn(3, 2), dt),
                              numpy.asarray(rng.randn(3, 2), dt)),
             lambda a, b: numpy.tanh(a * b) + a,
             double_backward=False)  # refused, as in Chainer


def test_no_intermediate_graph_is_kept():
    x = chainer.Variable(numpy.array([1., 2.], numpy.float32))
    w = chainer.Variable(numpy.array([3., 4.], numpy.float32))
    y = F.forget(lambda a, b: a * b + a, x, w)
    assert isinstance(y.creator, Forget) and y.creator.label == 'Forget'
    # The node's inputs are x and w themselves: nothing in between.
    assert y.creator.inputs == (x.node, w.node)
    y.grad = numpy.ones(2, numpy.float32)
    y.backward()
    numpy.testing.assert_allclose(x.grad, [4, 5])
    numpy.testing.assert_allclose(w.grad, [1, 2])


def test_tuple_outputs_and_one_gradient():
    x = chainer.Variable(numpy.array([1., 2.], numpy.float32))
    y0, y1 = F.forget(lambda a: (a * a, a * 3), x)
    numpy.testing.assert_allclose(y0.array, [1, 4])
    # Only y1 is used: y0's gradient is None.
    F.sum(y1).backward()
    numpy.testing.assert_allclose(x.grad, [3, 3])


def test_double_backprop_is_refused_as_in_chainer():
    x = chainer.Variable(numpy.array([1., 2.], numpy.float32))
    y = F.forget(lambda a: F.sum(a * a * a), x)
    with pytest.raises(RuntimeError, match='double backpropagation'):
        chainer.grad([y], [x], enable_double_backprop=True)
    gx, = chainer.grad([y], [x])
    numpy.testing.assert_allclose(gx.array, [3, 12])


def test_parameters_used_by_the_function_get_gradients():
    link = chainer.links.Linear(3, 2)
    link.cleargrads()
    x = chainer.Variable(numpy.ones((4, 3), numpy.float32))
    F.sum(F.forget(link, x)).backward()
    numpy.testing.assert_allclose(link.b.grad, [4, 4])
    numpy.testing.assert_allclose(link.W.grad, numpy.full((2, 3), 4.))
    numpy.testing.assert_allclose(
        x.grad, numpy.tile(link.W.array.sum(0), (4, 1)), rtol=1e-6)


def test_batch_normalization_statistics_are_updated_once():
    # The recomputation in backward runs with config.in_recomputing.
    x = numpy.random.RandomState(0).randn(4, 3).astype(numpy.float32)
    plain = chainer.links.BatchNormalization(3)
    forgot = chainer.links.BatchNormalization(3)
    gy = numpy.ones((4, 3), numpy.float32)
    for link, call in ((plain, plain), (forgot,
                                        lambda v: F.forget(forgot, v))):
        xv = chainer.Variable(x)
        y = call(xv)
        y.grad = gy
        y.backward()
    numpy.testing.assert_allclose(forgot.avg_mean, plain.avg_mean)
    numpy.testing.assert_allclose(forgot.avg_var, plain.avg_var)


def test_one_element_tuple_gives_the_variable():
    y = F.forget(lambda a: (a * 2,), numpy.ones(2, numpy.float32))
    assert isinstance(y, chainer.Variable)


def test_array_inputs_and_no_inputs():
    y = F.forget(lambda a: a * 2, numpy.ones(2, numpy.float32))
    numpy.testing.assert_array_equal(y.array, [2, 2])
    y = F.forget(lambda: chainer.Variable(numpy.ones(2)))
    numpy.testing.assert_array_equal(y.array, [1, 1])


def test_errors():
    x = numpy.ones(2, numpy.float32)
    with pytest.raises(TypeError, match='callable'):
        F.forget(1, x)
    with pytest.raises(TypeError):
        F.forget(lambda a: a, 1.0)
    with pytest.raises(RuntimeError, match='A tuple of Variables'):
        F.forget(lambda a: [a, a], x)
    with pytest.raises(RuntimeError, match='A tuple of Variables'):
        F.forget(lambda a: a.array, x)
    v = chainer.Variable(x)
    for n, ordinal in ((1, '2nd'), (2, '3rd'), (10, '11th'), (11, '12th'),
                       (20, '21st')):
        with pytest.raises(RuntimeError, match=ordinal + '.*int'):
            F.forget(lambda: (v,) * n + (1,))
