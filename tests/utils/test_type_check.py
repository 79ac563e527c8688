"""Tests of chainer.utils.type_check.

Message texts are the ones Chainer 7.8.1 produces.  A few tests cover cases
where Chainer raised an unrelated error and we do the evident thing instead:
parentheses around a compound object of ``.attr``/``[key]``/``(...)`` and
around chained comparisons, ``2 ** expr``, expressions inside slices, a NumPy
scalar on the left of a comparison, plain bools and ``|``-combined conditions
in ``expect``, nested light mode, ``accept_none`` in ``get_types``, and plain
tuples in ``expect_broadcast_shapes`` outside light mode.
"""

import pickle
import threading

import numpy
import pytest

from chainer.utils import type_check as T


class _Func:
    label = 'MyF'


def _types(*arrays):
    return T.get_types(arrays, 'in_types', False)


def _check(func, check_type_forward, *arrays):
    """What a FunctionNode does: a light pass, then the expression pass
    only to build the message."""
    try:
        with T.light_mode:
            check_type_forward(T.get_light_types(arrays))
        return
    except T.InvalidType:
        pass
    with T.get_function_check_context(func):
        check_type_forward(_types(*arrays))


def _message(expect, actual, label='MyF'):
    return '\nInvalid operation is performed in: {} (Forward)\n\nExpect: {}\nActual: {}'.format(
        label, expect, actual)


def _raises(check, *arrays):
    with pytest.raises(T.InvalidType) as e:
        _check(_Func(), check, *arrays)
    return e.value


f32 = numpy.float32


# --- Messages, as recorded from Chainer 7.8.1 --------------------------------

@pytest.mark.parametrize('check, arrays, expect, actual', [
    (lambda ts: T.expect(ts[0].dtype == f32, ts[0].ndim == 2),
     (numpy.ones(3, f32),), 'in_types[0].ndim == 2', '1 != 2'),
    (lambda ts: T.expect(ts[0].dtype == f32, ts[0].ndim == 2),
     (numpy.ones((2, 2)),), "in_types[0].dtype == <class 'numpy.float32'>",
     "float64 != <class 'numpy.float32'>"),
    (lambda ts: T.expect(ts.size() == 2),
     (numpy.ones(3, f32),), 'in_types.size == 2', '1 != 2'),
    (lambda ts: T.expect(ts[0].dtype == ts[1].dtype, ts[0].shape == ts[1].shape),
     (numpy.ones(3, f32), numpy.ones(4, f32)),
     'in_types[0].shape == in_types[1].shape', '(3,) != (4,)'),
    (lambda ts: T.expect(ts[0].dtype.kind == 'f', ts[0].shape[0] > 5, ts[0].ndim >= 1),
     (numpy.ones(3, f32),), 'in_types[0].shape[0] > 5', '3 <= 5'),
    (lambda ts: T.expect(ts[0].shape[0] + 1 == ts[0].shape[0] * 2),
     (numpy.ones(3, f32),), 'in_types[0].shape[0] + 1 == in_types[0].shape[0] * 2', '4 != 6'),
    (lambda ts: T.expect(ts[0].dtype.kind == 'i'),
     (numpy.ones(3, f32),), 'in_types[0].dtype.kind == i', 'f != i'),
    (lambda ts: T.expect(ts[0].shape == (2, 2)),
     (numpy.ones(3, f32),), 'in_types[0].shape == (2, 2)', '(3,) != (2, 2)'),
    (lambda ts: T.expect(ts[0].dtype == numpy.dtype('int32')),
     (numpy.ones(3, f32),), 'in_types[0].dtype == int32', 'float32 != int32'),
    (lambda ts: T.expect(T.prod(ts[0].shape) == T.prod((7,))),
     (numpy.ones((2, 3), f32),), 'prod(in_types[0].shape) == prod((7,))', '6 != 7'),
    (lambda ts: T.expect(T.prod(ts[0].shape) % T.make_variable(4, 'known_size(=4)') == 0),
     (numpy.ones((2, 3), f32),), 'prod(in_types[0].shape) % known_size(=4) == 0', '2 != 0'),
    (lambda ts: T.expect(ts[0].shape[-1] == ts[1].shape[-2]),
     (numpy.ones((2, 3), f32), numpy.ones((2, 3), f32)),
     'in_types[0].shape[-1] == in_types[1].shape[-2]', '3 != 2'),
])
def test_failure_message(check, arrays, expect, actual):
    e = _raises(check, *arrays)
    assert str(e) == _message(expect, actual)
    assert e.expect == expect
    assert e.actual == actual
    assert e.args == (_message(expect, actual),)


