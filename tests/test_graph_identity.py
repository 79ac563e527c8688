"""The graph keeps Chainer's identities: a node knows its Variable, retained
inputs come back as the very Variables given, and backward from one output
of a multi-output function uses the gradients set on the others."""

import gc
import warnings

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import FunctionNode, Variable


def _arr(*values):
    return numpy.array(values, dtype=numpy.float32)


def test_node_gives_its_own_variable_while_alive():
    x = Variable(_arr(1, 2, 3))
    y = x * 2
    node = y.node
    assert node.get_variable_or_none() is y
    assert node.get_variable() is y
    assert x.node.get_variable() is x


def test_node_forgets_a_dead_variable():
    x = Variable(_arr(1, 2, 3))
    y = x * 2
    y.retain_data()
    node = y.node
    del y
    gc.collect()
    assert node.get_variable_or_none() is None
    v = node.get_variable()
    assert v.node is node
    numpy.testing.assert_array_equal(v.array, _arr(2, 4, 6))


def test_every_output_of_a_split_knows_its_variable():
    x = Variable(numpy.arange(6, dtype=numpy.float32))
    ys = F.split_axis(x, 3, 0)
    assert [y.node.get_variable_or_none() is y for y in ys] == [True] * 3


class _Square(FunctionNode):
    seen = None

    def forward(self, inputs):
        self.retain_inputs((0,))
        return inputs[0] ** 2,

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        _Square.seen = x
        return 2 * x * grad_outputs[0],


def test_retained_input_is_the_variable_given():
    x = Variable(_arr(3))
    y, = _Square().apply((x,))
    y.grad = _arr(1)
    y.backward()
    assert _Square.seen is x
    numpy.testing.assert_array_equal(x.grad, _arr(6))


def test_retained_input_after_array_replaced_keeps_forward_data():
    x = Variable(_arr(3))
    y, = _Square().apply((x,))
    x.array = _arr(100)
    y.grad = _arr(1)
    y.backward()
    assert _Square.seen is not x
    numpy.testing.assert_array_equal(_Square.seen.array, _arr(3))
    numpy.testing.assert_array_equal(x.grad, _arr(6))


def test_backward_from_one_output_uses_grads_of_the_others():
    x = Variable(numpy.zeros(4, numpy.float32))
    a, b = F.split_axis(x, 2, 0)
    a.grad = _arr(1, 1)
    b.grad = _arr(10, 10)
    b.backward()
    numpy.testing.assert_array_equal(x.grad, _arr(1, 1, 10, 10))
    # Consumed without retain_grad, as in Chainer.
    assert a.grad is None and b.grad is None


def test_backward_retain_grad_keeps_grads_of_the_other_outputs():
    x = Variable(numpy.zeros(4, numpy.float32))
    a, b = F.split_axis(x, 2, 0)
    a.grad = _arr(1, 2)
    b.grad = _arr(10, 10)
    b.backward(retain_grad=True)
    numpy.testing.assert_array_equal(x.grad, _arr(1, 2, 10, 10))
    numpy.testing.assert_array_equal(a.grad, _arr(1, 2))
    numpy.testing.assert_array_equal(b.grad, _arr(10, 10))


def test_intermediate_grad_is_not_added_in():
    x = Variable(_arr(1, 1))
    y = x * 2
    y.grad = _arr(1, 1)
    z = F.sum(y * 3)
    z.backward()
    numpy.testing.assert_array_equal(x.grad, _arr(6, 6))


def test_chainer_backward_uses_grads_of_the_other_outputs():
    x = Variable(numpy.zeros(4, numpy.float32))
    a, b = F.split_axis(x, 2, 0)
    a.grad = _arr(1, 1)
    chainer.backward([b], [Variable(_arr(10, 10))])
    numpy.testing.assert_array_equal(x.grad, _arr(1, 1, 10, 10))


def test_chainer_grad_ignores_grads_set_on_outputs():
    x = Variable(numpy.zeros(4, numpy.float32))
    a, b = F.split_axis(x, 2, 0)
    a.grad = _arr(1, 1)
    gx, = chainer.grad([b], [x], grad_outputs=[Variable(_arr(10, 10))])
    numpy.testing.assert_array_equal(gx.array, _arr(0, 0, 10, 10))


def test_chainer_backward_duplicate_outputs_use_the_grad_once():
    x = Variable(numpy.array(0, numpy.float32))
    y = F.identity(x)
    y.grad = numpy.array(3, numpy.float32)
    with pytest.warns(RuntimeWarning, match='duplicate outputs'):
        chainer.backward([y, y])
    numpy.testing.assert_array_equal(x.grad, numpy.array(3, numpy.float32))


