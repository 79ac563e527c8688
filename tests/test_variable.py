import copy
import pickle
import warnings

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import Variable


def _v(a, dtype=numpy.float32, **kw):
    return Variable(numpy.asarray(a, dtype=dtype), **kw)


class TestConstruction:

    def test_data_and_properties(self):
        a = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
        x = Variable(a, name='x')
        assert x.array is a and x.data is a
        assert x.shape == (2, 3) and x.ndim == 2 and x.size == 6
        assert x.dtype == numpy.float32
        assert x.name == 'x' and len(x) == 2
        assert x.xp is numpy and str(x.device) == '@numpy'
        assert x.creator is None and x.creator_node is None
        assert x.rank == 0 and x.requires_grad and x.grad is None

    def test_none_data(self):
        x = Variable()
        assert x.array is None
        assert repr(x) == 'variable(None)'

    @pytest.mark.parametrize('bad', [[1, 2], 1.0, numpy.float32(1), 'a'])
    def test_rejects_non_arrays(self, bad):
        with pytest.raises(TypeError) as e:
            Variable(bad)
        if not chainer.backends.cuda.available:  # Chainer 7.8.1's text
            assert str(e.value) == (
                " or <class 'numpy.ndarray'> are expected. Actual: "
                '{}'.format(type(bad)))

    def test_rejects_variable_as_data(self):
        with pytest.raises(TypeError):
            Variable(_v([1.]))

    def test_volatile_refused(self):
        with pytest.raises(ValueError, match='volatile argument is not '
                           'supported anymore. Use chainer.using_config'):
            Variable(numpy.ones(3, numpy.float32), volatile=True)

    def test_unknown_kwarg(self):
        with pytest.raises(TypeError, match='foo'):
            Variable(numpy.ones(3, numpy.float32), foo=1)

    def test_requires_grad_must_be_bool(self):
        with pytest.raises(AssertionError):  # Chainer's assert
            Variable(numpy.ones(3, numpy.float32), requires_grad=1)

    def test_grad_argument(self):
        g = numpy.ones(2, numpy.float32)
        x = _v([1, 2], grad=g)
        assert x.grad is g


class TestPrinting:

    def test_repr(self):
        assert repr(_v([1, 2])) == 'variable([1., 2.])'
        assert repr(_v([1, 2], name='x')) == 'variable x([1., 2.])'
        assert repr(_v([[1, 2, 3], [4, 5, 6]])) == (
            'variable([[1., 2., 3.],\n          [4., 5., 6.]])')
        assert repr(_v([1, 2], numpy.int32)) == 'variable([1, 2])'
        assert repr(_v(3.0)) == 'variable(3.)'
        assert repr(Variable(numpy.zeros((0, 3), numpy.float32))) == \
            'variable([], shape=(0, 3))'

    def test_str(self):
        assert str(_v([1, 2])) == 'variable([1. 2.])'
        assert str(_v([1, 2], name='x')) == 'variable x([1. 2.])'
        assert str(Variable(numpy.zeros((0, 3), numpy.float32))) == \
            'variable([])'

    def test_label_and_summary(self):
        x = _v([1, 2])
        assert x.label == '(2), float32'
        assert _v(3.0).label == 'float32'
        assert x.summary().startswith('<variable at 0x')
        x.name = 'x'
        assert x.summary() == '<variable x>'

    def test_debug_print(self):
        x = _v([[1, 2], [3, 4]], name='x')
        x.grad = numpy.zeros((2, 2), numpy.float32)
        assert x.debug_print() == (
            '<variable x>\n- device: CPU\n'
            "- backend: <class 'numpy.ndarray'>\n- shape: (2, 2)\n"
            '- dtype: float32\n'
            '- statistics: mean=2.50000000, std=1.11803401\n- grad: 0')