@pytest.mark.parametrize('cond, actual', [
    (lambda x: x.ndim == 3, '2 != 3'),
    (lambda x: x.ndim != 2, '2 == 2'),
    (lambda x: x.ndim < 1, '2 >= 1'),
    (lambda x: x.ndim <= 1, '2 > 1'),
    (lambda x: x.ndim > 2, '2 <= 2'),
    (lambda x: x.ndim >= 3, '2 < 3'),
])
def test_failure_shows_the_inverse_operator(cond, actual):
    x = T.Variable(T.TypeInfo((2, 3), numpy.dtype(f32)), 'x')
    with pytest.raises(T.InvalidType) as e:
        T.expect(cond(x))
    assert e.value.actual == actual
    assert str(e.value) == 'Expect: {}\nActual: {}'.format(cond(x), actual)


def test_argname_names_the_inputs_in_messages():
    def check(ts):
        T._argname(ts, ('x',))
        T.expect(ts[0].dtype.kind == 'f')
    e = _raises(check, numpy.ones(3, numpy.int32))
    assert str(e) == _message('x.dtype.kind == f', 'i != f')


def test_custom_label():
    class F:
        label = 'custom-label'
    with pytest.raises(T.InvalidType) as e:
        _check(F(), lambda ts: T.expect(ts[0].ndim == 2), numpy.ones(3, f32))
    assert str(e.value) == _message('in_types[0].ndim == 2', '1 != 2', 'custom-label')


def test_passing_checks_do_not_raise():
    def check(ts):
        T._argname(ts, ('x', 'y'))
        x, y = ts
        T.expect(ts.size() == 2, x.dtype == f32, x.dtype == y.dtype, x.ndim == 2,
                 x.shape[1] == y.shape[0], x.dtype.kind == 'f', T.prod(x.shape) == 6)
        T.expect_broadcast_shapes(x.shape, y.shape)
    a, b = numpy.ones((2, 3), f32), numpy.ones(3, f32)
    _check(_Func(), check, a, b)
    with T.get_function_check_context(_Func()):
        check(_types(a, b))


def test_light_pass_runs_first():
    seen = []

    def check(ts):
        seen.append(type(ts).__name__)
        T.expect(ts[0].ndim == 1)
    _check(_Func(), check, numpy.ones(3, f32))
    assert seen == ['LightTypeInfoTuple']
    seen.clear()
    with pytest.raises(T.InvalidType):
        _check(_Func(), check, numpy.ones((2, 3), f32))
    assert seen == ['LightTypeInfoTuple', 'TypeInfoTuple']


# --- InvalidType ---------------------------------------------------------------

def test_invalid_type_outside_a_function():
    e = T.InvalidType('a', 'b')
    assert str(e) == 'Expect: a\nActual: b'
    assert (e.expect, e.actual) == ('a', 'b')
    assert isinstance(e, Exception)


def test_invalid_type_with_msg_has_no_prefix():
    with T.get_function_check_context(_Func()):
        e = T.InvalidType('a', 'b', 'hello')
    assert str(e) == 'hello'
    assert e.args == ('hello',)
    assert e.expect == 'a'


def test_invalid_type_pickles():
    with T.get_function_check_context(_Func()):
        e = T.InvalidType('a', 'b')
    e2 = pickle.loads(pickle.dumps(e))
    assert str(e2) == str(e) == _message('a', 'b')
    assert (e2.expect, e2.actual) == ('a', 'b')


