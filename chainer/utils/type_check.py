"""Type checking of function inputs, with readable messages.

A function node states what its inputs must look like in
``check_type_forward(self, in_types)``::

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        type_check.expect(x_type.dtype.kind == 'f', x_type.ndim >= 1)

The same code runs in two modes.  In *light mode* ``in_types`` holds the
input arrays themselves, so every condition is a plain bool and a check costs
a few attribute reads; a failure raises a bare :class:`InvalidType`.  Only
then is the check run again with *expressions*: ``in_types[0]`` is a
:class:`Variable`, ``x_type.ndim == 2`` builds a :class:`BoolBinaryOperator`,
and :func:`expect` evaluates it and reports both the source-like text of the
condition and the values it saw::

    Expect: x.ndim == 2
    Actual: 1 != 2

This module needs only NumPy.
"""

import contextlib
import math
import operator
import sys
import threading

import numpy


class _ThreadLocal(threading.local):
    # Class attributes are the defaults every thread starts from.
    light_mode = False
    current_function = None


_thread_local = _ThreadLocal()


class InvalidType(Exception):
    """Raised when the inputs of a function do not satisfy its type check.

    Args:
        expect (str): The text of the condition that was expected.
        actual (str): What was found instead.
        msg (str): The whole message; by default it is built from ``expect``
            and ``actual``, prefixed with the label of the function being
            checked (see :func:`get_function_check_context`).

    >>> str(InvalidType('x.ndim == 2', '1 != 2'))
    'Expect: x.ndim == 2\\nActual: 1 != 2'
    """

    def __init__(self, expect, actual, msg=None):
        if msg is None:
            msg = 'Expect: {}\nActual: {}'.format(expect, actual)
            func = _thread_local.current_function
            if func is not None:
                msg = '\nInvalid operation is performed in: {} (Forward)\n\n{}'.format(
                    func.label, msg)
        super().__init__(msg)
        self.expect = expect
        self.actual = actual

    def __reduce__(self):
        # The full message travels as ``msg``, so the text survives pickling
        # whatever context the copy is made in.
        return type(self), (self.expect, self.actual, self.args[0])


class TypeInfo:
    """The type of one array as the checks see it: ``shape``, ``dtype``,
    ``ndim`` and ``size``."""

    __slots__ = ('shape', 'dtype', 'ndim')

    def __init__(self, shape, dtype):
        self.shape = shape
        self.dtype = dtype
        self.ndim = len(shape)

    @property
    def size(self):
        return math.prod(self.shape)


class TypeInfoTuple(tuple):
    """The input types in expression mode: a tuple of :class:`Variable`
    whose ``size()`` is itself an expression (printed ``in_types.size``)."""

    name = 'in_types'

    def size(self):
        return Variable(len(self), '{}.size'.format(self.name))


class LightTypeInfoTuple(tuple):
    """The input types in light mode: the arrays themselves."""

    def size(self):
        return len(self)


def get_types(data, name, accept_none, *, shapes=None):
    """Wraps the arrays ``data`` as expression variables ``name[i]``.

    Args:
        data (tuple): Arrays (anything with ``shape`` and ``dtype``).
        name (str): The name the expressions print with, e.g. ``in_types``.
        accept_none (bool): Whether ``None`` entries are allowed; they get
            an empty shape and a ``None`` dtype.
        shapes (tuple): Shapes to use instead of the arrays' own.

    Returns:
        TypeInfoTuple: One :class:`Variable` holding a :class:`TypeInfo` per
        array.

    >>> ts = get_types((numpy.zeros((2, 3)),), 'in_types', False)
    >>> str(ts[0].shape[1]), ts[0].shape[1].eval()
    ('in_types[0].shape[1]', 3)
    """
    if not isinstance(data, tuple):
        # an AssertionError, as in Chainer
        raise AssertionError(
            'get_types expects a tuple, not {}'.format(type(data).__name__))
    if shapes is None:
        shapes = [None if x is None else x.shape for x in data]
    info = TypeInfoTuple(
        _get_type(name, i, x, accept_none, shape)
        for i, (x, shape) in enumerate(zip(data, shapes)))
    info.name = name
    return info