class TestGrad:

    def test_set_and_clear(self):
        x = _v([1, 2])
        x.grad = numpy.array([3, 4], numpy.float32)
        numpy.testing.assert_array_equal(x.grad, [3, 4])
        assert isinstance(x.grad_var, Variable)
        x.cleargrad()
        assert x.grad is None and x.grad_var is None

    def test_shape_mismatch(self):
        x = _v(numpy.ones((2, 3)))
        with pytest.raises(ValueError, match=r'grad: \(3, 2\) != data: '
                           r'\(2, 3\)'):
            x.grad = numpy.ones((3, 2), numpy.float32)

    def test_dtype_mismatch(self):
        x = _v(numpy.ones((2, 3)))
        with pytest.raises(TypeError, match='grad: float64 != data: '
                           'float32'):
            x.grad = numpy.ones((2, 3), numpy.float64)

    def test_type_mismatch(self):
        x = _v(numpy.ones((2, 3)))
        with pytest.raises(TypeError, match='Type of grad is invalid'):
            x.grad = [1, 2]

    def test_zerograd_warns(self):
        x = _v([1, 2])
        with pytest.warns(DeprecationWarning):
            x.zerograd()
        numpy.testing.assert_array_equal(x.grad, [0, 0])

    def test_addgrad(self):
        x = _v([1, 2])
        src = _v([0, 0], grad=numpy.array([1, 2], numpy.float32))
        x.addgrad(src)
        x.addgrad(src)
        numpy.testing.assert_array_equal(x.grad, [2, 4])
        assert x.grad is not src.grad

    def test_copydata(self):
        x = _v([0, 0])
        x.copydata(_v([3, 4]))
        numpy.testing.assert_array_equal(x.array, [3, 4])
        # As Chainer: NumPy's copyto, which broadcasts (or says why not)
        with pytest.raises(ValueError) as e:
            x.copydata(_v([1, 2, 3]))
        assert str(e.value) == (
            'could not broadcast input array from shape (3,) into shape (2,)')
        x.copydata(_v(5.))
        numpy.testing.assert_array_equal(x.array, [5, 5])

    def test_addgrad_to_a_grad_adds_as_the_add_op(self):
        # As Chainer: src.grad + x.grad by the add op (broadcasting, or its
        # InvalidType), then the sum checked against x's data.
        def mk(shape=(2, 2), dtype=numpy.float32):
            return _v(numpy.ones(shape), dtype,
                      grad=numpy.ones(shape, dtype))
        x = mk()
        x.addgrad(mk((2,)))
        numpy.testing.assert_array_equal(x.grad, [[2, 2], [2, 2]])
        with pytest.raises(chainer.utils.type_check.InvalidType,
                           match='float64 != float32'):
            mk().addgrad(mk(dtype=numpy.float64))
        with pytest.raises(chainer.utils.type_check.InvalidType,
                           match=r'lhs.shape = \(3,\)\nrhs.shape = \(2, 2\)'):
            mk().addgrad(mk((3,)))
        with pytest.raises(ValueError, match=r'grad: \(2, 2\) != data: \(2,\)'):
            mk((2,)).addgrad(mk())
        y = _v(numpy.ones((2, 2)))  # no grad yet: the grad's own check
        with pytest.raises(ValueError, match=r'grad: \(2,\) != data'):
            y.addgrad(mk((2,)))


class TestOperatorsRefuse:

    @pytest.mark.parametrize('op', ['<', '<=', '>', '>=', '==', '!='])
    def test_comparisons(self, op):
        x = _v([1.])
        with pytest.raises(TypeError, match='Variables do not support {} '
                           'operator'.format(op)):
            eval('x {} x'.format(op), {'x': x})

    def test_bool_and_hash(self):
        x = _v([1.])
        with pytest.raises(TypeError, match='Python bool'):
            bool(x)
        with pytest.raises(TypeError, match='unhashable'):
            hash(x)


class TestMethods:

    def test_reshape_transpose(self):
        x = _v(numpy.arange(6).reshape(2, 3))
        assert x.reshape(3, 2).shape == (3, 2)
        assert x.reshape((3, 2)).shape == (3, 2)
        assert x.reshape(-1).shape == (6,)
        assert x.transpose().shape == (3, 2)
        assert x.transpose(1, 0).shape == (3, 2)
        assert x.transpose((1, 0)).shape == (3, 2)
        assert x.transpose(None).shape == (3, 2)
        assert x.T.shape == (3, 2)

    def test_mean(self):
        x = _v([[1, 2, 3], [4, 5, 6]])
        assert float(x.mean().array) == 3.5
        numpy.testing.assert_allclose(x.mean(axis=0).array, [2.5, 3.5, 4.5])

    def test_item(self):
        assert _v([2.5]).item() == 2.5
        assert isinstance(_v([2.5]).item(), float)
        with pytest.raises(ValueError, match='array of size 1'):
            _v([1, 2]).item()

    def test_pos_returns_self(self):
        x = _v([1.])
        assert +x is x

    def test_unchain(self):
        x = _v([1.])
        y = x * 2
        y.unchain()
        assert y.creator is None

    def test_unchain_backward(self):
        x = _v([1.])
        a = x * 2
        b = a + 1
        b.unchain_backward()
        assert b.creator is None and a.creator is None

    def test_retain_data(self):
        x = _v([1.])
        x.retain_data()
        assert x.node.data is x.array

    def test_to_cpu_and_device(self):
        x = _v([1., 2.], name='x')
        assert x.to_cpu() is None
        x.to_device('@numpy')
        assert x.xp is numpy and x.name == 'x'

    def test_copy_and_pickle(self):
        x = _v([1., 2.], name='x')
        x.grad = numpy.ones(2, numpy.float32)
        y = copy.copy(x)
        assert y.array is x.array and y.name == 'x'
        numpy.testing.assert_array_equal(y.grad, [1, 1])
        z = copy.deepcopy(x)
        assert z.array is not x.array
        numpy.testing.assert_array_equal(z.array, x.array)
        w = pickle.loads(pickle.dumps(x))
        numpy.testing.assert_array_equal(w.grad, [1, 1])
        assert w.name == 'x'

    def test_data_setter_updates_node(self):
        x = _v([1, 2])
        x.node
        x.data = numpy.array([1, 2, 3], numpy.float64)
        assert x.node.shape == (3,) and x.node.dtype == numpy.float64