def test_chainer_backward_duplicate_outputs_with_given_grads_add():
    x = Variable(_arr(1, 1))
    y = F.sum(x * 2)
    one = numpy.ones((), numpy.float32)
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        chainer.backward([y, y], [Variable(one), Variable(one)])
    numpy.testing.assert_array_equal(x.grad, _arr(4, 4))


def test_chainer_backward_checks_grad_outputs():
    x = Variable(_arr(1, 2))
    y = x * x
    gy = Variable(_arr(1, 1))
    with pytest.raises(TypeError, match='grad_outputs must be a tuple'):
        chainer.backward([y], gy)
    with pytest.raises(ValueError, match='same length'):
        chainer.backward([y], [gy, gy])


def test_variable_has_its_node_from_the_start():
    x = Variable(_arr(1))
    assert x._node is not None
    x._node._rank = 3
    assert x.rank == 3
    y = x * 2
    assert y.rank == 4


def test_node_private_requires_grad_alias():
    x = Variable(_arr(1))
    x.node._requires_grad = False
    assert x.node.requires_grad is False
    assert x.node._requires_grad is False


def test_removing_the_creator_keeps_the_rank():
    x = Variable(_arr(1))
    y = (x * 2) * 3
    rank = y.rank
    creator = y.creator_node
    y.creator_node = None
    assert y.creator is None and y.rank == rank
    y.node._rank = -1
    y.creator_node = creator
    assert y.rank == rank
    y.unchain()
    assert y.creator is None and y.rank == rank


def test_instance_check_type_forward_is_called():
    calls = []

    class Twice(FunctionNode):
        def forward(self, inputs):
            return inputs[0] * 2,

    f = Twice()
    f.check_type_forward = lambda in_types: calls.append(len(in_types))
    f.apply((_arr(1, 2),))
    assert calls == [1]
    g = FunctionNode()
    g.check_type_forward = lambda in_types: calls.append(
        in_types[0].shape)
    g.forward = lambda inputs: (inputs[0],)
    g.apply((_arr(1, 2),))
    assert calls == [1, (2,)]
    # Other nodes of the class are not affected.
    Twice().apply((_arr(1),))
    assert calls == [1, (2,)]


def test_chainer_grad_passes_through_an_input_to_the_inputs_behind_it():
    # x1 -> (*2) -> x2 -> (*3) -> y; gradients of y w.r.t. both x1 and x2,
    # with grad_inputs: the one of x2 flows on to x1.
    x1 = Variable(_arr(1))
    x2 = x1 * 2
    y = x2 * 3
    g1, g2 = chainer.grad([y], [x1, x2], grad_outputs=[Variable(_arr(10))],
                          grad_inputs=[Variable(_arr(1000)),
                                       Variable(_arr(100))])
    numpy.testing.assert_array_equal(g2.array, _arr(30 + 100))
    numpy.testing.assert_array_equal(g1.array, _arr(2 * 130 + 1000))


def test_chainer_grad_retain_grad_and_set_grad():
    x1 = Variable(_arr(1))
    h = x1 * 2
    x2 = h * 1
    y = x2 * 3
    y.grad_var = Variable(_arr(-1))
    g1, g2 = chainer.grad([y], [x1, x2], set_grad=True)
    assert x1.grad == 6 and x2.grad == 3
    assert h.grad is None
    numpy.testing.assert_array_equal(y.grad, _arr(-1))  # left as it was
    chainer.grad([y], [x1], retain_grad=True)
    assert h.grad == 3


def test_retained_inputs_and_outputs_keep_data_on_their_nodes():
    x = Variable(numpy.ones((3, 2), numpy.float32))
    F.sin(x)  # keeps its input
    assert x.node.data is x.array
    x.array = numpy.ones((2, 4), numpy.float64)
    assert x.node.shape == (2, 4) and x.node.dtype == numpy.float64
    assert x.node.data.shape == (2, 4)
    y = F.exp(Variable(_arr(0)))  # keeps its output
    assert y.node.data is y.array


class _LegacyIdentity(chainer.Function):
    def forward(self, inputs):
        return inputs

    def backward(self, inputs, grad_outputs):
        return grad_outputs


def test_legacy_function_refuses_double_backprop():
    x = Variable(numpy.array(42, numpy.float32))
    y = _LegacyIdentity()(x)
    y.backward(enable_double_backprop=True)
    assert x.grad == 1
    with pytest.raises(RuntimeError,
                       match='cannot twice-differentiate an old style '
                             'Function "_LegacyIdentity"'):
        x.grad_var.backward()
    x = Variable(numpy.array(42, numpy.float32))
    y = _LegacyIdentity()(F.identity(x))
    y.backward(enable_double_backprop=True)
    with pytest.raises(RuntimeError, match='twice-differentiate'):
        chainer.grad([x.grad_var], [y])


