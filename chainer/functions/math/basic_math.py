"""Arithmetic: the operators of Variable (``+ - * / // ** @``, ``-x``,
``abs``) and ``F.add``.

Broadcasting is allowed between two variables; the engine reduces a
gradient that comes back in the broadcast shape, so no op here sums it.
Constants (Python or NumPy scalars, arrays) take the variable's dtype.
"""

import numpy

from chainer import backend
from chainer.function_node import _RELEASED, FunctionNode
from chainer.functions._errors import (broadcast_error, check_float,
                                       check_same_dtype)
from chainer.functions.math.matmul import MatMul, matmul as _matmul
from chainer.variable import Variable, _new_variable

_object_new = object.__new__


def _binary(func, lhs, rhs, compute):
    """Runs ``compute(lhs, rhs)`` with Chainer's checks of two operands."""
    if lhs.dtype != rhs.dtype:
        check_same_dtype(func, lhs, rhs)
    try:
        return compute(lhs, rhs)
    except ValueError:
        if lhs.shape != rhs.shape:
            try:
                numpy.broadcast_shapes(lhs.shape, rhs.shape)
            except ValueError:
                raise broadcast_error(func, lhs.shape, rhs.shape) from None
        raise


# NumPy 2 (NEP 50) keeps an array's dtype when a Python scalar joins it;
# NumPy 1 promoted a 0-d float16/32 operand to float64.
_NEP50 = int(numpy.__version__.split('.')[0]) >= 2


def _const(x, value):
    """A scalar constant as Chainer takes it: a scalar of ``x``'s dtype.
    For a float ``x`` NumPy 2 does that already, at no cost (a Python
    scalar joins the array's dtype); an integer or boolean ``x`` casts it
    as Chainer does (1.5 becomes 1, 300 wraps round in int8), so the
    result keeps ``x``'s dtype."""
    kind = x.dtype.kind
    if kind == 'f':
        if type(value) in _scalar_types:
            return value if _NEP50 else x.dtype.type(value)
        if isinstance(value, numpy.generic):  # (NumPy 2 would promote)
            return x.dtype.type(value)
        return value
    if kind in 'iub' and (type(value) in _scalar_types or
                          isinstance(value, numpy.generic)):
        return numpy.asarray(value).astype(x.dtype)[()]
    return value


def _array(y):
    """``y``, a NumPy scalar (which NumPy makes of 0-d arithmetic) as a 0-d
    array: the gradients of ``_backward_arrays`` are arrays."""
    return numpy.asarray(y) if isinstance(y, numpy.generic) else y


def _convert_value_to_string(value):
    """A constant as op labels show it (Chainer's name): negative numbers in
    parentheses, arrays and Variables as ``constant array``."""
    if not isinstance(value, (int, float, complex, numpy.generic)):
        return 'constant array'
    # (a NumPy scalar as str shows it: np.float32(2.7) is 2.7)
    return '({})'.format(value) if value.real < 0 else str(value)


# --- unary ----------------------------------------------------------------

class Neg(FunctionNode):

    @property
    def label(self):
        return '__neg__'

    def forward(self, inputs):
        return -inputs[0],

    def _backward_arrays(self, indexes, gys):
        return _array(-gys[0]),

    def backward(self, indexes, grad_outputs):
        return -grad_outputs[0],


def neg(self):  # lhs
    return Neg().apply((self,))[0]


class Absolute(FunctionNode):

    @property
    def label(self):
        return '|_|'

    def forward(self, inputs):
        self.retain_inputs((0,))
        check_float(self, inputs[0])
        return abs(inputs[0]),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        # sign(0) = 0: the subgradient at the kink is taken as zero.
        return grad_outputs[0] * x.xp.sign(x.array),


def absolute(self):
    """Element-wise absolute value.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.absolute(np.array([-1., 2.], np.float32)).array
    array([1., 2.], dtype=float32)
    """
    return Absolute().apply((self,))[0]


# --- addition and subtraction ---------------------------------------------

