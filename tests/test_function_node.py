import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import Variable
from chainer.utils import type_check


def _v(a, **kw):
    return Variable(numpy.asarray(a, dtype=numpy.float32), **kw)


class Square(chainer.FunctionNode):

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        return x * x,

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return 2 * x * grad_outputs[0],


class ExpNode(chainer.FunctionNode):

    def forward(self, inputs):
        self.retain_outputs((0,))
        return numpy.exp(inputs[0]),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return y * grad_outputs[0],


class TwoOut(chainer.FunctionNode):

    def forward(self, inputs):
        x, = inputs
        return x * 2, x * 3

    def backward(self, indexes, gys):
        g = 0
        if gys[0] is not None:
            g = g + gys[0] * 2
        if gys[1] is not None:
            g = g + gys[1] * 3
        return g,


class Checked(chainer.FunctionNode):

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        type_check.expect(x_type.dtype == numpy.float32, x_type.ndim == 2)

    def forward(self, inputs):
        return inputs[0] + 1,


def test_user_node_graph_and_grads():
    x = _v([3.])
    f = Square()
    y, = f.apply((x,))
    assert y.creator is f and y.creator_node is f
    assert f.inputs == (x.node,) and f.outputs[0]() is y.node
    assert f.rank == 0 and y.rank == 1 and f.label == 'Square'
    y.backward()
    assert x.grad.item() == 6.


def test_retained_output_and_double_backprop():
    x = _v([1.])
    y, = ExpNode().apply((x,))
    gx, = chainer.grad([y], [x], enable_double_backprop=True)
    ggx, = chainer.grad([gx], [x])
    numpy.testing.assert_allclose(ggx.array, numpy.exp([1.]), rtol=1e-6)


def test_multiple_outputs_with_one_unused():
    x = _v([1., 2.])
    a, b = TwoOut().apply((x,))
    chainer.functions.sum(b).backward()
    numpy.testing.assert_array_equal(x.grad, [3., 3.])


def test_apply_accepts_arrays():
    y, = Square().apply((numpy.array([2.], numpy.float32),))
    assert not y.requires_grad and y.array.item() == 4.


@pytest.mark.parametrize('bad', [[1., 2.], 1.5, 'x', numpy.float32(1)])
def test_apply_rejects_non_arrays(bad):
    # Chainer 7.8.1's text, with the type of every input's array
    with pytest.raises(TypeError) as e:
        Square().apply((bad,))
    assert str(e.value) == (
        'incompatible array types are mixed in the forward input '
        '(Square).\nActual: {}'.format(type(bad)))
    with pytest.raises(TypeError) as e:
        F.mean_squared_error(chainer.Variable(numpy.ones(2)), [1., 2.])
    assert str(e.value) == (
        'incompatible array types are mixed in the forward input '
        "(MeanSquaredError).\nActual: <class 'numpy.ndarray'>, "
        "<class 'list'>")


def test_builtin_function_rejects_none_input():
    from chainer.functions.activation.relu import ReLU
    with pytest.raises(TypeError, match=r"\(ReLU\).\nActual: <class "
                       r"'NoneType'>"):
        ReLU().apply((None,))


def test_user_function_gets_none_inputs_and_outputs():
    class Triple(chainer.FunctionNode):
        def forward(self, inputs):
            a, b, c = inputs
            assert a is None and c is None
            self.retain_inputs((1, 2))
            self.retain_outputs((0, 1))
            return b * 3, None

        def backward(self, indexes, grad_outputs):
            assert indexes == (1,)
            b, c = self.get_retained_inputs()
            y, z = self.get_retained_outputs()
            assert c is None and z is None
            numpy.testing.assert_array_equal(y.array, b.array * 3)
            assert grad_outputs[1] is None
            return None, 3 * grad_outputs[0], None

    x = _v([2., 3.])
    y, z = Triple().apply((None, x, None))
    assert z.array is None
    y.grad = numpy.array([1., 2.], numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [3., 6.])


def test_uninitialized_parameter_input():
    with pytest.raises(ValueError, match='without data'):
        Square().apply((chainer.Parameter(),))


