"""The operators of Variable (+ - * / ** @ // neg abs) and F.add."""

import operator
import re

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.functions.math import basic_math
from chainer.utils import type_check
from op_harness import check_op, on_device, uniform

V = chainer.as_variable  # forward checks call the op on raw arrays


def _pos(rng, dt, shape=(3, 2)):
    return uniform(rng, shape, dt, 0.5, 2)


def _signed(rng, dt, shape=(3, 2)):
    # Away from 0 (division, abs).
    x = _pos(rng, dt, shape) * rng.choice([-1, 1], shape)
    return x.astype(dt)


BINARY = [
    ('add', operator.add), ('sub', operator.sub), ('mul', operator.mul),
    ('truediv', operator.truediv), ('pow', operator.pow),
]


@pytest.mark.parametrize('name,op', BINARY)
def test_var_var(name, op):
    check_op(lambda a, b: op(V(a), b),
             lambda rng, dt: (_pos(rng, dt), _pos(rng, dt)), op)


@pytest.mark.parametrize('name,op', BINARY)
def test_var_var_broadcast(name, op):
    check_op(lambda a, b: op(V(a), b),
             lambda rng, dt: (_pos(rng, dt, (3, 1)), _pos(rng, dt, (1, 2))),
             op)


@pytest.mark.parametrize('name,op', BINARY)
def test_var_var_broadcast_0d(name, op):
    # By hand: gradient_check cannot perturb 0-d inputs (see report).
    a = chainer.Variable(numpy.array([[0.5, 1.], [1.5, 2.]]))
    b = chainer.Variable(numpy.array(1.25))
    y = op(a, b)
    assert y.shape == (2, 2)
    y.grad = numpy.ones((2, 2))
    y.backward()
    assert b.grad.shape == ()
    eps = 1e-6
    num = (op(a.array, 1.25 + eps) - op(a.array, 1.25 - eps)).sum() / (2 * eps)
    numpy.testing.assert_allclose(b.grad, num, rtol=1e-6)


@pytest.mark.parametrize('c', [2, 1.5, -0.5, numpy.float32(3.), numpy.int32(2)])
@pytest.mark.parametrize('name,op', BINARY)
def test_var_const(name, op, c):
    check_op(lambda a: op(V(a), c), lambda rng, dt: (_pos(rng, dt),),
             lambda a: op(a, float(c)))


@pytest.mark.parametrize('c', [2, 1.5, -0.5, numpy.float64(3.)])
@pytest.mark.parametrize('name,op', BINARY)
def test_const_var(name, op, c):
    if name == 'pow' and c < 0:
        pytest.skip('negative base')
    check_op(lambda a: op(c, V(a)), lambda rng, dt: (_pos(rng, dt),),
             lambda a: op(float(c), a))


@pytest.mark.parametrize('name,op', BINARY)
def test_var_ndarray(name, op):
    # An ndarray operand is a constant (it takes the variable's dtype).
    c = numpy.array([[0.75, 1.5]])  # float64, broadcast
    check_op(lambda a: op(V(a), on_device(c)),
             lambda rng, dt: (_pos(rng, dt),), lambda a: op(a, c))
    check_op(lambda a: op(on_device(c), V(a)),
             lambda rng, dt: (_pos(rng, dt),), lambda a: op(c, a))


@pytest.mark.parametrize('name,op', BINARY)
def test_ndarray_operand_gets_no_gradient(name, op):
    a = chainer.Variable(numpy.array([1., 2.], numpy.float32))
    c = numpy.array([3., 4.], numpy.float64)
    y = op(a, c)
    assert y.dtype == numpy.float32
    y.grad = numpy.ones(2, numpy.float32)
    y.backward()
    assert a.grad is not None and a.grad.dtype == numpy.float32


def test_neg():
    check_op(lambda a: -V(a), lambda rng, dt: (_signed(rng, dt),),
             operator.neg)


def test_abs():
    check_op(lambda a: abs(V(a)), lambda rng, dt: (_signed(rng, dt),),
             numpy.abs)
    check_op(F.absolute, lambda rng, dt: (_signed(rng, dt),), numpy.abs,
             dtypes=(numpy.float32,))


def test_abs_gradient_at_zero_is_zero():
    x = chainer.Variable(numpy.array([-2., 0., 3.], numpy.float32))
    y = abs(x)
    y.grad = numpy.ones(3, numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [-1., 0., 1.])


def test_pow_var_var_negative_exponent():
    check_op(lambda a, b: V(a) ** b,
             lambda rng, dt: (_pos(rng, dt), _signed(rng, dt)),
             operator.pow)