class Add(FunctionNode):

    @property
    def label(self):
        return '_ + _'

    def forward(self, inputs):
        return _binary(self, inputs[0], inputs[1], _add),

    def _backward_arrays(self, indexes, gys):
        gy = gys[0]
        x0, x1 = self.inputs
        if x0.shape != gy.shape or x1.shape != gy.shape:
            return None  # broadcast: the engine sums backward's gradients
        return (gy,) * len(indexes)

    def backward(self, indexes, grad_outputs):
        gy = grad_outputs[0]
        return gy, gy


def _add(a, b):
    return a + b


class AddConstant(FunctionNode):

    def __init__(self, value):
        self.value = value

    @property
    def label(self):
        return '_ + ' + _convert_value_to_string(self.value)

    def forward(self, inputs):
        return inputs[0] + _const(inputs[0], self.value),

    _hands_gradient_on = True

    def _backward_arrays(self, indexes, gys):
        return _same_as_input(self, gys[0])

    def backward(self, indexes, grad_outputs):
        return grad_outputs[0],


def sum_arrays(xs):
    """``xs[0] + xs[1] + ...`` (two or more arrays), added in place into
    the first sum where the shapes allow."""
    y = xs[0] + xs[1]
    for x in xs[2:]:
        if x.shape == y.shape:
            y += x
        else:
            y = y + x
    return y


class MultiAdd(FunctionNode):
    """The sum of any number of inputs of one shape and dtype."""

    @property
    def label(self):
        return 'MultiAdd'

    def forward(self, xs):
        return sum_arrays(xs),

    def backward(self, indexes, grad_outputs):
        gy = grad_outputs[0]
        return (gy,) * len(self.inputs)


def add(*xs):
    """Element-wise addition of any number of variables.

    Returns:
        ~chainer.Variable: The sum (broadcasting the inputs).

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> a = np.array([1., 2.], np.float32)
    >>> F.add(a, a, a).array
    array([3., 6.], dtype=float32)
    """
    if len(xs) == 2:
        lhs, rhs = xs
        arrays = backend._get_array_types()
        if isinstance(lhs, (Variable,) + arrays) and (
                type(rhs) in _scalar_types or
                isinstance(rhs, (numpy.number,) + arrays)):
            # as ``lhs + rhs``: a scalar is a constant, an array takes
            # lhs's dtype (Chainer's F.add)
            return add_(lhs, rhs)
        return Add().apply(xs)[0]
    if len(xs) == 1:
        from chainer.functions.math.identity import identity
        return identity(xs[0])
    if not xs:
        raise TypeError('F.add: at least one input is needed')
    x0 = xs[0]
    for i, x in enumerate(xs):
        if not isinstance(x, Variable) and \
                not isinstance(x, backend._get_array_types()):
            raise TypeError(
                'F.add of {} inputs: xs[{}] is a {}; with more than two, '
                'each must be a Variable or an array'.format(
                    len(xs), i, type(x).__name__))
    for i, x in enumerate(xs[1:], 1):
        a0 = x0.array if isinstance(x0, Variable) else x0
        a = x.array if isinstance(x, Variable) else x
        if a.dtype != a0.dtype:
            check_same_dtype('MultiAdd', a0, a,
                             names=('xs[0]', 'xs[{}]'.format(i)))
    return MultiAdd().apply(xs)[0]


class Sub(FunctionNode):

    @property
    def label(self):
        return '_ - _'

    def forward(self, inputs):
        return _binary(self, inputs[0], inputs[1], _sub),

    def _backward_arrays(self, indexes, gys):
        gy = gys[0]
        x0, x1 = self.inputs
        if x0.shape != gy.shape or x1.shape != gy.shape:
            return None  # broadcast: the engine sums backward's gradients
        return [gy if i == 0 else _array(-gy) for i in indexes]

    def backward(self, indexes, grad_outputs):
        gy = grad_outputs[0]
        return gy, -gy


def _sub(a, b):
    return a - b


class SubFromConstant(FunctionNode):

    def __init__(self, value):
        self.value = value

    @property
    def label(self):
        return _convert_value_to_string(self.value) + ' - _'

    def forward(self, inputs):
        return _const(inputs[0], self.value) - inputs[0],

    def _backward_arrays(self, indexes, gys):
        return _same_as_input(self, _array(-gys[0]))

    def backward(self, indexes, grad_outputs):
        return -grad_outputs[0],