def test_function_check_context_nests_and_restores():
    with T.get_function_check_context(_Func()):
        with T.get_function_check_context(None):
            assert str(T.InvalidType('a', 'b')) == 'Expect: a\nActual: b'
        assert str(T.InvalidType('a', 'b')) == _message('a', 'b')
    assert str(T.InvalidType('a', 'b')) == 'Expect: a\nActual: b'


# --- Expressions -----------------------------------------------------------------

x = T.Variable(T.TypeInfo((2, 3), numpy.dtype(f32)), 'x')
n = x.ndim


@pytest.mark.parametrize('expr, text', [
    (x, 'x'),
    (x.shape, 'x.shape'),
    (x.dtype.kind, 'x.dtype.kind'),
    (x.shape[0], 'x.shape[0]'),
    (x.shape[-1], 'x.shape[-1]'),
    (x.shape[1:], 'x.shape[1:]'),
    (x.shape[1:3:2], 'x.shape[1:3:2]'),
    (x.shape[:], 'x.shape[:]'),
    (x.shape[::2], 'x.shape[::2]'),
    (x.shape[1, 2], 'x.shape[1, 2]'),
    (x.shape[...], 'x.shape[...]'),
    (x.shape[n - 1], 'x.shape[x.ndim - 1]'),
    (x.shape['a'], "x.shape['a']"),
    (x.shape.index(3), 'x.shape.index(3)'),
    (x.shape.count(3, 'a'), "x.shape.count(3, 'a')"),
    (T.Constant('abc'), "'abc'"),
    (T.Constant(f32), "<class 'numpy.float32'>"),
    (n + 1, 'x.ndim + 1'),
    (1 + n, '1 + x.ndim'),
    (1 - n, '1 - x.ndim'),
    ((n + 1) * 2, '(x.ndim + 1) * 2'),
    (n - (n - 1), 'x.ndim - (x.ndim - 1)'),
    ((n - n) - 1, 'x.ndim - x.ndim - 1'),
    ((n ** 2) ** n, '(x.ndim ** 2) ** x.ndim'),
    (n ** (2 ** n), 'x.ndim ** 2 ** x.ndim'),
    (-n, '-x.ndim'),
    (+n, '+x.ndim'),
    (~n, '~x.ndim'),
    (-(-n), '--x.ndim'),
    (-(n + 1), '-(x.ndim + 1)'),
    ((-n) ** 2, '(-x.ndim) ** 2'),
    (-(n ** 2), '-x.ndim ** 2'),
    (n // 2 % 3 / 4 << 1 >> 2 & 3 | 5, 'x.ndim // 2 % 3 / 4 << 1 >> 2 & 3 | 5'),
    ((n | 1) ^ 2, '(x.ndim | 1) ^ 2'),
    ((n + 1) << 2, 'x.ndim + 1 << 2'),
    ((n == 1) + 1, '(x.ndim == 1) + 1'),
    ((n == 1) | (n == 2), '(x.ndim == 1) | (x.ndim == 2)'),
    (n < 1, 'x.ndim < 1'),
    (1 < n, 'x.ndim > 1'),
    (1 == n, 'x.ndim == 1'),
    (n == None, 'x.ndim == None'),  # noqa: E711
    (x.dtype == f32, "x.dtype == <class 'numpy.float32'>"),
    (x.dtype.kind == 'i', "x.dtype.kind == 'i'"),
    (x.shape == [1, 2], 'x.shape == [1, 2]'),
    (T.prod(x.shape), 'prod(x.shape)'),
    ((n + 1).real, '(x.ndim + 1).real'),
    ((-n)[0], '(-x.ndim)[0]'),
])
def test_str(expr, text):
    assert str(expr) == text


@pytest.mark.parametrize('expr, value', [
    (x.shape, (2, 3)),
    (x.dtype, numpy.dtype(f32)),
    (x.dtype.kind, 'f'),
    (x.size, 6),
    (x.shape[-1], 3),
    (x.shape[n - 1], 3),
    (x.shape[T.Constant(0):], (2, 3)),
    (x.shape.index(3), 1),
    (n + 1, 3),
    (n / 4, 0.5),
    (-n, -2),
    (~n, -3),
    (2 ** n, 4),
    (n == 2, True),
    (x.dtype == f32, True),
    (T.prod(x.shape), 6),
    (T.prod(()), 1),
    (T.Call(T.Constant(max), (1, T.Constant(5))), 5),
])
def test_eval(expr, value):
    assert expr.eval() == value
    assert T.eval(expr) == value


def test_expression_types():
    assert type(n == 1) is T.BoolBinaryOperator
    assert type(n + 1) is T.BinaryOperator
    assert type(-n) is T.UnaryOperator
    assert type(x.shape) is T.GetAttr
    assert type(x.shape[0]) is T.GetItem
    assert type(T.prod(x.shape)) is T.Call
    assert isinstance(n == 1, T.Testable)
    assert not isinstance(n + 1, T.Testable)
    for cls in (T.Constant, T.Variable, T.GetAttr, T.GetItem, T.Call):
        assert issubclass(cls, T.Atom)


def test_expression_has_no_truth_value():
    with pytest.raises(RuntimeError, match='cannot be evaluated as bool'):
        bool(n == 2)
    with pytest.raises(RuntimeError):
        T.expect((n == 2) and (n == 3))


def test_expression_is_unhashable():
    with pytest.raises(TypeError):
        hash(n)


def test_numpy_scalar_on_the_left():
    assert str(numpy.int64(2) == n) == 'x.ndim == 2'


def test_missing_attribute_fails_at_eval():
    with pytest.raises(AttributeError):
        x.foo.eval()


# --- expect ------------------------------------------------------------------------

def test_expect_plain_operands_print_with_str():
    with pytest.raises(T.InvalidType) as e:
        T.expect(x.shape == 'ab')
    assert str(e.value) == 'Expect: x.shape == ab\nActual: (2, 3) != ab'
    with pytest.raises(T.InvalidType) as e:
        T.expect(x.ndim == T.Constant('a'))
    assert str(e.value) == "Expect: x.ndim == 'a'\nActual: 2 != a"


def test_expect_stops_at_the_first_failure():
    with pytest.raises(T.InvalidType) as e:
        T.expect(n == 2, n == 3, n == 4)
    assert e.value.expect == 'x.ndim == 3'


def test_expect_bools():
    # Chainer 7.8.1 asserts that each condition is a comparison of
    # expressions, in order: a bool fails (bare), even True
    T.expect()
    for conds in [(True, numpy.bool_(True)), (n == 2, False),
                  (numpy.bool_(False),)]:
        with pytest.raises(AssertionError) as e:
            T.expect(*conds)
        assert str(e.value) == ''
    with pytest.raises(T.InvalidType):  # a failing comparison comes first
        T.expect(n == 1, False)


def test_expect_untestable_expression():
    # an Expr that is not a comparison: Chainer's assert, as for bools
    for cond in [(n == 2) | (n == 1), (n == 1) | (n == 3)]:
        with pytest.raises(AssertionError):
            T.expect(cond)


@pytest.mark.parametrize('cond', [1, 0, None, n + 1])
def test_expect_rejects_non_conditions(cond):
    with pytest.raises(AssertionError):
        T.expect(cond)


# --- Light mode ----------------------------------------------------------------------

def test_light_mode():
    assert not T.in_light_mode()
    with T.light_mode:
        assert T.in_light_mode()
        T.expect(True, 1)
        for cond in (False, numpy.bool_(False), 0):
            with pytest.raises(T.InvalidType) as e:
                T.expect(cond)
            assert str(e.value) == 'Expect: \nActual: '
            assert (e.value.expect, e.value.actual) == ('', '')
        with pytest.raises(RuntimeError):
            T.expect(n == 2)
        assert T.eval(3) == 3
        assert T.make_variable(4, 'k') == 4
        assert T.prod((2, 3)) == 6
        assert T.prod([]) == 1
    assert not T.in_light_mode()


def test_light_mode_nests():
    with T.light_mode:
        with T.light_mode:
            pass
        assert T.in_light_mode()
    assert not T.in_light_mode()


def test_light_mode_restored_on_error():
    with pytest.raises(ValueError):
        with T.light_mode:
            raise ValueError
    assert not T.in_light_mode()


def test_light_mode_is_per_thread():
    seen = []
    with T.light_mode:
        t = threading.Thread(target=lambda: seen.append(T.in_light_mode()))
        t.start()
        t.join()
    assert seen == [False]


def test_make_variable():
    v = T.make_variable(4, 'known_size(=4)')
    assert type(v) is T.Variable
    assert str(v) == 'known_size(=4)'
    assert v.eval() == 4


# --- Types ----------------------------------------------------------------------------

def test_get_types():
    a, b = numpy.ones((2, 3), f32), numpy.ones(4, numpy.int32)
    ts = T.get_types((a, b), 'in_types', False)
    assert type(ts) is T.TypeInfoTuple
    assert len(ts) == 2
    assert [str(t) for t in ts] == ['in_types[0]', 'in_types[1]']
    assert str(ts.size()) == 'in_types.size'
    assert ts.size().eval() == 2
    info = ts[0].eval()
    assert (info.shape, info.dtype, info.ndim, info.size) == ((2, 3), numpy.dtype(f32), 2, 6)
    assert str(T.get_types((a,), 'ins', False)[0].ndim) == 'ins[0].ndim'


def test_get_types_shapes_and_none():
    a = numpy.ones((2, 3), f32)
    ts = T.get_types((a, a), 'in_types', False, shapes=((5,), (6, 7)))
    assert ts[1].eval().shape == (6, 7)
    ts = T.get_types((a, None), 'in_types', True)
    assert ts[1].eval().shape == ()
    assert ts[1].eval().dtype is None
    with pytest.raises(AssertionError, match='expects a tuple'):  # Chainer's type
        T.get_types([a], 'in_types', False)


def test_get_light_types():
    a, b = numpy.ones((2, 3), f32), numpy.ones(4, numpy.int32)
    ts = T.get_light_types((a, b))
    assert type(ts) is T.LightTypeInfoTuple
    assert ts[0] is a and ts[1] is b
    assert ts.size() == 2
    ts = T.get_light_types((a, b), shapes=((5,), (6, 7)))
    assert type(ts[0]) is T.TypeInfo
    assert (ts[1].shape, ts[1].dtype, ts[1].ndim, ts[1].size) == ((6, 7), numpy.dtype('int32'),
                                                                   2, 42)


def test_type_info():
    t = T.TypeInfo((), f32)
    assert (t.ndim, t.size) == (0, 1)
    assert T.TypeInfo((2, 0), f32).size == 0


# --- _argname --------------------------------------------------------------------------

def test_argname():
    ts = _types(numpy.ones(3, f32), numpy.ones(3, f32))
    T._argname(ts, ('x', 'y'))
    assert str(ts[0]) == 'x'
    assert str(ts[1].shape) == 'y.shape'
    assert str(ts.size()) == 'in_types.size'


@pytest.mark.parametrize('light', [False, True])
def test_argname_counts_arguments(light):
    arrays = (numpy.ones(3, f32), numpy.ones(3, f32))
    ts = T.get_light_types(arrays) if light else _types(*arrays)
    with pytest.raises(T.InvalidType) as e:
        if light:
            with T.light_mode:
                T._argname(ts, ('x',))
        else:
            T._argname(ts, ('x',))
    assert str(e.value) == 'Invalid number of arguments'
    assert (e.value.expect, e.value.actual) == ('1 argument(s)', '2 argument(s)')


def test_argname_in_light_mode_renames_nothing():
    ts = T.get_light_types((numpy.ones(3, f32),))
    with T.light_mode:
        T._argname(ts, ('x',))
    T._argname((1, 2), ('a', 'b'))


# --- expect_broadcast_shapes --------------------------------------------------------------

@pytest.mark.parametrize('shapes', [
    (),
    ((2, 3),),
    ((2, 3), (3,)),
    ((2, 3), (3,), (1, 1)),
    ((2, 3), (3,), (4, 1, 1)),
    ((), (0,), (1, 0)),
])
def test_broadcast_ok(shapes):
    T.expect_broadcast_shapes(*shapes)
    T.expect_broadcast_shapes(*[T.Variable(s, 's{}'.format(i)) for i, s in enumerate(shapes)])
    with T.light_mode:
        T.expect_broadcast_shapes(*shapes)


def test_broadcast_failure_names_the_shapes():
    def check(ts):
        T._argname(ts, ('lhs', 'rhs'))
        T.expect_broadcast_shapes(ts[0].shape, ts[1].shape)
    e = _raises(check, numpy.ones((2, 3)), numpy.ones((4, 5)))
    # Not prefixed with the function label: the message is given whole.
    assert str(e) == ('cannot broadcast inputs of the following shapes:\n'
                      'lhs.shape = (2, 3)\nrhs.shape = (4, 5)')
    assert (e.expect, e.actual) == ('', '')


def test_broadcast_failure_lists_every_shape():
    shapes = [T.Variable((2, 3), 'a'), T.Variable((4, 1, 1), 'c'), T.Variable((5, 1), 'b')]
    with pytest.raises(T.InvalidType) as e:
        T.expect_broadcast_shapes(*shapes)
    assert str(e.value) == ('cannot broadcast inputs of the following shapes:\n'
                            'a = (2, 3)\nc = (4, 1, 1)\nb = (5, 1)')
    with pytest.raises(T.InvalidType, match=r'\na = \(2,\)\nb = \(0,\)$'):
        T.expect_broadcast_shapes(T.Variable((2,), 'a'), T.Variable((0,), 'b'))


def test_broadcast_failure_in_light_mode():
    with T.light_mode, pytest.raises(T.InvalidType) as e:
        T.expect_broadcast_shapes((2, 3), (4, 5))
    assert str(e.value) == ('cannot broadcast inputs of the following shapes:\n'
                            '(2, 3) = (2, 3)\n(4, 5) = (4, 5)')


# --- same_types ------------------------------------------------------------------------------

def test_same_types():
    a = numpy.ones(3, f32)
    assert T.same_types() is True
    assert T.same_types(a, numpy.ones(2, numpy.int32)) is True
    assert T.same_types(a, [1]) is False
    assert T.same_types(a, 3) is False
    assert T.same_types(*_types(a)) is False


def test_same_types_cupy():
    cupy = pytest.importorskip('cupy')
    try:
        c = cupy.ones(3)
    except Exception:
        pytest.skip('no usable GPU')
    assert T.same_types(c, cupy.ones(2)) is True
    assert T.same_types(c, numpy.ones(3)) is False


def test_lists_of_expressions():
    # lists and tuples of expressions print and evaluate element-wise
    assert T._repr([T.Constant(0)]) == '[0]'
    assert T._repr([[T.Constant(0)]]) == '[[0]]'
    assert T._repr(()) == '()'
    assert T._repr((T.Constant(0),)) == '(0,)'
    assert T._repr((T.Constant(0), T.Constant(1))) == '(0, 1)'
    assert (T.Constant([0]) == [T.Constant(0)]).eval()
    assert (T.Constant((0, 1)) == (T.Constant(0), T.Constant(1))).eval()
    assert not (T.Constant([[0]]) == [[T.Constant(1)]]).eval()


def test_getattr_with_a_non_string_name():
    x = T.Variable(object(), 'x')
    assert str(T.GetAttr(x, 'value')) == 'x.value'
    assert str(T.GetAttr(x, T.Constant('value'))) == 'x.value'
    assert str(T.GetAttr(x, 3)) == 'getattr(x, 3)'