@pytest.mark.parametrize('shapes', [((2, 3), (3, 4)), ((3,), (3, 2)),
                                    ((2, 3), (3,)), ((2, 2, 3), (2, 3, 2))])
def test_matmul(shapes):
    s1, s2 = shapes
    check_op(lambda a, b: V(a) @ b,
             lambda rng, dt: (uniform(rng, s1, dt), uniform(rng, s2, dt)),
             numpy.matmul)


def test_rmatmul_with_ndarray():
    m = numpy.arange(6.).reshape(3, 2)
    check_op(lambda a: on_device(m) @ V(a),
             lambda rng, dt: (uniform(rng, (2, 2), dt),),
             lambda a: m @ a)


@pytest.mark.parametrize('lhs,rhs', [('var', 'var'), ('var', 'const'),
                                     ('const', 'var'), ('var', 'array')])
def test_floordiv_records_no_graph(lhs, rhs):
    a = numpy.array([7., -7., 5.5], numpy.float32)
    b = numpy.array([2., 2., -2.], numpy.float32)
    operands = {
        'var': lambda x: chainer.Variable(x), 'const': lambda x: 2.,
        'array': lambda x: x}
    x, y = operands[lhs](a), operands[rhs](b)
    z = x // y
    assert isinstance(z, chainer.Variable)
    assert z.creator is None and not z.requires_grad
    assert z.dtype == numpy.float32
    xa = x.array if isinstance(x, chainer.Variable) else x
    ya = y.array if isinstance(y, chainer.Variable) else y
    numpy.testing.assert_array_equal(z.array, numpy.floor_divide(xa, ya))


@pytest.mark.parametrize('expr,label,cls', [
    ('a + b', '_ + _', 'Add'), ('a + 2', '_ + 2', 'AddConstant'),
    ('2 + a', '_ + 2', 'AddConstant'),
    ('a + numpy.float64(2)', '_ + 2.0', 'AddConstant'),
    ('a - b', '_ - _', 'Sub'), ('a - 2', '_ + (-2)', 'AddConstant'),
    ('2 - a', '2 - _', 'SubFromConstant'), ('a * b', '_ * _', 'Mul'),
    ('a * 2', '_ * 2', 'MulConstant'), ('a / b', '_ / _', 'Div'),
    ('a / 2', '_ * 0.5', 'MulConstant'),
    ('2 / a', '2 / _', 'DivFromConstant'), ('a ** b', '_ ** _', 'PowVarVar'),
    ('a ** 2', '_ ** 2', 'PowVarConst'),
    ('a ** -1', '_ ** (-1)', 'PowVarConst'),
    ('2 ** a', '2 ** _', 'PowConstVar'),
    ('a ** numpy.array([1., 2.])', '_ ** _', 'PowVarVar'),
    ('-a', '__neg__', 'Neg'), ('abs(a)', '|_|', 'Absolute'),
    ('a + numpy.ones((2, 2), numpy.float32)', '_ + _', 'Add'),
    ('F.add(a, b, b)', 'MultiAdd', 'MultiAdd'),
])
def test_labels_and_nodes(expr, label, cls):
    a = chainer.Variable(numpy.array([1., 2.], numpy.float32))
    b = chainer.Variable(numpy.array([3., 4.], numpy.float32))
    y = eval(expr, globals(), {"a": a, "b": b})
    assert y.dtype == numpy.float32
    assert y.creator.label == label
    assert type(y.creator).__name__ == cls


def test_add_many():
    check_op(lambda a, b, c: F.add(a, b, c),
             lambda rng, dt: (uniform(rng, (3, 2), dt),
                              uniform(rng, (3, 2), dt),
                              uniform(rng, (1, 2), dt)),
             lambda a, b, c: a + b + c)
    check_op(lambda a, b: F.add(a, b),
             lambda rng, dt: (uniform(rng, (3, 2), dt),
                              uniform(rng, (3, 2), dt)),
             lambda a, b: a + b, dtypes=(numpy.float32,))


def test_int_variables():
    i = chainer.Variable(numpy.array([3, 4], numpy.int32))
    assert (i + i).dtype == numpy.int32
    assert (i * 2).dtype == numpy.int32
    assert (-i).dtype == numpy.int32
    numpy.testing.assert_array_equal((i - 1).array, [2, 3])


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32])
def test_zero_dim_constant_ops_keep_dtype(dtype):
    # A Python constant takes the dtype of a 0-d float variable (NumPy 1's
    # value-based casting would give float64 there).
    a = chainer.Variable(numpy.asarray(1.5, dtype))
    for y in (a + 0.5, 0.5 - a, a * 3, a / 2, 2 / a, a ** 2, a ** 1.5,
              2. ** a):
        assert y.shape == () and y.dtype == dtype, y
    g, = chainer.grad([a ** 1.5], [a])
    assert g.dtype == dtype
    numpy.testing.assert_allclose(g.array, 1.5 * 1.5 ** 0.5, rtol=1e-3)