def _same_as_input(func, gx):
    """``(gx,)`` where ``gx`` has the shape and dtype of the input of
    ``func`` (an op with one input); None where a constant array broadcast
    it (the engine sums backward's gradient)."""
    x = func.inputs[0]
    if gx.shape != x.shape or gx.dtype != x.dtype:
        return None
    return gx,


# --- multiplication and division ------------------------------------------

class Mul(FunctionNode):

    @property
    def label(self):
        return '_ * _'

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        if inputs[0].dtype.kind != 'f':
            check_float(self, inputs[0], 'lhs')  # as Chainer's
        return _binary(self, inputs[0], inputs[1], _mul),

    def _backward_arrays(self, indexes, gys):
        # the products of backward, without their nodes
        data = self._retained_in_data
        gy = gys[0]
        if data is _RELEASED or data[0].shape != gy.shape or \
                data[1].shape != gy.shape or gy.dtype != data[0].dtype:
            return None  # broadcast: the engine sums backward's gradients
        x0, x1 = data
        return [_array(gy * x1 if i == 0 else gy * x0) for i in indexes]

    def backward(self, indexes, grad_outputs):
        gy = grad_outputs[0]
        x0, x1 = self.get_retained_inputs()
        return tuple([gy * x1 if i == 0 else gy * x0 for i in indexes])


def _mul(a, b):
    return a * b


class MulConstant(FunctionNode):

    def __init__(self, value):
        self.value = value

    @property
    def label(self):
        return '_ * ' + _convert_value_to_string(self.value)

    def forward(self, inputs):
        return inputs[0] * _const(inputs[0], self.value),

    def _backward_arrays(self, indexes, gys):
        gy = gys[0]
        return _same_as_input(self, _array(gy * _const(gy, self.value)))

    def backward(self, indexes, grad_outputs):
        return MulConstant(self.value).apply(grad_outputs)


class Div(FunctionNode):

    @property
    def label(self):
        return '_ / _'

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x0, x1 = inputs
        check_float(self, x0, 'lhs')
        return _binary(self, x0, x1, _div),

    def backward(self, indexes, grad_outputs):
        gy = grad_outputs[0]
        x0, x1 = self.get_retained_inputs()
        gx0 = gy / x1
        if indexes == (0,):
            return gx0,
        gx1 = -gx0 * x0 / x1
        return (gx0, gx1) if len(indexes) == 2 else (gx1,)


def _div(a, b):
    return a / b


class DivFromConstant(FunctionNode):

    def __init__(self, value):
        self.value = value

    @property
    def label(self):
        return _convert_value_to_string(self.value) + ' / _'

    def forward(self, inputs):
        x, = inputs
        check_float(self, x)
        self.retain_inputs((0,))
        return _const(x, self.value) / x,

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        # d(c / x)/dx = -c / x^2, in Chainer's order of operations.
        return (grad_outputs[0] * -self.value) / (x * x),


# --- powers ---------------------------------------------------------------

class PowVarVar(FunctionNode):

    @property
    def label(self):
        return '_ ** _'

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        self.retain_outputs((0,))
        check_float(self, inputs[0], 'lhs')
        return _binary(self, inputs[0], inputs[1], _pow),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.math.exponential import log
        gy = grad_outputs[0]
        x0, x1 = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        ret = []
        if 0 in indexes:
            ret.append(gy * (x1 * x0 ** (x1 - 1)))
        if 1 in indexes:
            ret.append(gy * (y * log(x0)))
        return tuple(ret)


def _pow(a, b):
    return a ** b


class PowVarConst(FunctionNode):

    def __init__(self, value):
        self.value = value

    @property
    def label(self):
        return '_ ** ' + _convert_value_to_string(self.value)

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        check_float(self, x)
        return _fix_dtype(x ** _const(x, self.value), x.dtype),

    def _backward_arrays(self, indexes, gys):
        # PowVarConstGrad's product, without its node
        data = self._retained_in_data
        if data is _RELEASED:
            return None
        return _same_as_input(self, _array(_pow_grad(data[0], gys[0],
                                                     self.value)))

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return PowVarConstGrad(self.value).apply((x, grad_outputs[0]))


def _pow_grad(x, gy, c):
    """``gy * c * x^(c-1)`` (``gy * (x + x)`` for ``c == 2``)."""
    if c == 2:
        return gy * (x + x)
    c = _const(x, c)
    return _fix_dtype(gy * (c * x ** (c - 1)), x.dtype)