class TestParameter:

    def test_from_array(self):
        a = numpy.ones((2, 3), numpy.float32)
        p = chainer.Parameter(a)
        assert p.array is a and p.is_initialized
        assert p.grad is None  # as Chainer: only generated data gets NaN

    def test_lazy(self):
        p = chainer.Parameter()
        assert not p.is_initialized and p.array is None
        p.initialize((2, 3))
        assert p.shape == (2, 3) and p.dtype == numpy.float32

    def test_scalar_initializer(self):
        p = chainer.Parameter(2., (3,))
        numpy.testing.assert_array_equal(p.array, [2, 2, 2])

    def test_is_a_variable_in_ops(self):
        p = chainer.Parameter(numpy.array([3.], numpy.float32))
        p.cleargrad()
        (p * p).backward()
        numpy.testing.assert_array_equal(p.grad, [6.])

    def test_deepcopy_and_pickle(self):
        p = chainer.Parameter(numpy.array([3.], numpy.float32), name='w')
        q = copy.deepcopy(p)
        assert isinstance(q, chainer.Parameter) and q.name == 'w'
        r = pickle.loads(pickle.dumps(p))
        numpy.testing.assert_array_equal(r.array, [3.])


def test_as_variable_and_as_array():
    a = numpy.ones(2, numpy.float32)
    v = chainer.as_variable(a)
    assert isinstance(v, Variable) and not v.requires_grad
    assert chainer.as_variable(v) is v
    assert chainer.as_array(v) is a and chainer.as_array(a) is a


def test_no_iteration_protocol_needed():
    x = _v([1, 2])
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        assert [float(e.array) for e in F.separate(x)] == [1., 2.] \
            if hasattr(F, 'separate') else True


def test_parameter_array_initializer_with_shape_broadcasts():
    base = numpy.arange(3, dtype=numpy.float32)
    p = chainer.Parameter(base, (2, 3))
    numpy.testing.assert_array_equal(p.array, [[0, 1, 2], [0, 1, 2]])
    assert p.array is not base and p.dtype == numpy.float32
    assert numpy.isnan(p.grad).all() and p.grad.shape == (2, 3)


def test_parameter_grad_after_initialize_follows_how_it_was_made():
    # As Chainer's _grad_initializer: NaN only for a parameter made
    # uninitialized; made with data, re-initializing clears the gradient.
    p = chainer.Parameter(shape=(2,))
    p.initialize((3,))
    assert p.grad is None
    p = chainer.Parameter()
    with pytest.raises(RuntimeError, match='Cannot retrieve Variable.grad'):
        p.grad
    p.grad = None
    assert p.grad is None
    p.initialize((2,))
    assert numpy.isnan(p.grad).all()
    p.cleargrad()  # initialized: the NaN initializer stays
    p.initialize((2,))
    assert numpy.isnan(p.grad).all()
    p = chainer.Parameter()
    p.zerograd()
    assert p.grad is None
    p.initialize((2,))
    numpy.testing.assert_array_equal(p.grad, 0)