def test_empty_shapes():
    a = chainer.Variable(numpy.zeros((0, 3), numpy.float32))
    for y in (a + a, a * 2, a / 2, 2 / (a + 1), a ** 2, -a, abs(a), a - a):
        assert y.shape == (0, 3) and y.dtype == numpy.float32
    z = a + a
    z.grad = numpy.zeros((0, 3), numpy.float32)
    z.backward()
    assert a.grad.shape == (0, 3)


def test_broadcast_gradient_is_reduced():
    a = chainer.Variable(numpy.ones((3, 1), numpy.float32))
    b = chainer.Variable(numpy.ones((1, 2), numpy.float32))
    y = a * b + a
    y.grad = numpy.ones((3, 2), numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(a.grad, numpy.full((3, 1), 4.))
    numpy.testing.assert_array_equal(b.grad, numpy.full((1, 2), 3.))


# --- errors -----------------------------------------------------------------

@pytest.mark.parametrize('op', [operator.add, operator.sub, operator.mul,
                                operator.truediv, operator.pow])
def test_dtype_mismatch(op):
    a = chainer.Variable(numpy.ones(2, numpy.float32))
    d = chainer.Variable(numpy.ones(2, numpy.float64))
    with pytest.raises(type_check.InvalidType, match='lhs.dtype == rhs.dtype'):
        op(a, d)


@pytest.mark.parametrize('op', [operator.add, operator.sub, operator.mul,
                                operator.truediv, operator.pow])
def test_not_broadcastable(op):
    a = chainer.Variable(numpy.ones(2, numpy.float32))
    b = chainer.Variable(numpy.ones(3, numpy.float32))
    with pytest.raises(type_check.InvalidType,
                       match='cannot broadcast inputs of the following '
                             'shapes:\nlhs.shape = \\(2,\\)\nrhs.shape'):
        op(a, b)


@pytest.mark.parametrize('op', [operator.add, operator.sub, operator.mul,
                                operator.truediv, operator.pow,
                                operator.floordiv])
def test_not_broadcastable_text_is_chainers(op):
    # Chainer raises its broadcast check's text bare: no header naming the
    # function, empty expect and actual; floor division checks as _ / _
    a = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    with pytest.raises(type_check.InvalidType) as e:
        op(a, numpy.ones((3, 2), numpy.float32))
    assert str(e.value) == ('cannot broadcast inputs of the following '
                            'shapes:\nlhs.shape = (2, 3)\nrhs.shape = (3, 2)')
    assert (e.value.expect, e.value.actual) == ('', '')


def test_floordiv_checks_dtypes_as_division():
    a = chainer.Variable(numpy.ones(2, numpy.float32))
    with pytest.raises(type_check.InvalidType) as e:
        a // chainer.Variable(numpy.ones(2, numpy.float64))
    assert str(e.value) == (
        '\nInvalid operation is performed in: _ / _ (Forward)\n\n'
        'Expect: lhs.dtype == rhs.dtype\nActual: float32 != float64')


@pytest.mark.parametrize('op', [operator.add, operator.sub, operator.mul,
                                operator.truediv, operator.pow,
                                operator.floordiv])
@pytest.mark.parametrize('bad', [[1., 2.], None, 'x', object()])
def test_bad_operand(op, bad):
    a = chainer.Variable(numpy.ones(2, numpy.float32))
    with pytest.raises(TypeError):
        op(a, bad)
    with pytest.raises(TypeError):
        op(bad, a)


def test_list_operand_message():
    a = chainer.Variable(numpy.ones(2, numpy.float32))
    with pytest.raises(TypeError, match='Value must be a scalar'):
        a + [1, 2]


def test_integer_division_errors():
    i = chainer.Variable(numpy.array([3, 4], numpy.int32))
    with pytest.raises(type_check.InvalidType, match='lhs.dtype.kind == f'):
        i / i
    with pytest.raises(type_check.InvalidType, match='x.dtype.kind == f'):
        2 / i


def test_mixed_int_float_variables():
    a = chainer.Variable(numpy.ones(2, numpy.float32))
    i = chainer.Variable(numpy.ones(2, numpy.int32))
    with pytest.raises(type_check.InvalidType,
                       match='float32 != int32'):
        a * i


def test_add_errors():
    a = chainer.Variable(numpy.ones(2, numpy.float32))
    d = chainer.Variable(numpy.ones(2, numpy.float64))
    with pytest.raises(type_check.InvalidType, match='dtype'):
        F.add(a, a, d)
    with pytest.raises(type_check.InvalidType, match='lhs.dtype == rhs.dtype'):
        F.add(a, d)


def test_matmul_errors():
    a = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    with pytest.raises(Exception):
        a @ numpy.ones((2, 3), numpy.float32)
    with pytest.raises((TypeError, AttributeError)):
        a @ 2


@pytest.mark.parametrize('value,text', [
    (2, '2'), (0, '0'), (-2, '(-2)'), (2.0, '2.0'), (-2.5, '(-2.5)'),
    (numpy.float32(2), '2.0'), (numpy.int64(-3), '(-3)'),
    (numpy.array([1, 2]), 'constant array'),
    (chainer.Variable(numpy.array([1., 2.])), 'constant array'),
])
def test_convert_value_to_string(value, text):
    # Chainer's helper behind the labels of the constant ops
    assert basic_math._convert_value_to_string(value) == text


def test_constant_op_labels():
    x = chainer.Variable(numpy.ones(2, numpy.float32))
    assert (x - 3).creator.label == '_ + (-3)'
    assert (2 / x).creator.label == '2 / _'


# --- gradients on arrays (_backward_arrays) where no graph is recorded -----

_ARRAY_STEP_CASES = [
    ('neg', lambda a, b: -a, [(3, 2), ()]),
    ('sub', lambda a, b: a - b, [(3, 2), ()]),
    ('sub broadcast', lambda a, b: a - b[:1], [(3, 2)]),
    ('rsub', lambda a, b: 2.5 - a, [(3, 2), ()]),
    ('rsub array', lambda a, b: numpy.ones((4, 3, 2), a.dtype) - a,
     [(3, 2)]),
    ('mul', lambda a, b: a * b, [(3, 2), ()]),
    ('mul broadcast', lambda a, b: a[:1] * b, [(3, 2)]),
    ('mul constant', lambda a, b: a * -1.5, [(3, 2), ()]),
    ('mul constant array',
     lambda a, b: a * numpy.full((4, 3, 2), 3, a.dtype), [(3, 2)]),
    ('add', lambda a, b: a + b, [(3, 2), ()]),
    ('add broadcast', lambda a, b: a + b[:1], [(3, 2)]),
    ('add constant', lambda a, b: a + 1.5, [(3, 2), ()]),
    ('add constant array',
     lambda a, b: a + numpy.ones((4, 3, 2), a.dtype), [(3, 2)]),
    ('pow 2', lambda a, b: a ** 2, [(3, 2), ()]),
    ('pow 3', lambda a, b: a ** 3, [(3, 2), ()]),
    ('pow 1.5', lambda a, b: (a * a + 1) ** 1.5, [(3, 2), ()]),
    ('poly', lambda a, b: a ** 2 - 2 * a + 1 + a * b, [(3, 2), ()]),
]


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64])
@pytest.mark.parametrize('name,f,shapes', _ARRAY_STEP_CASES,
                         ids=[c[0] for c in _ARRAY_STEP_CASES])
