import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import gradient_check


def test_numerical_grad():
    x = numpy.array([1., 2., 3.])
    g, = gradient_check.numerical_grad(lambda: (x * x,), (x,),
                                       (numpy.ones(3),))
    numpy.testing.assert_allclose(g, 2 * x, atol=1e-8)


def test_numerical_grad_detects_kink():
    x = numpy.array([0.])
    with pytest.raises(gradient_check.NondifferentiableError):
        gradient_check.numerical_grad(
            lambda: (abs(x),), (x,), (numpy.ones(1),),
            detect_nondifferentiable=True)


def test_check_backward_passes_and_fails():
    x = numpy.random.randn(3, 2)
    gy = numpy.random.randn(3, 2)
    gradient_check.check_backward(lambda x: x * x, x, gy)

    class WrongGrad(chainer.FunctionNode):
        def forward(self, inputs):
            return inputs[0] * 3,

        def backward(self, indexes, gys):
            return gys[0] * 2,
    with pytest.raises(AssertionError, match='check_backward failed'):
        gradient_check.check_backward(
            lambda x: WrongGrad().apply((x,))[0], x, gy)


def test_check_backward_params_and_no_grads():
    w = chainer.Parameter(numpy.random.randn(2))
    x = numpy.random.randn(2)
    t = numpy.array([0, 1], numpy.int32)
    gradient_check.check_backward(lambda x, t: x * w, (x, t),
                                  numpy.random.randn(2), params=(w,),
                                  no_grads=(False, True))


def test_check_backward_float16_with_dtype():
    x = numpy.random.randn(3).astype(numpy.float16)
    gradient_check.check_backward(F.exp, x, numpy.ones(3, numpy.float16),
                                  dtype=numpy.float64, atol=1e-2, rtol=1e-2)


def test_check_double_backward():
    x = numpy.random.randn(3)
    gradient_check.check_double_backward(
        lambda x: x * x * x, x, numpy.random.randn(3),
        numpy.random.randn(3))

    class NoDouble(chainer.FunctionNode):
        # backward on raw arrays: no graph, so second order is wrong
        def forward(self, inputs):
            self.retain_inputs((0,))
            return inputs[0] ** 3,

        def backward(self, indexes, gys):
            x = self.get_retained_inputs()[0].array
            return chainer.Variable(3 * x * x * gys[0].array),
    with pytest.raises(AssertionError):
        gradient_check.check_double_backward(
            lambda x: NoDouble().apply((x,))[0], x, numpy.random.randn(3),
            numpy.random.randn(3))


def test_scalar_output_y_grad_none():
    gradient_check.check_backward(lambda x: F.sum(x * x),
                                  numpy.random.randn(4), None)
    with pytest.raises(ValueError, match='y_grad is None'):
        gradient_check.check_backward(lambda x: x * x,
                                      numpy.random.randn(4), None)