def test_legacy_function_single_backprop_has_no_graph():
    x = Variable(numpy.array(42, numpy.float32))
    y = _LegacyIdentity()(x)
    y.backward()
    assert x.grad_var.creator is None


class _UserFunc(FunctionNode):
    def __init__(self, grads):
        self.grads = grads

    def forward(self, inputs):
        return numpy.ones((), numpy.float32),

    def backward(self, indexes, grad_outputs):
        return self.grads


@pytest.mark.parametrize('grads,match', [
    ((Variable(_arr(1)), Variable(_arr(1))), 'number of gradients'),
    ((), 'number of gradients'),
    ((Variable(_arr(2, 3)),), 'shape of gradients'),
    ((_arr(2),), 'type of gradients'),
])
def test_debug_mode_checks_user_gradients(grads, match):
    x = Variable(_arr(1))
    y, = _UserFunc(grads).apply((x,))
    with chainer.using_config('debug', True):
        with pytest.raises(ValueError, match=match):
            y.backward()


def test_debug_mode_leaves_a_wrong_dtype_to_the_gradient_check():
    # As Chainer: the debug checks see the type and shape only; the dtype
    # fails where the gradient is taken, with where the function was called.
    x = Variable(_arr(1))
    with chainer.using_config('debug', True):
        y, = _UserFunc((Variable(numpy.array([2], numpy.int64)),)).apply(
            (x,))
        with pytest.raises(TypeError) as info:
            y.backward()
    message = str(info.value)
    assert message.startswith(
        'Function `{}` (_UserFunc) has a bug.\nStacktrace of the function '
        'is below:\n'.format(FunctionNode._impl_name))
    assert message.endswith('Dtype of data and grad mismatch\n'
                            'grad: int64 != data: float32')


class _FailingBackward(FunctionNode):
    def forward(self, inputs):
        return inputs[0] * 2,

    def backward(self, indexes, grad_outputs):
        raise ValueError('my error')


def test_debug_mode_error_in_backward_shows_where_the_function_was_called():
    import inspect
    x = Variable(_arr(1))
    with chainer.using_config('debug', True):
        line = inspect.currentframe().f_lineno + 1
        y, = _FailingBackward().apply((x,))
        with pytest.raises(ValueError) as info:
            y.backward()
    # Chainer's words: a rule of dashes, then the stack.
    message = str(info.value)
    assert message.startswith(
        'my error\n' + '-' * 80 +
        '\nStacktrace of the function is below:\n')
    assert 'line {}'.format(line) in message
    # The checks of what backward returned name no stack, as Chainer's.
    with chainer.using_config('debug', True):
        y, = _UserFunc((Variable(_arr(2, 3)),)).apply((x,))
        with pytest.raises(ValueError) as info:
            y.backward()
    assert 'Stacktrace' not in str(info.value)


def test_parameter_private_grad_and_dtype():
    p = chainer.Parameter(numpy.zeros(3, numpy.float32))
    assert p._grad is None
    p.grad = numpy.ones(3, numpy.float32)
    assert p._grad is p.grad
    assert chainer.Parameter().dtype == numpy.float64

    class NoDtype:
        def __call__(self, array):
            pass

    with pytest.raises(RuntimeError, match='Dtype of the parameter'):
        chainer.Parameter(NoDtype()).dtype


def test_zerograd_before_initialize_gives_zeros():
    p = chainer.Parameter()
    with pytest.warns(DeprecationWarning):
        p.zerograd()
    p.initialize((3, 2))
    numpy.testing.assert_array_equal(p.grad, numpy.zeros((3, 2)))
    q = chainer.Parameter()
    q.initialize((2,))
    assert numpy.isnan(q.grad).all()


class _LegacyTakesNone(chainer.Function):
    def forward(self, inputs):
        a, b, c = inputs
        assert a is None and c is None
        self.retain_inputs((1, 2))
        return b * 3,

    def backward(self, inputs, grad_outputs):
        a, b, c = inputs
        assert a is None and c is None
        return None, 3 * grad_outputs[0], None


def test_legacy_function_gets_none_inputs():
    x = Variable(_arr(2, 3))
    y = _LegacyTakesNone()(None, x, None)
    y.grad = _arr(1, 2)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, _arr(3, 6))