def test_array_steps_match_recorded_backward(name, f, shapes, dtype):
    # The plain pass (arrays) and the recorded one (double backprop, the
    # nodes of backward) give the same bits, of the inputs' shapes and
    # dtypes, 0-d gradients as arrays (NumPy makes scalars of 0-d math)
    rng = numpy.random.RandomState(1)
    for shape in shapes:
        a0 = numpy.asarray(rng.randn(*shape), dtype)
        b0 = numpy.asarray(rng.randn(*shape), dtype)
        grads = []
        for double in (False, True):
            a, b = chainer.Variable(a0.copy()), chainer.Variable(b0.copy())
            y = f(a, b)
            y.grad = numpy.asarray(
                numpy.arange(y.size).reshape(y.shape) - 2, dtype)
            y.backward(enable_double_backprop=double)
            got = []
            for v in (a, b):
                if v.grad is not None:
                    assert type(v.grad) is numpy.ndarray
                    assert v.grad.shape == v.shape
                    assert v.grad.dtype == dtype
                got.append(v.grad)
            grads.append(got)
        for g0, g1 in zip(*grads):
            assert (g0 is None) == (g1 is None)
            if g0 is not None:
                numpy.testing.assert_array_equal(g0, g1)
                numpy.testing.assert_array_equal(numpy.signbit(g0),
                                                 numpy.signbit(g1))


# --- constants as Chainer takes them ----------------------------------------