def test_call_raises():
    with pytest.raises(RuntimeError, match='apply'):
        Square()(_v([1.]))


def test_check_type_forward_message():
    with pytest.raises(type_check.InvalidType) as e:
        Checked().apply((_v([1., 2.]),))
    assert str(e.value) == (
        '\nInvalid operation is performed in: Checked (Forward)\n\n'
        'Expect: x.ndim == 2\nActual: 1 != 2')
    y, = Checked().apply((_v([[1.]]),))
    assert y.array.item() == 2.


def test_type_check_can_be_disabled():
    with chainer.using_config('type_check', False):
        y, = Checked().apply((_v([1.]),))
    assert y.array.item() == 2.


def test_forward_must_return_tuple():
    # Chainer 7.8.1's words; a list is refused too
    class Bad(chainer.FunctionNode):
        def forward(self, inputs):
            return inputs[0]

    class BadList(chainer.FunctionNode):
        def forward(self, inputs):
            return [inputs[0]]

    class BadItem(chainer.FunctionNode):
        def forward(self, inputs):
            return inputs[0], [1.]
    with pytest.raises(TypeError) as e:
        Bad().apply((_v([1.]),))
    assert str(e.value) == ("forward output must be a tuple (Bad)\n"
                            "Actual: <class 'numpy.ndarray'>")
    with pytest.raises(TypeError) as e:
        BadList().apply((_v([1.]),))
    assert str(e.value) == ("forward output must be a tuple (BadList)\n"
                            "Actual: <class 'list'>")
    with pytest.raises(TypeError) as e:
        BadItem().apply((_v([1.]),))
    assert str(e.value) == (
        'forward output must be a tuple of ndarrays.\nFunction: BadItem\n'
        "Actual output types: (<class 'numpy.ndarray'>, <class 'list'>)")


def test_numpy_scalar_outputs_of_a_user_function_are_refused():
    # As Chainer (chainer-ng's own functions may return 0-d scalars).
    class Sum0(chainer.FunctionNode):
        def forward(self, inputs):
            return inputs[0].sum(),
    with pytest.raises(TypeError) as info:
        Sum0().apply((_v([1., 2.]),))
    assert str(info.value) == (
        "forward output must be a tuple of ndarrays.\nFunction: Sum0\n"
        "Actual output types: (<class 'numpy.float32'>,)")
    y = F.sum(_v([1., 2.]))
    assert isinstance(y.array, numpy.ndarray) and y.shape == ()


def test_backward_wrong_count():
    class Bad(chainer.FunctionNode):
        def forward(self, inputs):
            return inputs[0] * 1,

        def backward(self, indexes, gys):
            return gys[0], gys[0], gys[0]
    y, = Bad().apply((_v([1.]),))
    with pytest.raises(ValueError) as info:
        y.backward()
    assert str(info.value) == (
        'number of gradients returned from backward is incorrect: 3 != '
        'expected 1\n  function=Bad (Bad)\n'
        '    input 0: shape=(1,) dtype=float32\n'
        '    output 0: shape=(1,) dtype=float32')


def test_backward_wrong_count_names_a_dead_output_as_chainer():
    class Bad2(chainer.FunctionNode):
        def forward(self, inputs):
            return inputs[0] * 1, inputs[0] * 2

        def backward(self, indexes, gys):
            return gys[0], gys[0], gys[0]
    y, z = Bad2().apply((_v([1.]), numpy.ones(1, numpy.float32)))
    del z
    with pytest.raises(ValueError) as info:
        y.backward()
    assert str(info.value) == (
        'number of gradients returned from backward is incorrect: 3 != '
        'expected 2 or 1\n  function=Bad2 (Bad2)\n'
        '    input 0: shape=(1,) dtype=float32\n'
        '    input 1: shape=(1,) dtype=float32\n'
        '    output 0: shape=(1,) dtype=float32\n'
        '    output {}: not available')