def _get_type(name, index, array, accept_none, shape):
    var = '{}[{}]'.format(name, index)
    if accept_none and array is None:
        return Variable(TypeInfo((), None), var)
    return Variable(TypeInfo(shape, array.dtype), var)


def get_light_types(data, *, shapes=None):
    """The input types for light mode: the arrays themselves, or
    :class:`TypeInfo` objects when ``shapes`` replaces their shapes."""
    if shapes is None:
        return LightTypeInfoTuple(data)
    return LightTypeInfoTuple(TypeInfo(shape, x.dtype) for x, shape in zip(data, shapes))


# --- Expressions -------------------------------------------------------------

# Priorities follow Python's operator precedence; an operand of lower
# priority is printed in parentheses.
_ATOM = 8
_UNARY = 6
_COMPARE = -1


def _repr(x):
    if isinstance(x, Expr):
        return str(x)
    if type(x) is list:
        return '[{}]'.format(', '.join(_repr(v) for v in x))
    if type(x) is tuple:
        if len(x) == 1:
            return '({},)'.format(_repr(x[0]))
        return '({})'.format(', '.join(_repr(v) for v in x))
    if isinstance(x, numpy.generic):
        # written as NumPy 1 (and Chainer's messages) write it: 2, not
        # np.int64(2)
        return repr(x.item())
    return repr(x)


def _unwrap_0d(x):
    # NumPy 1 hands a NumPy scalar on the left (``numpy.int64(2) == n``) to
    # the reflected operator as a 0-d array; NumPy 2 as a Python scalar.
    if isinstance(x, numpy.ndarray) and x.ndim == 0:
        return x.item()
    return x


def _str_operand(x, parenthesize):
    if not isinstance(x, Expr):
        return _repr(x)
    return '({})'.format(x) if parenthesize(x.priority) else str(x)


def _eval_expr(x):
    if isinstance(x, Expr):
        return x.eval()
    if type(x) in (list, tuple):  # lists of expressions, as in Chainer
        return type(x)(_eval_expr(v) for v in x)
    return x


def _eval_key(key):
    if isinstance(key, Expr):
        return key.eval()
    if type(key) is tuple:
        return tuple(_eval_key(k) for k in key)
    if type(key) is slice:
        return slice(_eval_key(key.start), _eval_key(key.stop), _eval_key(key.step))
    return key


def _str_subscript(key):
    if type(key) is tuple:
        if len(key) == 1:
            return _str_subscript(key[0]) + ','
        return ', '.join(_str_subscript(k) for k in key)
    if type(key) is slice:
        parts = ['' if v is None else _repr(v) for v in (key.start, key.stop)]
        if key.step is not None:
            parts.append(_repr(key.step))
        return ':'.join(parts)
    if key is Ellipsis:
        return '...'
    return _repr(key)