def test_parameter_copy_shares_the_data_cell():
    a = chainer.Parameter(numpy.zeros(2, numpy.float32))
    b = copy.copy(a)
    a.array = numpy.ones(2, numpy.float32)
    numpy.testing.assert_array_equal(b.array, 1)
    c = copy.deepcopy(a)
    a.array = numpy.full(2, 3, numpy.float32)
    numpy.testing.assert_array_equal(c.array, 1)
    u = chainer.Parameter()
    with pytest.raises(RuntimeError):
        copy.copy(u).grad
    with pytest.raises(RuntimeError):
        copy.deepcopy(u).grad


def test_len_of_an_empty_variable_words_it_as_none():
    with pytest.raises(TypeError) as info:
        len(chainer.Variable())
    assert str(info.value) == "object of type 'NoneType' has no len()"
    with pytest.raises(TypeError) as info:
        len(chainer.Variable(numpy.array(1., dtype=numpy.float32)))
    assert str(info.value) == 'len() of unsized object'


def test_variables_take_user_attributes_and_shallow_copies_keep_them():
    # As Chainer: a Variable or Parameter may carry attributes of its own;
    # copy.copy keeps them, deepcopy and pickle do not.
    x = _v([1., 2.])
    x.tag = ['t']
    y = x * 2
    y.tag = 'y'
    assert y.tag == 'y' and getattr(x, 'other', 'dflt') == 'dflt'
    p = chainer.Parameter(numpy.ones(2, numpy.float32))
    p.tag = ['p']
    for v in (x, p):
        assert copy.copy(v).tag is v.tag
        assert not hasattr(copy.deepcopy(v), 'tag')
        assert not hasattr(pickle.loads(pickle.dumps(v)), 'tag')
    assert copy.copy(p).initializer is p.initializer
    del x.tag
    assert not hasattr(x, 'tag')
    with pytest.raises(AttributeError):
        del x.tag


def test_array_takes_a_numpy_scalar_that_ops_then_refuse():
    # As Chainer: x.array = x.array.sum() is taken (it prints); an op, the
    # initial error of backward and len refuse it with Chainer's words.
    x = _v([1., 2.])
    x.array = x.array.sum()
    assert type(x.array) is numpy.float32 and x.shape == ()
    assert repr(x) == 'variable(3.)' and x.item() == 3.0
    for f in (lambda: -x, lambda: x + numpy.ones(2, numpy.float32),
              lambda: F.relu(x)):
        with pytest.raises(TypeError, match='^incompatible array types are '
                           r'mixed in the forward input \(.*\)\.\nActual: '
                           "<class 'numpy.float32'>"):
            f()
    with pytest.raises(TypeError) as e:
        len(x)
    assert str(e.value) == "object of type 'numpy.float32' has no len()"
    y = _v(2.) * 1
    y.array = numpy.float32(3)
    with pytest.raises(TypeError) as e:
        y.backward()
    assert str(e.value) == (
        "Type of data and grad mismatch\ngrad: <class 'numpy.ndarray'> != "
        "data: <class 'numpy.float32'>")
    with pytest.raises(TypeError, match='expected a numpy or cupy array'):
        x.array = 1.0


def test_backward_of_a_one_element_leaf_sets_its_grad():
    # As Chainer: the initial error (ones, times the loss scale) becomes
    # the leaf's grad; a grad already there, or more elements, stay as is.
    x = _v(2.)
    x.backward(loss_scale=3)
    assert x.grad.dtype == numpy.float32 and x.grad == 3.0
    x = _v(2., requires_grad=False)
    x.backward()
    assert x.grad == 1.0
    x = _v([[2.]], numpy.float64)
    with pytest.warns(DeprecationWarning, match='only one element'):
        x.backward()
    assert x.grad.shape == (1, 1) and x.grad.dtype == numpy.float64
    x = _v(2.)
    x.grad = numpy.array(4., numpy.float32)
    x.backward()
    assert x.grad == 4.0
    x = _v([1., 2.])
    x.backward()
    assert x.grad is None


@pytest.mark.parametrize('check', [
    numpy.testing.assert_allclose, numpy.allclose, numpy.isclose])
def test_isclose_on_variables_fails_in_numpy_1_words(check):
    # Chainer users (NumPy 1) saw isfinite refuse the object arrays.
    x = _v([[1., 2.]])
    for a, b in ((x, x.array), (x.array, x), (x, x), (_v(2.), 2.0)):
        with pytest.raises(TypeError) as e:
            check(a, b)
        assert str(e.value) == (
            "ufunc 'isfinite' not supported for the input types, and the "
            'inputs could not be safely coerced to any supported types '
            "according to the casting rule ''safe''")
    with pytest.raises(TypeError, match='do not support <= operator'):
        x <= x