def test_backward_wrong_shape():
    class Bad(chainer.FunctionNode):
        def forward(self, inputs):
            return inputs[0] * 1,

        def backward(self, indexes, gys):
            return Variable(numpy.ones((5,), numpy.float32)),
    y, = Bad().apply((_v([1., 2.]),))
    y.grad = numpy.ones(2, numpy.float32)
    with pytest.raises(ValueError) as info:
        y.backward()
    assert str(info.value) == (
        'Function `{}` (Bad) has a bug.\n\n'
        'Please report this error to the issue tracker with the stack '
        'trace,\nthe information of your environment, and your script:\n'
        'https://github.com/chainer/chainer/issues/new.\n'
        'Shape of data and grad mismatch\ngrad: (5,) != data: (2,)'.format(
            chainer.FunctionNode._impl_name))


def test_default_backward_gives_no_grad():
    class NoBack(chainer.FunctionNode):
        def forward(self, inputs):
            return inputs[0] * 2,
    y, = NoBack().apply((_v([1.]),))
    y.backward()


class Double(chainer.Function):

    def forward(self, inputs):
        return inputs[0] * 2,

    def backward(self, inputs, grad_outputs):
        return grad_outputs[0] * 2,


class TestLegacyFunction:

    def test_call_and_backward(self):
        x = _v([1., 2., 3.])
        f = Double()
        y = f(x)
        assert isinstance(y, Variable)
        assert y.creator is f
        assert isinstance(y.creator_node, chainer.FunctionAdapter)
        assert f.label == 'Double' and f.rank == 0
        assert isinstance(f.inputs, tuple)
        y.grad = numpy.ones(3, numpy.float32)
        y.backward()
        numpy.testing.assert_array_equal(x.grad, [2., 2., 2.])

    def test_inputs_retained_by_default(self):
        seen = []

        class Mul(chainer.Function):
            def forward(self, inputs):
                return inputs[0] * inputs[1],

            def backward(self, inputs, gys):
                seen.append(inputs)
                a, b = inputs
                return gys[0] * b, gys[0] * a
        a, b = _v([2.]), _v([3.])
        Mul()(a, b).backward()
        assert a.grad.item() == 3. and b.grad.item() == 2.
        assert seen[0][0] is not None

    def test_tuple_output_required(self):
        class Bad(chainer.Function):
            def forward(self, inputs):
                return inputs[0] * 2
        with pytest.raises(TypeError, match=r'forward output must be a '
                           r'tuple \(Bad\)'):
            Bad()(_v([1.]))

    def test_bad_gradient_dtype(self):
        class Bad(chainer.Function):
            def forward(self, inputs):
                return inputs[0] * 2,

            def backward(self, inputs, gys):
                return gys[0].astype(numpy.float64),
        y = Bad()(_v([1.]))
        with pytest.raises(TypeError) as info:
            y.backward()
        assert str(info.value).endswith(
            '(Bad) has a bug.\n\nPlease report this error to the issue '
            'tracker with the stack trace,\nthe information of your '
            'environment, and your script:\n'
            'https://github.com/chainer/chainer/issues/new.\n'
            'Dtype of data and grad mismatch\ngrad: float64 != data: '
            'float32')

    def test_two_outputs(self):
        class Two(chainer.Function):
            def forward(self, inputs):
                return inputs[0] * 2, inputs[0] * 3
        r = Two()(_v([1.]))
        assert isinstance(r, tuple) and len(r) == 2

    def test_forward_cpu_dispatch(self):
        class D(chainer.Function):
            def forward_cpu(self, inputs):
                return inputs[0] * 2,

            def backward_cpu(self, inputs, gys):
                return gys[0] * 2,
        x = _v([1.])
        D()(x).backward()
        assert x.grad.item() == 2.


class CountHook(chainer.FunctionHook):
    name = 'count'

    def __init__(self):
        self.calls = []

    def forward_preprocess(self, function, in_data):
        self.calls.append(('f', function.label))

    def backward_postprocess(self, function, in_data, out_grad):
        self.calls.append(('b', function.label))


def test_function_hooks():
    hook = CountHook()
    x = _v([1.])
    with hook:
        y = x * 2
        y.backward()
    z = x * 3
    # The backward of '_ * 2' applies '_ * 2' too, which the hook sees.
    assert hook.calls == [('f', '_ * 2'), ('f', '_ * 2'), ('b', '_ * 2')]
    assert 'count' not in chainer.get_function_hooks()
    local = CountHook()
    f = Square()
    f.add_hook(local)
    f.apply((x,))[0].backward()
    assert local.calls == [('f', 'Square'), ('b', 'Square')]
    del z


