import unittest

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import initializers
from chainer import testing


# --- FunctionTestCase, as a user writes it ----------------------------------

@testing.parameterize(*testing.product({
    'shape': [(3, 2), ()],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestExp(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-3, 'rtol': 1e-3}
            self.check_backward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_double_backward_options = {'atol': 1e-2, 'rtol': 1e-2}

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        return x,

    def forward(self, inputs, device):
        x, = inputs
        return F.exp(x),

    def forward_expected(self, inputs):
        x, = inputs
        return numpy.exp(x),


@testing.inject_backend_tests(None, [{}])
class TestReLUDodging(testing.FunctionTestCase):

    dodge_nondifferentiable = True
    skip_double_backward_test = True

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (2, 3)).astype(numpy.float32),

    def forward(self, inputs, device):
        return F.relu(inputs[0]),

    def forward_expected(self, inputs):
        return numpy.maximum(inputs[0], 0),


@testing.inject_backend_tests(None, [{}])
class TestTwoInputsTwoOutputs(testing.FunctionTestCase):

    contiguous = 'C'

    def generate_inputs(self):
        a = numpy.random.uniform(-1, 1, (2, 3)).astype(numpy.float32)
        b = numpy.random.uniform(-1, 1, (2, 3)).astype(numpy.float32)
        return a, b

    def generate_grad_outputs(self, outputs_template):
        gys = super().generate_grad_outputs(outputs_template)
        return gys[0], None  # the second output's gradient is omitted

    def forward(self, inputs, device):
        a, b = inputs
        assert a.array.flags.c_contiguous
        return a * b, a + b

    def forward_expected(self, inputs):
        a, b = inputs
        return a * b, a + b


# --- FunctionTestCase catching wrong implementations ------------------------

class _Base(testing.FunctionTestCase):

    __test__ = False  # a base for the cases run by hand below

    def generate_inputs(self):
        return numpy.random.uniform(0.5, 1, (3,)).astype(numpy.float32),


def _run(cls, name):
    case = cls(name)
    case.setUp()
    getattr(case, name)()


def test_forward_mismatch_is_reported():
    class Wrong(_Base):
        def forward(self, inputs, device):
            return F.exp(inputs[0]),

        def forward_expected(self, inputs):
            return numpy.exp(inputs[0]) + 1,

    with pytest.raises(testing.FunctionTestError,
                       match='Outputs do not match the expected values'):
        _run(Wrong, 'test_forward')


def test_dtype_and_count_mismatch_are_reported():
    class WrongDtype(_Base):
        def forward(self, inputs, device):
            return F.exp(inputs[0]),

        def forward_expected(self, inputs):
            return numpy.exp(inputs[0]).astype(numpy.float64),

    class WrongCount(WrongDtype):
        def forward_expected(self, inputs):
            return numpy.exp(inputs[0]), numpy.exp(inputs[0])

    with pytest.raises(testing.FunctionTestError,
                       match='Shapes and/or dtypes do not match'):
        _run(WrongDtype, 'test_forward')
    with pytest.raises(testing.FunctionTestError,
                       match=r'Number of outputs \(1, 2\)'):
        _run(WrongCount, 'test_forward')
    with pytest.raises(ValueError, match='Output gradients must contain'):
        _run(WrongCount, 'test_backward')


class _WrongGrad(chainer.FunctionNode):
    # Forward is 2 x, but backward claims 3 gy.
    def forward(self, inputs):
        return inputs[0] * 2,

    def backward(self, indexes, grad_outputs):
        return grad_outputs[0] * 3,


def test_wrong_backward_is_reported():
    class Wrong(_Base):
        def forward(self, inputs, device):
            return _WrongGrad().apply(inputs)

        def forward_expected(self, inputs):
            return inputs[0] * 2,

    _run(Wrong, 'test_forward')
    with pytest.raises(testing.FunctionTestError,
                       match='backward is not implemented correctly'):
        _run(Wrong, 'test_backward')


def test_skip_flags_and_before_test():
    seen = []

    class Skipping(_Base):
        skip_forward_test = True

        def before_test(self, test_name):
            seen.append(test_name)
            if test_name == 'test_double_backward':
                raise unittest.SkipTest('not today')

        def forward(self, inputs, device):
            return F.exp(inputs[0]),

    with pytest.raises(unittest.SkipTest):
        _run(Skipping, 'test_forward')
    with pytest.raises(unittest.SkipTest):
        _run(Skipping, 'test_double_backward')
    # Without forward_expected, backward takes the template from forward.
    _run(Skipping, 'test_backward')
    assert seen == ['test_double_backward', 'test_backward']


def test_inputs_are_noncontiguous_by_default():
    flags = []

    class Check(_Base):
        def generate_inputs(self):
            return numpy.ones((2, 3), numpy.float32),

        def forward(self, inputs, device):
            flags.append(inputs[0].array.flags.c_contiguous)
            return F.exp(inputs[0]),

        def forward_expected(self, inputs):
            return numpy.exp(inputs[0]),

    _run(Check, 'test_forward')
    assert flags == [False]


# --- LinkTestCase ------------------------------------------------------------

class _Scale(chainer.Link):
    """y = W * x + b, elementwise, on vectors of size 3."""

    def __init__(self, initialW=None, initial_bias=None):
        super().__init__()
        with self.init_scope():
            self.W = chainer.Parameter(
                initializers._get_initializer(initialW), (3,))
            self.b = chainer.Parameter(
                initializers._get_initializer(
                    0 if initial_bias is None else initial_bias), (3,))

    def forward(self, x):
        return x * self.W + self.b


class _ScaleMixin:

    param_names = ('W', 'b')

    def generate_params(self):
        W = numpy.random.uniform(-1, 1, (3,)).astype(numpy.float32)
        b = numpy.random.uniform(-1, 1, (3,)).astype(numpy.float32)
        return W, b

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (2, 3)).astype(numpy.float32),

    def create_link(self, initializers):
        W, b = initializers
        return _Scale(W, b)


@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestScaleLink(_ScaleMixin, testing.LinkTestCase):

    def forward_expected(self, link, inputs):
        assert isinstance(link.W.array, numpy.ndarray)
        x, = inputs
        return x * link.W.array + link.b.array,


@testing.inject_backend_tests(None, [{}])
class TestScaleInitializers(_ScaleMixin, testing.LinkInitializersTestCase):

    def get_initializers(self):
        initial_w = [initializers.Constant(1), 2,
                     numpy.array([1., 2., 3.], numpy.float32)]
        initial_b = [initializers.Constant(2), 3,
                     testing.InitializerArgument(None, 0)]
        return initial_w, initial_b


def test_link_wrong_forward_expected_is_reported():
    class Wrong(_ScaleMixin, testing.LinkTestCase):
        def forward_expected(self, link, inputs):
            return inputs[0] * link.W.array,  # forgets the bias

    _run(Wrong, 'test_backward')
    with pytest.raises(testing.LinkTestError, match='do not match'):
        _run(Wrong, 'test_forward')


def test_link_initializers_mismatch_is_reported():
    class Wrong(_ScaleMixin, testing.LinkInitializersTestCase):
        def get_initializers(self):
            return [], [testing.InitializerArgument(None, 1)]

    with pytest.raises(testing.LinkTestError, match="'b'"):
        _run(Wrong, 'test_initializers')


def test_initializer_argument():
    arg = testing.InitializerArgument(None, 0)
    assert arg.argument_value is None and arg.expected_initializer == 0
    with pytest.raises(ValueError):
        testing.InitializerArgument(0, None)


def test_options_are_per_test_copies():
    class Case(testing.FunctionTestCase):
        check_backward_options = {'atol': 1}

        def setUp(self):
            self.check_backward_options.update({'eps': 0.25})
            self.check_double_backward_options.update({'rtol': 3})

    a = Case('test_forward')
    a.setUp()
    assert a.check_backward_options == {'atol': 1, 'eps': 0.25}
    assert a.check_double_backward_options == {'rtol': 3}
    b = Case('test_forward')
    assert b.check_backward_options == {'atol': 1}
    assert b.check_double_backward_options == {}
    assert b.check_forward_options == {}
    assert testing.FunctionTestCase.check_double_backward_options == {}
    assert Case.check_backward_options == {'atol': 1}

    class Link(testing.LinkTestCase):
        def setUp(self):
            self.check_forward_options.update({'atol': 5})

    link = Link('test_forward')
    link.setUp()
    assert Link('test_forward').check_forward_options == {}
    assert testing.LinkTestCase.check_forward_options == {}
