import re
import warnings

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


@pytest.mark.parametrize('func, x, kink', [
    (lambda x: (abs(x),), 0.0012, False),   # kink just beyond eps
    (lambda x: (abs(x),), 0.0008, True),    # kink within eps
    (lambda x: ((x > 0).astype(x.dtype),), -0.0012, False),
    (lambda x: (numpy.floor(x),), 99.9988, False),
    (lambda x: (x * x + 2.,), 0., False),
    (lambda x: (-3 * x ** 3 + 2 * x ** 2 + 1,), -100., False),
    (lambda x: (-3 * x ** 3 + 2 * x ** 2 + 1,), 0., False),
])
def test_numerical_grad_detects_kinks_within_eps_only(func, x, kink):
    # as Chainer: samples at x +- eps/2 and x +- eps, fitted by a quadratic
    xs = numpy.array([x], numpy.float32)
    gy = numpy.array([0.7], numpy.float32)

    def run():
        return gradient_check.numerical_grad(
            lambda: func(xs), (xs,), (gy,), eps=1e-3,
            detect_nondifferentiable=True)

    if kink:
        with pytest.raises(gradient_check.NondifferentiableError):
            run()
    else:
        run()


def test_numerical_grad_detects_a_change_of_finiteness():
    def nan_segment(x):
        y = numpy.ones_like(x)
        y[(-1 < x) & (x < 1)] = numpy.nan
        return y,

    for x, kink in ((1., True), (-1., True), (0., False)):
        xs = numpy.array([x], numpy.float32)
        gy = numpy.ones(1, numpy.float32)
        if kink:
            with pytest.raises(gradient_check.NondifferentiableError):
                gradient_check.numerical_grad(
                    lambda: nan_segment(xs), (xs,), (gy,),
                    detect_nondifferentiable=True)
        else:
            gradient_check.numerical_grad(
                lambda: nan_segment(xs), (xs,), (gy,),
                detect_nondifferentiable=True)


def test_numerical_grad_fourth_order_with_detection():
    xs = numpy.array([0.5, 2.], numpy.float64)
    gx, = gradient_check.numerical_grad(
        lambda: (xs ** 3,), (xs,), (numpy.ones(2),), eps=1e-2,
        detect_nondifferentiable=True)
    numpy.testing.assert_allclose(gx, 3 * xs ** 2, rtol=1e-9)


@pytest.mark.parametrize('eps', [0, -1.])
def test_numerical_grad_rejects_nonpositive_eps(eps):
    xs = numpy.ones(2, numpy.float32)
    with pytest.raises(AssertionError):
        gradient_check.numerical_grad(lambda: (xs,), (xs,), (xs,), eps=eps)


def test_check_backward_no_grads_input_getting_a_gradient_raises():
    x1 = numpy.array([2], numpy.float32)
    x2 = numpy.array([3], numpy.float32)
    gy = numpy.array([5], numpy.float32)
    with pytest.raises(RuntimeError, match='must be None'):
        gradient_check.check_backward(
            lambda x, y: (x + y.array,), (x1, x2), gy, no_grads=[True, True])


@pytest.mark.parametrize('size', [0, 1, 5, 64])
def test_sample_unit_vector(size):
    y = gradient_check._CheckBackward._sample_unit_vector(size, numpy)
    assert y.shape == (size,)
    if size:
        numpy.testing.assert_allclose(numpy.square(y).sum(), 1.0)
        assert abs(y).min() >= 0.1 / numpy.sqrt(size)


def test_assert_allclose_is_deprecated_as_in_chainer():
    with pytest.warns(DeprecationWarning) as w:
        gradient_check.assert_allclose(numpy.ones(2), numpy.ones(2) + 1e-6)
    assert [str(m.message) for m in w] == [
        'chainer.gradient_check.assert_allclose is deprecated. '
        'Use chainer.testing.assert_allclose instead.']
    with pytest.raises(AssertionError), warnings.catch_warnings():
        warnings.simplefilter('ignore')
        gradient_check.assert_allclose(numpy.ones(2), numpy.zeros(2))


def test_check_backward_failure_report_as_chainer():
    # Chainer 7.8.1's report: inputs, output gradients, directions, both
    # directional derivatives, then testing.assert_allclose's report
    x = numpy.array([-0.50965218, -0.4380743, -1.25279536])
    with pytest.raises(AssertionError) as e:
        gradient_check.check_backward(lambda a: -a, x, numpy.ones(3),
                                      atol=0, rtol=1e-20)
    msg = str(e.value)
    head, tail = msg.split('gradients (numeric):  ')
    assert head.startswith(
        'check_backward failed (eps=0.001 atol=0 rtol=1e-20)\n'
        'inputs[0]:\n[-0.50965218 -0.4380743  -1.25279536]\n'
        'grad_outputs[0]:\n[1. 1. 1.]\ndirections[0]:\n')
    assert '\n\nx: numeric gradient, y: backward gradient\n' \
        'Not equal to tolerance rtol=1e-20, atol=0\n\n' \
        'Mismatched elements: 1 / 1 (100%)\n' in tail
    assert msg.endswith('\n')