def test_integer_variables_take_constants_in_their_dtype():
    # Chainer casts a constant to an integer x's dtype (1.5 -> 1; 1 / 2
    # -> 0; -1 wraps round in uint8), so the result keeps that dtype
    vi = chainer.Variable(numpy.array([3, 7], numpy.int32))
    for y, want in [(vi + 1.5, [4, 8]), (vi - 1.5, [2, 6]),
                    (1.5 - vi, [-2, -6]), (vi * 0.5, [0, 0]),
                    (vi / 2, [0, 0]), (vi / 0.5, [6, 14]),
                    (vi + numpy.float32(2.7), [5, 9]),
                    (vi // 2, [0, 0]), (vi // 0.5, [6, 14])]:
        assert y.dtype == numpy.int32
        numpy.testing.assert_array_equal(y.array, want)
    assert (vi / 2).creator.label == '_ * 0.5'
    vu = chainer.Variable(numpy.array([1, 2], numpy.uint8))
    numpy.testing.assert_array_equal((vu * -1).array, [255, 254])
    vb = chainer.Variable(numpy.array([True, False]))
    numpy.testing.assert_array_equal((vb + 1).array, [True, True])
    # and what Chainer refuses for integers
    for f, msg in [(lambda: vi * vi, 'lhs.dtype.kind == f'),
                   (lambda: vi ** 2, 'x.dtype.kind == f'),
                   (lambda: 2 ** vi, 'x.dtype.kind == f'),
                   (lambda: vi ** vi, 'lhs.dtype.kind == f'),
                   (lambda: vi // vi, 'lhs.dtype.kind == f'),
                   (lambda: 7 // vi, 'x.dtype.kind == f')]:
        with pytest.raises(type_check.InvalidType, match=re.escape(msg)):
            f()


def test_numpy_scalar_constants_keep_their_label_and_precision():
    v = chainer.Variable(numpy.array([3, 7], numpy.float32))
    y = v + numpy.float32(2.7)
    assert y.creator.label == '_ + 2.7' and y.dtype == numpy.float32
    assert (v * numpy.float16(0.1)).creator.label == '_ * 0.1'
    # (a negative one goes through format(), which shows its float value)
    assert (numpy.float32(-2.7) - v).creator.label == \
        '(-2.700000047683716) - _'
    # x / c is x * (1 / c), the reciprocal in float64 as NumPy 1 made it
    y = v / numpy.float32(2.7)
    assert y.creator.label == '_ * 0.37037036382939437'
    numpy.testing.assert_array_equal(
        y.array, v.array * numpy.float32(1 / 2.700000047683716))
    assert (v / numpy.float16(0.1)).creator.label == '_ * 10.002442002442002'
    # a float64 constant does not promote a float32 x, nor change its bits
    y = numpy.float64(2.7) ** v
    assert y.dtype == numpy.float32
    numpy.testing.assert_array_equal(y.array,
                                     numpy.float32(2.7) ** v.array)
    y = v ** numpy.float64(2.7)
    numpy.testing.assert_array_equal(y.array,
                                     v.array ** numpy.float32(2.7))


def test_mixed_dtypes_promote_without_type_check():
    # As Chainer: the dtype check is a type check, so type_check False
    # leaves the operands to NumPy's promotion
    a = chainer.Variable(numpy.ones(2, numpy.float32))
    b = chainer.Variable(numpy.ones(2, numpy.float64))
    with chainer.using_config('type_check', False):
        assert (a * b).dtype == numpy.float64
        assert (a - b).dtype == numpy.float64
        assert F.maximum(a, b).dtype == numpy.float64
    with pytest.raises(chainer.utils.type_check.InvalidType):
        a * b


@pytest.mark.parametrize('rhs', [2.0, 3, numpy.float64(1.5), numpy.array(2.0),
                                 numpy.array([1, 2], numpy.int32),
                                 numpy.array([1., 2.])])
def test_add_function_takes_constants_as_the_operator(rhs):
    # F.add(x, c) is x + c: a scalar is a constant, an array takes x's
    # dtype (Chainer's F.add)
    x = chainer.Variable(numpy.array([1., 2.], numpy.float32))
    y = F.add(x, rhs)
    assert y.dtype == numpy.float32
    numpy.testing.assert_array_equal(y.array, (x + rhs).array)
    y.grad = numpy.array([1., -2.], numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [1., -2.])


def test_add_of_several_refuses_a_scalar():
    x = numpy.ones(2, numpy.float32)
    with pytest.raises(TypeError, match=r'xs\[2\] is a float'):
        F.add(x, x, 1.0)
