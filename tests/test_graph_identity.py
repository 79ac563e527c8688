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