class Expr:
    """A node of a type-check expression.

    Operators, attribute access, indexing and calls on an expression build
    larger expressions; :meth:`eval` computes the value and ``str()`` gives
    source-like text.  An expression has no truth value: pass comparisons to
    :func:`expect`, or use :func:`eval`.
    """

    __slots__ = ('priority',)
    # NumPy defers to the expression's own (reflected) operators, so that
    # ``numpy.int64(2) == x.ndim`` builds an expression under NumPy 1 too.
    __array_ufunc__ = None

    def __init__(self, priority):
        self.priority = priority

    def eval(self):
        """Computes the value of the expression."""
        raise NotImplementedError

    def __getattr__(self, name):
        # Protocol lookups (copy, pickle, NumPy's __array_*__) must not
        # turn into expressions.
        if name.startswith('__'):
            raise AttributeError(name)
        return GetAttr(self, name)

    def __getitem__(self, key):
        return GetItem(self, key)

    def __call__(self, *args):
        return Call(self, args)

    def __bool__(self):
        raise RuntimeError(
            'An Expr instance cannot be evaluated as bool. Please use '
            'chainer.utils.type_check.eval() to evaluate an expression.')

    __hash__ = None

    def __eq__(self, other):
        return BoolBinaryOperator(self, other, '==', '!=', operator.eq)

    def __ne__(self, other):
        return BoolBinaryOperator(self, other, '!=', '==', operator.ne)

    def __lt__(self, other):
        return BoolBinaryOperator(self, other, '<', '>=', operator.lt)

    def __le__(self, other):
        return BoolBinaryOperator(self, other, '<=', '>', operator.le)

    def __gt__(self, other):
        return BoolBinaryOperator(self, other, '>', '<=', operator.gt)

    def __ge__(self, other):
        return BoolBinaryOperator(self, other, '>=', '<', operator.ge)

    def __neg__(self):
        return UnaryOperator(_UNARY, self, '-', operator.neg)

    def __pos__(self):
        return UnaryOperator(_UNARY, self, '+', operator.pos)

    def __invert__(self):
        return UnaryOperator(_UNARY, self, '~', operator.invert)

    def __pow__(self, other):
        return BinaryOperator(7, self, other, '**', operator.pow, right_associative=True)

    def __rpow__(self, other):
        return BinaryOperator(7, other, self, '**', operator.pow, right_associative=True)


def _add_binary_operator(name, priority, exp, func):
    def op(self, other):
        return BinaryOperator(priority, self, other, exp, func)

    def rop(self, other):
        return BinaryOperator(priority, other, self, exp, func)

    op.__name__ = '__{}__'.format(name)
    rop.__name__ = '__r{}__'.format(name)
    setattr(Expr, op.__name__, op)
    setattr(Expr, rop.__name__, rop)


for _args in [
        ('mul', 5, '*', operator.mul),
        ('truediv', 5, '/', operator.truediv),
        ('floordiv', 5, '//', operator.floordiv),
        ('mod', 5, '%', operator.mod),
        ('add', 4, '+', operator.add),
        ('sub', 4, '-', operator.sub),
        ('lshift', 3, '<<', operator.lshift),
        ('rshift', 3, '>>', operator.rshift),
        ('and', 2, '&', operator.and_),
        ('xor', 1, '^', operator.xor),
        ('or', 0, '|', operator.or_)]:
    _add_binary_operator(*_args)
del _args


class Atom(Expr):
    """An expression that prints without parentheses."""

    __slots__ = ()

    def __init__(self):
        super().__init__(_ATOM)


class Constant(Atom):
    """A literal value; prints as its ``repr``."""

    __slots__ = ('value',)

    def __init__(self, value):
        super().__init__()
        self.value = value

    def __str__(self):
        return _repr(self.value)

    def eval(self):
        return self.value


class Variable(Atom):
    """A value with a name; prints as the name (``in_types[0]``)."""

    __slots__ = ('value', 'name')

    def __init__(self, value, name):
        super().__init__()
        self.value = value
        self.name = name

    def __str__(self):
        return self.name

    def eval(self):
        return self.value


def _str_object(obj):
    return _str_operand(obj, lambda p: p < _ATOM)


class GetAttr(Atom):
    """``obj.name``."""

    __slots__ = ('obj', 'name')

    def __init__(self, obj, name):
        super().__init__()
        self.obj = obj
        self.name = name

    def __str__(self):
        name = self.name.value if isinstance(self.name, Constant) else self.name
        if isinstance(name, str):
            return '{}.{}'.format(_str_object(self.obj), name)
        return 'getattr({}, {})'.format(_repr(self.obj), _repr(name))

    def eval(self):
        return getattr(_eval_expr(self.obj), _eval_expr(self.name))


class GetItem(Atom):
    """``obj[key]``; the key may be or contain expressions."""

    __slots__ = ('obj', 'key')

    def __init__(self, obj, key):
        super().__init__()
        self.obj = obj
        self.key = key

    def __str__(self):
        return '{}[{}]'.format(_str_object(self.obj), _str_subscript(self.key))

    def eval(self):
        return _eval_expr(self.obj)[_eval_key(self.key)]