def test_missing_forward_raises_a_bare_not_implemented_error():
    class NoForwardNode(chainer.FunctionNode):
        pass

    class NoForwardFunction(chainer.Function):
        pass

    x = _v([1.])
    with pytest.raises(NotImplementedError) as info:
        NoForwardNode().apply((x,))
    assert str(info.value) == ''
    with pytest.raises(NotImplementedError) as info:
        NoForwardFunction()(x)
    assert str(info.value) == ''


def test_grad_argument_errors_in_chainer_words():
    x = _v([1., 2.])
    y = chainer.functions.sum(x * x)
    with pytest.raises(ValueError) as info:
        chainer.grad([y], [x], grad_outputs=[None, None])
    assert str(info.value) == ('grad_outputs must be of the same length as '
                               'outputs.\nlen(outputs) = 1, '
                               'len(grad_outputs) = 2')
    with pytest.raises(ValueError) as info:
        chainer.grad([y], [x], grad_inputs=[None, None])
    assert str(info.value) == ('grad_inputs must be of the same length as '
                               'inputs.\nlen(inputs) = 1, '
                               'len(grad_inputs) = 2')
    with pytest.raises(TypeError) as info:
        chainer.grad([y], [x], grad_outputs=numpy.ones(()))
    assert str(info.value) == ("grad_outputs must be a tuple or a list or "
                               "None, not <class 'numpy.ndarray'>.")
    with pytest.raises(TypeError) as info:
        chainer.grad([y], [x], grad_inputs=numpy.ones(2))
    assert str(info.value) == ("grad_inputs must be a tuple or a list or "
                               "None, not <class 'numpy.ndarray'>.")


def test_output_data_and_apply_arguments_in_chainer_words():
    node = Square()
    node.apply((_v([1.]),))
    with pytest.raises(RuntimeError) as info:
        node.output_data
    assert str(info.value) == 'retained output data is gone'
    # A Variable given for the tuple of inputs fails its truth test.
    with pytest.raises(TypeError) as info:
        Square().apply(_v([1., 2.]))
    assert str(info.value) == 'Variables cannot be evaluated as Python bool.'
    with pytest.raises(ValueError, match='ambiguous'):
        Square().apply(numpy.ones(2, numpy.float32))


def test_legacy_function_numpy_scalar_output_is_refused():
    class Sum0(chainer.Function):
        def forward(self, inputs):
            return inputs[0].sum(),
    with pytest.raises(TypeError) as info:
        Sum0()(_v([1., 2.]))
    assert str(info.value) == (
        "forward output must be a tuple of ndarrays.\nFunction: Sum0\n"
        "Actual output types: (<class 'numpy.float32'>,)")


class _IntGrad(chainer.FunctionNode):

    def forward(self, xs):
        return xs[0] * 2,

    def backward(self, indexes, gys):
        return Variable(numpy.array([2], numpy.int64)),


def test_debug_checks_a_gradient_against_the_one_already_there():
    # Chainer's debug mode compares a user function's gradient with the
    # first one its input has (here the leaf's own): its text
    x = Variable(numpy.array([1], numpy.float32))
    x.grad = numpy.array([1], numpy.float32)
    y, = _IntGrad().apply((x,))
    with chainer.using_config('debug', True):
        with pytest.raises(ValueError) as e:
            y.backward()
    assert str(e.value) == (
        'dtype of gradients returned from backward is incorrect: '
        'input-index=0, actual int64 != expected float32\n'
        '  function=_IntGrad (_IntGrad)\n'
        '    input 0: shape=(1,) dtype=float32\n'
        '    output 0: shape=(1,) dtype=float32')
    # without a gradient there, the dtype is _fit's to refuse
    x.cleargrad()
    y, = _IntGrad().apply((x,))
    with chainer.using_config('debug', True):
        with pytest.raises(TypeError, match='has a bug'):
            y.backward()