class PowVarConstGrad(FunctionNode):
    """``gy * c * x^(c-1)`` in one op (the gradient of ``x ** c``)."""

    def __init__(self, value):
        self.value = value

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, gy = inputs
        return _pow_grad(x, gy, self.value),

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        c = self.value
        ret = []
        # products in Chainer's order (left to right), so that second
        # derivatives round as its do
        if 0 in indexes:
            ret.append(ggx * c * gy * (c - 1) * x ** (c - 2))
        if 1 in indexes:
            ret.append(ggx * c * x ** (c - 1))
        return ret


class PowConstVar(FunctionNode):

    def __init__(self, value):
        self.value = value

    @property
    def label(self):
        return _convert_value_to_string(self.value) + ' ** _'

    def forward(self, inputs):
        x, = inputs
        check_float(self, x)
        self.retain_outputs((0,))
        return _fix_dtype(_const(x, self.value) ** x, x.dtype),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        xp = y.xp
        log_c = xp.log(xp.asarray(self.value, dtype=y.dtype))
        return grad_outputs[0] * (y * log_c),


def _fix_dtype(y, dtype):
    return y if y.dtype == dtype else y.astype(dtype, copy=False)


# --- the operators of Variable --------------------------------------------

def _const_error(value):
    return TypeError(
        'Value must be a scalar, `numpy.ndarray`, `cupy.ndarray` or a '
        '`Variable`.\nActual: {}'.format(type(value)))


_scalar_types = (int, float, bool)


def _prepare(self, rhs):
    """Classifies the other operand: ('var', Variable), ('array', array) or
    ('const', scalar); arrays and NumPy scalars take self's dtype."""
    if isinstance(rhs, Variable):
        return 0, rhs
    t = type(rhs)
    if t in _scalar_types:
        return 2, rhs
    if isinstance(rhs, numpy.generic):
        if not isinstance(rhs, (numpy.number, numpy.bool_)):
            raise _const_error(rhs)
        return 2, rhs
    if isinstance(rhs, backend._get_array_types()):
        dtype = self.dtype
        if rhs.dtype != dtype:
            rhs = rhs.astype(dtype)
        return 1, rhs
    if isinstance(rhs, complex):
        return 2, rhs
    raise _const_error(rhs)


# add_, sub, mul and pow take the common operands (a Variable, a Python
# scalar) without _prepare: one call less on the per-op path.

def add_(self, rhs):  # lhs + rhs
    if type(rhs) in _scalar_types:
        return AddConstant(rhs).apply((self,))[0]
    if isinstance(rhs, Variable):
        return Add().apply((self, rhs))[0]
    kind, rhs = _prepare(self, rhs)
    if kind == 2:
        return AddConstant(rhs).apply((self,))[0]
    return Add().apply((self, rhs))[0]


def sub(self, rhs):  # lhs - rhs
    if type(rhs) in _scalar_types:
        return AddConstant(-rhs).apply((self,))[0]
    if isinstance(rhs, Variable):
        return Sub().apply((self, rhs))[0]
    kind, rhs = _prepare(self, rhs)
    if kind == 2:
        return AddConstant(-rhs).apply((self,))[0]
    return Sub().apply((self, rhs))[0]


def rsub(self, rhs):  # rhs - lhs
    kind, rhs = _prepare(self, rhs)
    if kind == 2:
        return SubFromConstant(rhs).apply((self,))[0]
    return Sub().apply((rhs, self))[0]


def mul(self, rhs):  # lhs * rhs
    if type(rhs) in _scalar_types:
        return MulConstant(rhs).apply((self,))[0]
    if isinstance(rhs, Variable):
        return Mul().apply((self, rhs))[0]
    kind, rhs = _prepare(self, rhs)
    if kind == 2:
        return MulConstant(rhs).apply((self,))[0]
    return Mul().apply((self, rhs))[0]