class Call(Atom):
    """``obj(*args)``."""

    __slots__ = ('obj', 'args')

    def __init__(self, obj, args):
        super().__init__()
        self.obj = obj
        self.args = tuple(args)

    def __str__(self):
        return '{}({})'.format(
            _str_object(self.obj), ', '.join(_repr(a) for a in self.args))

    def eval(self):
        return _eval_expr(self.obj)(*[_eval_expr(a) for a in self.args])


class UnaryOperator(Expr):
    """A prefix operator such as ``-x``."""

    __slots__ = ('term', 'exp', 'func')

    def __init__(self, priority, term, exp, func):
        super().__init__(priority)
        self.term = term
        self.exp = exp
        self.func = func

    def __str__(self):
        return self.exp + _str_operand(self.term, lambda p: p < self.priority)

    def eval(self):
        return self.func(_eval_expr(self.term))


class BinaryOperator(Expr):
    """An infix operator such as ``x + 1``."""

    __slots__ = ('lhs', 'rhs', 'exp', 'func', 'right_associative')

    def __init__(self, priority, lhs, rhs, exp, func, right_associative=False):
        super().__init__(priority)
        self.lhs = _unwrap_0d(lhs)
        self.rhs = _unwrap_0d(rhs)
        self.exp = exp
        self.func = func
        self.right_associative = right_associative

    def _parenthesize(self, left):
        # The side the operator does not group towards needs parentheses for
        # an operand of equal priority too; comparisons group to neither.
        me = self.priority
        if me == _COMPARE or left == self.right_associative:
            return lambda p: p <= me
        return lambda p: p < me

    def __str__(self):
        return '{} {} {}'.format(
            _str_operand(self.lhs, self._parenthesize(True)), self.exp,
            _str_operand(self.rhs, self._parenthesize(False)))

    def eval(self):
        return self.func(_eval_expr(self.lhs), _eval_expr(self.rhs))


class Testable:
    """An expression :func:`expect` can check."""

    __slots__ = ()

    def expect(self):
        raise NotImplementedError


class BoolBinaryOperator(BinaryOperator, Testable):
    """A comparison; ``inv`` is the operator that holds when it fails."""

    __slots__ = ('inv',)

    def __init__(self, lhs, rhs, exp, inv, func):
        super().__init__(_COMPARE, lhs, rhs, exp, func)
        self.inv = inv

    def expect(self):
        left = _eval_expr(self.lhs)
        right = _eval_expr(self.rhs)
        if not self.func(left, right):
            # Here plain operands print with str(): ``dtype.kind == f``.
            paren = self._parenthesize(True)
            lhs, rhs = [_str_operand(x, paren) if isinstance(x, Expr) else str(x)
                        for x in (self.lhs, self.rhs)]
            raise InvalidType(
                '{} {} {}'.format(lhs, self.exp, rhs),
                '{} {} {}'.format(left, self.inv, right))


# --- Checking ----------------------------------------------------------------

class LightMode:
    """Context manager for light mode (see :data:`light_mode`)."""

    # One shared instance, entered from any thread and possibly nested: the
    # previous states live on a per-thread stack, not on the instance.
    __slots__ = ()

    def __enter__(self):
        local = _thread_local
        if 'saved' not in local.__dict__:
            local.saved = []
        local.saved.append(local.light_mode)
        local.light_mode = True

    def __exit__(self, typ, value, traceback):
        local = _thread_local
        local.light_mode = local.saved.pop()


#: In this context the checks take the arrays themselves and plain bools.
light_mode = LightMode()


def in_light_mode():
    """Whether the checks of this thread run in light mode."""
    return _thread_local.light_mode