def test_check_backward_failure_report_lists_none_and_int_inputs():
    x = numpy.array([1.5, 2.5])
    with pytest.raises(AssertionError) as e:
        gradient_check.check_backward(
            lambda a, t: (a * 2, a ** 2), (x, numpy.array([1, 0], 'i')),
            (None, numpy.ones(2)), atol=1e-14, rtol=1e-14)
    assert ('inputs[0]:\n[1.5 2.5]\ninputs[1]:\n[1 0]\n'
            'grad_outputs[0]:\nNone\ngrad_outputs[1]:\n[1. 1.]\n'
            'directions[0]:\n') in str(e.value)


def test_check_backward_relative_tolerance_scales_with_backward():
    # Chainer compares assert_allclose(numeric, backward): the tolerance is
    # atol + rtol * |backward|, so a doubled gradient of 1 (numeric 1,
    # backward 2) passes at rtol=0.5 and fails at rtol=0.4
    x = numpy.array([0.5])

    class Double(chainer.FunctionNode):
        def forward(self, inputs):
            return inputs[0].copy(),

        def backward(self, indexes, gy):
            return gy[0] * 2,

    def f(a):
        return Double().apply((a,))[0]

    gradient_check.check_backward(f, x, numpy.ones(1), atol=0, rtol=0.5)
    with pytest.raises(AssertionError):
        gradient_check.check_backward(f, x, numpy.ones(1), atol=0,
                                      rtol=0.4)


def test_check_double_backward_failure_report_as_chainer():
    class BadCube(chainer.FunctionNode):
        def forward(self, inputs):
            self.retain_inputs((0,))
            return inputs[0] ** 3,

        def backward(self, indexes, gy):
            x, = self.get_retained_inputs()
            return 3 * (x * x).array * gy[0],  # cut off from the graph

    x = numpy.array([0.5, -0.25])
    with pytest.raises(AssertionError) as e:
        gradient_check.check_double_backward(
            lambda a: BadCube().apply((a,))[0], x, numpy.ones(2),
            numpy.array([0.75, 1.]))
    msg = str(e.value)
    head = ('check_double_backward failed (eps=0.001 atol=0.0001 '
            'rtol=0.001)\ninput[0]:\n[ 0.5  -0.25]\ngrad_output[0]:\n'
            '[1. 1.]\ngrad_grad_input[0]:\n[0.75 1.  ]\n\n')
    assert msg.startswith(head)
    inner = msg[len(head):].split('\n\n(caused by)\nAssertionError: ')
    assert len(inner) == 2
    assert inner[0].startswith('check_backward failed (eps=0.001 '
                               'atol=0.0001 rtol=0.001)\ninputs[0]:\n'
                               '[ 0.5  -0.25]\ninputs[1]:\n[1. 1.]\n')
    assert inner[1] == inner[0] + '\n'


def test_check_backward_numerical_pass_promotes_mixed_dtypes():
    # Chainer's numerical pass runs without type checks: an int input
    # cast to float32 meets the float64 input there, and NumPy promotes
    x = numpy.array([1.5, 0.5], numpy.float32)
    t = numpy.array([1, 0], numpy.int32)
    gradient_check.check_backward(
        lambda a, b: F.cast(b, 'f') * a + a, (x, t),
        numpy.ones(2, numpy.float32), dtype=numpy.float64)


@pytest.mark.parametrize('gy,problem,got', [
    (numpy.ones(3, numpy.float64), 'Shapes and/or dtypes', r'\(3,\):float64'),
    (numpy.ones((3, 1), numpy.float32), 'Shapes and/or dtypes',
     r'\(3, 1\):float32'),
    ((numpy.ones(3, numpy.float32),) * 2, 'as many elements',
     r'\(3,\):float32, \(3,\):float32'),
])
def test_grad_outputs_must_match_the_outputs(gy, problem, got):
    # Chainer's ValueError, both sides listed (a broadcastable y_grad would
    # otherwise check another gradient than the one asked for)
    x = numpy.array([0.5, 1., 2.], numpy.float32)
    with pytest.raises(ValueError, match=problem) as e:
        gradient_check.check_backward(F.exp, x, gy)
    assert re.search('Output shapes and dtypes         : '
                     r'\(3,\):float32\nOutput gradient shapes and dtypes: ' +
                     got + '$', str(e.value))


def test_directions_round_as_chainers():
    # Chainer 7.8.1's unit vector for numpy.random.seed(11) and 5 items
    numpy.random.seed(11)
    d = gradient_check._CheckBackward._sample_unit_vector(5, numpy)
    assert d.tolist() == [0.5411636981626913, -0.09888029313880113,
                          -0.1559299166642133, -0.8191726789207662,
                          -0.04479422528106763]