def div(self, rhs):  # lhs / rhs
    kind, rhs = _prepare(self, rhs)
    if kind == 2:
        # (an integer x takes 1 / rhs cast to its dtype, as in Chainer;
        # a NumPy scalar's reciprocal in float64, as NumPy 1 computed it)
        if isinstance(rhs, numpy.generic):
            rhs = rhs.item()
        return MulConstant(1. / rhs).apply((self,))[0]
    return Div().apply((self, rhs))[0]


def rdiv(self, rhs):  # rhs / lhs
    kind, rhs = _prepare(self, rhs)
    if kind == 2:
        return DivFromConstant(rhs).apply((self,))[0]
    return Div().apply((rhs, self))[0]


def _no_grad(array):
    if isinstance(array, numpy.generic):
        array = numpy.asarray(array)
    return _new_variable(array, False)


def floordiv(self, rhs):  # lhs // rhs
    # Floor division is piecewise constant: its gradient is zero almost
    # everywhere, so (as in Chainer) no graph is recorded.  An integer x
    # is divided as Chainer's x / rhs (then floored): by a constant, times
    # 1 / rhs cast to its dtype; by an array, not at all.
    kind, rhs = _prepare(self, rhs)
    if self.dtype.kind != 'f':
        if kind == 2:
            return _no_grad(self.array * _const(self.array, 1. / rhs))
        Div().apply((self, rhs))  # Chainer's error for an integer lhs
    if kind == 2:
        return _no_grad(self.xp.floor_divide(self.array, rhs))
    # Chainer divides first: its checks of the dtypes and shapes
    rhs = rhs.array if kind == 0 else rhs
    return _no_grad(_binary(Div(), self.array, rhs, self.xp.floor_divide))


def rfloordiv(self, rhs):  # rhs // lhs
    kind, rhs = _prepare(self, rhs)
    if self.dtype.kind != 'f':  # Chainer's error for rhs / an integer x
        if kind == 2:
            DivFromConstant(rhs).apply((self,))
        else:
            Div().apply((rhs, self))
    if kind == 2:
        return _no_grad(self.xp.floor_divide(rhs, self.array))
    rhs = rhs.array if kind == 0 else rhs
    return _no_grad(_binary(Div(), rhs, self.array, self.xp.floor_divide))


def pow(self, rhs):  # lhs ** rhs
    if type(rhs) in _scalar_types:
        return PowVarConst(rhs).apply((self,))[0]
    if isinstance(rhs, Variable):
        return PowVarVar().apply((self, rhs))[0]
    kind, rhs = _prepare(self, rhs)
    if kind == 2:
        return PowVarConst(rhs).apply((self,))[0]
    return PowVarVar().apply((self, rhs))[0]


def rpow(self, rhs):  # rhs ** lhs
    kind, rhs = _prepare(self, rhs)
    if kind == 2:
        return PowConstVar(rhs).apply((self,))[0]
    return PowVarVar().apply((rhs, self))[0]


def matmul(self, rhs):  # lhs @ rhs
    if isinstance(rhs, Variable):
        # Straight to the node (a plain MatMul's options are its class
        # attributes, so it needs no __init__): the per-layer path.
        return _object_new(MatMul).apply((self, rhs))[0]
    kind, rhs = _prepare(self, rhs)
    if kind == 2:
        raise TypeError('matmul: a scalar operand is not allowed, use *')
    return _matmul(self, rhs)


def rmatmul(self, rhs):  # rhs @ lhs
    kind, rhs = _prepare(self, rhs)
    if kind == 2:
        raise TypeError('matmul: a scalar operand is not allowed, use *')
    return _matmul(rhs, self)


def install_variable_arithmetics():
    """Installs the arithmetic operators on :class:`~chainer.Variable`."""
    Variable.__neg__ = neg
    Variable.__abs__ = absolute
    Variable.__add__ = add_
    Variable.__radd__ = add_
    Variable.__sub__ = sub
    Variable.__rsub__ = rsub
    Variable.__mul__ = mul
    Variable.__rmul__ = mul
    Variable.__div__ = div
    Variable.__truediv__ = div
    Variable.__rdiv__ = rdiv
    Variable.__rtruediv__ = rdiv
    Variable.__floordiv__ = floordiv
    Variable.__rfloordiv__ = rfloordiv
    Variable.__pow__ = pow
    Variable.__rpow__ = rpow
    Variable.__matmul__ = matmul
    Variable.__rmatmul__ = rmatmul