def expect(*bool_exprs):
    """Checks each condition in turn; the first one that fails raises.

    Args:
        bool_exprs: Comparisons between type-check expressions.  Plain bools
            are accepted too (they cannot say more than that they failed),
            and in light mode they are all there is.

    Raises:
        InvalidType: With the text of the failed condition and the values
            it compared.

    >>> x = Variable(TypeInfo((3,), numpy.dtype('float32')), 'x')
    >>> expect(x.dtype.kind == 'f')
    >>> expect(x.ndim == 2)
    Traceback (most recent call last):
    ...
    chainer.utils.type_check.InvalidType: Expect: x.ndim == 2
    Actual: 1 != 2
    """
    if _thread_local.light_mode:
        for cond in bool_exprs:
            if not cond:
                raise InvalidType('', '')
        return
    for cond in bool_exprs:
        # As Chainer's: anything but a comparison of expressions (a plain
        # bool too, even True) fails its assert, once a check has failed
        # and the messages are worded.
        if not isinstance(cond, Testable):
            raise AssertionError()
        cond.expect()


def same_types(*arrays):
    """Whether the arrays are all NumPy arrays or all CuPy arrays.

    Returns a bool; it does not compare dtypes.
    """
    if all(isinstance(a, numpy.ndarray) for a in arrays):
        return True
    # No CuPy array can exist unless CuPy has been imported.
    cupy = sys.modules.get('cupy')
    return cupy is not None and all(isinstance(a, cupy.ndarray) for a in arrays)


def eval(exp):
    """The value of ``exp``: evaluated when it is an expression, as is
    otherwise (and always in light mode)."""
    if _thread_local.light_mode or not isinstance(exp, Expr):
        return exp
    return exp.eval()


def make_variable(value, name):
    """A :class:`Variable` printing as ``name``; the plain ``value`` in light
    mode.  Functions use it to name a parameter in messages, e.g.
    ``make_variable(4, 'known_size(=4)')``."""
    if _thread_local.light_mode:
        return value
    return Variable(value, name)


def _prod_impl(xs):
    return math.prod(xs)


_prod = Variable(_prod_impl, 'prod')


def prod(xs):
    """The product of ``xs`` (1 for an empty shape); an expression printing
    as ``prod(...)`` outside light mode.

    >>> str(prod(Variable((2, 3), 'x.shape')) == 7)
    'prod(x.shape) == 7'
    """
    if _thread_local.light_mode:
        return _prod_impl(xs)
    return _prod(xs)


def expect_broadcast_shapes(*shape_types):
    """Checks that shapes broadcast together under NumPy's rules.

    Args:
        shape_types: Shapes, usually the expressions ``x_type.shape``.

    Raises:
        InvalidType: Listing every shape, named by its expression.
    """
    light = _thread_local.light_mode
    named = []
    for s in shape_types:
        if isinstance(s, Expr) and not light:
            named.append((str(s), s.eval()))
        else:
            named.append((str(s), s))
    ndim = max((len(shape) for _, shape in named), default=0)
    for axis in range(1, ndim + 1):
        sizes = {shape[-axis] for _, shape in named if len(shape) >= axis}
        sizes.discard(1)
        if len(sizes) > 1:
            raise InvalidType('', '', 'cannot broadcast inputs of the following shapes:\n'
                              + '\n'.join('{} = {}'.format(n, s) for n, s in named))


@contextlib.contextmanager
def get_function_check_context(f):
    """Context in which an :class:`InvalidType` message names ``f.label``
    (``None`` names nothing)."""
    previous = _thread_local.current_function
    _thread_local.current_function = f
    try:
        yield
    finally:
        _thread_local.current_function = previous


def _argname(in_types, names):
    """Names the input expressions, so that messages read ``x.ndim`` rather
    than ``in_types[0].ndim``.  Also checks the number of inputs."""
    if len(in_types) != len(names):
        raise InvalidType(
            '{} argument(s)'.format(len(names)),
            '{} argument(s)'.format(len(in_types)),
            'Invalid number of arguments')
    if _thread_local.light_mode:
        return
    for typ, name in zip(in_types, names):
        if isinstance(typ, Variable):
            typ.name = name
