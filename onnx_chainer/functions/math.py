"""Converters of the math functions."""

import math

import numpy

from onnx_chainer import onnx_helper
from onnx_chainer.functions._base import converts, unsupported


def _const_like(p, g, value):
    # A constant operand, in the dtype of the function's output.
    return g.const(onnx_helper.to_numpy(value).astype(p.out_dtypes[0]))


def _operands(p, g):
    # Inputs in the output's dtype (x + 0.5 with x of ints gives floats).
    out = p.out_dtypes[0]
    return [x if d == out or out is None else g.cast(x, out)
            for x, d in zip(p.input_names, p.in_dtypes)]


def _binary(op_type):
    def impl(p, g):
        g.out(op_type, _operands(p, g))
    return impl


def _unary(op_type):
    def impl(p, g):
        g.out(op_type, [p.x])
    return impl


# x op y, and x op constant / constant op x
converts('Add')(_binary('Add'))
converts('Sub')(_binary('Sub'))
converts('Mul')(_binary('Mul'))
converts('Div')(_binary('Div'))
converts('PowVarVar')(_binary('Pow'))


@converts('AddConstant')
def add_constant(p, g):
    g.out('Add', _operands(p, g) + [_const_like(p, g, p.func.value)])


@converts('SubFromConstant')
def sub_from_constant(p, g):
    g.out('Sub', [_const_like(p, g, p.func.value)] + _operands(p, g))


@converts('MulConstant')
def mul_constant(p, g):
    g.out('Mul', _operands(p, g) + [_const_like(p, g, p.func.value)])


@converts('DivFromConstant')
def div_from_constant(p, g):
    g.out('Div', [_const_like(p, g, p.func.value)] + _operands(p, g))


@converts('PowVarConst')
def pow_var_const(p, g):
    g.out('Pow', _operands(p, g) + [_const_like(p, g, p.func.value)])


@converts('PowConstVar')
def pow_const_var(p, g):
    g.out('Pow', [_const_like(p, g, p.func.value)] + _operands(p, g))


@converts('MultiAdd')
def multi_add(p, g):
    g.out('Sum', _operands(p, g))


# elementwise
converts('Neg')(_unary('Neg'))
converts('Absolute')(_unary('Abs'))
converts('Exp')(_unary('Exp'))
converts('Log')(_unary('Log'))
converts('Sqrt')(_unary('Sqrt'))
converts('Sin')(_unary('Sin'))
converts('Cos')(_unary('Cos'))
converts('Tan')(_unary('Tan'))
converts('Arcsin')(_unary('Asin'))
converts('Arccos')(_unary('Acos'))
converts('Arctan')(_unary('Atan'))
converts('Sinh', since=9)(_unary('Sinh'))
converts('Cosh', since=9)(_unary('Cosh'))
converts('Arctanh', since=9)(_unary('Atanh'))
converts('Erf', since=9)(_unary('Erf'))


@converts('Square')
def square(p, g):
    g.out('Mul', [p.x, p.x])


def _log_base(base):
    def impl(p, g):
        g.out('Div', [g.emit('Log', [p.x]), g.scalar(math.log(base),
                                                     p.dtype)])
    return impl


converts('Log2')(_log_base(2))
converts('Log10')(_log_base(10))


@converts('Log1p')
def log1p(p, g):
    g.out('Log', [g.emit('Add', [p.x, g.scalar(1, p.dtype)])])


@converts('Expm1')
def expm1(p, g):
    g.out('Sub', [g.emit('Exp', [p.x]), g.scalar(1, p.dtype)])


@converts('Erfc', since=9)
def erfc(p, g):
    g.out('Sub', [g.scalar(1, p.dtype), g.emit('Erf', [p.x])])


@converts('Fmod', since=10)
def fmod(p, g):
    g.out('Mod', p.input_names, fmod=1)


@converts('Clip')
def clip(p, g):
    g.clip(p.x, p.func.x_min, p.func.x_max, p.dtype, out=True)


@converts('Maximum')
def maximum(p, g):
    if g.opset < 8 and p.in_shapes[0] != p.in_shapes[1]:
        raise unsupported(p, 'broadcasting Max needs opset 8')
    g.out('Max', p.input_names)


@converts('Minimum')
def minimum(p, g):
    if g.opset < 8 and p.in_shapes[0] != p.in_shapes[1]:
        raise unsupported(p, 'broadcasting Min needs opset 8')
    g.out('Min', p.input_names)


@converts('LinearInterpolate')
def linear_interpolate(p, g):
    # p x + (1 - p) y
    w, x, y = p.input_names
    px = g.emit('Mul', [w, x])
    qy = g.emit('Mul', [g.emit('Sub', [g.scalar(1, p.dtype), w]), y])
    g.out('Add', [px, qy])


# --- matrix products --------------------------------------------------------

def _transposed(g, x, ndim):
    # The last two axes swapped (a 1-d operand stays as it is).
    if ndim < 2:
        return x
    perm = list(range(ndim))
    perm[-2:] = perm[-1], perm[-2]
    return g.transpose(x, perm)


@converts('MatMul')
def matmul(p, g):
    a, b = p.input_names
    if getattr(p.func, 'transa', False):
        a = _transposed(g, a, len(p.in_shapes[0]))
    if getattr(p.func, 'transb', False):
        b = _transposed(g, b, len(p.in_shapes[1]))
    g.out('MatMul', [a, b])


@converts('BatchMatMul')
def batch_matmul(p, g):
    # Chainer's batch_matmul views each operand as (batch, n, -1).
    xs = []
    for x, shape, trans in zip(p.input_names, p.in_shapes,
                               (p.func.transa, p.func.transb)):
        if len(shape) != 3:
            x = g.reshape(x, tuple(shape[:2]) + (-1,))
        xs.append(_transposed(g, x, 3) if trans else x)
    g.out('MatMul', xs)


# --- reductions -------------------------------------------------------------

def _axes(p):
    axis = p.func.axis
    if axis is None:
        return None
    ndim = len(p.in_shapes[0])
    axis = (axis,) if isinstance(axis, int) else axis
    return sorted(a % ndim for a in axis)


def _reduction(op_type):
    def impl(p, g):
        keepdims = getattr(p.func, 'keepdims', False)
        g.reduce(op_type, p.x, _axes(p), keepdims, out=True)
    return impl


converts('Sum')(_reduction('ReduceSum'))
converts('Mean')(_reduction('ReduceMean'))
converts('Max')(_reduction('ReduceMax'))
converts('Min')(_reduction('ReduceMin'))
converts('Prod')(_reduction('ReduceProd'))
converts('LogSumExp')(_reduction('ReduceLogSumExp'))


def _arg_reduction(op_type):
    def impl(p, g):
        x, axis = p.x, p.func.axis
        if axis is None:
            x, axis = g.reshape(x, (-1,)), 0
        y = g.emit(op_type, [x], axis=axis % max(len(p.in_shapes[0]), 1),
                   keepdims=0)
        # ONNX gives int64, Chainer int32
        g.cast(y, p.out_dtypes[0] or numpy.int32, out=True)
    return impl


converts('ArgMax')(_arg_reduction('ArgMax'))
converts('ArgMin')(_arg_reduction('ArgMin'))


@converts('SumTo')
def sum_to(p, g):
    in_shape, shape = p.in_shapes[0], tuple(p.func._shape)
    lead = len(in_shape) - len(shape)
    axes = list(range(lead)) + [lead + i for i, d in enumerate(shape)
                                if d == 1 and in_shape[lead + i] != 1]
    if not axes:
        return g.out('Identity', [p.x])
    y = g.reduce('ReduceSum', p.x, axes, True)
    g.reshape(y, shape, out=True)


@converts('Cumsum', since=11)
def cumsum(p, g):
    x, axis = p.x, p.func.axis
    if axis is None:
        x, axis = g.reshape(x, (-1,)), 0
    axis %= max(len(p.in_shapes[0]), 1)
    g.out('CumSum', [x, g.scalar(axis, numpy.int64)])  # a 0-d axis


@converts('Arctan2', since=9, inputs=('x1', 'x2'))
def arctan2(p, g):
    """``atan(y / x)``, moved by pi to the left half-plane; on ``x = 0``
    the sign of ``y`` alone (signed zeros are not told apart: ``(0, -0)``
    gives 0, NumPy pi)."""
    y, x = p.input_names
    dtype = numpy.result_type(*p.in_dtypes)
    y, x = [g.cast(v, dtype) if d != dtype else v
            for v, d in zip((y, x), p.in_dtypes)]
    zero = g.scalar(0, dtype)
    pi = math.pi

    def is_zero(v):
        if g.opset >= 11:
            return g.emit('Equal', [v, zero])
        # (Equal takes floats from opset 11)
        return g.emit('Not', [g.emit('Or', [g.emit('Less', [v, zero]),
                                            g.emit('Greater', [v, zero])])])

    a = g.emit('Atan', [g.emit('Div', [y, x])])
    y_neg = g.emit('Less', [y, zero])
    shift = g.emit('Where', [y_neg, g.scalar(-pi, dtype), g.scalar(pi, dtype)])
    left = g.emit('Add', [a, shift])
    a = g.emit('Where', [g.emit('Less', [x, zero]), left, a])
    on_axis = g.emit('Where', [y_neg, g.scalar(-pi / 2, dtype),
                               g.scalar(pi / 2, dtype)])
    on_axis = g.emit('Where', [is_zero(y), zero, on_axis])
    g.out('Where', [is_zero(x), on_axis, a])


@converts('Cumprod')
def cumprod(p, g):
    """No ONNX op takes running products (exp of a CumSum of logs loses
    digits and zeros): the steps are multiplied one after another along
    the axis, as NumPy does, so the results are the same."""
    x, axis = p.x, p.func.axis
    shape = p.in_shapes[0]
    if axis is None:
        x, axis, shape = g.reshape(x, (-1,)), 0, (int(numpy.prod(shape)),)
    axis %= max(len(shape), 1)
    n = shape[axis] if shape else 1
    if n <= 1:
        return g.out('Identity', [x])
    parts = list(g.split(x, [1] * n, axis))
    for i in range(1, n):
        parts[i] = g.emit('Mul', [parts[i - 1], parts[i]])
    g.out('Concat', parts, axis=axis)


@converts('TensorDot', inputs=('a', 'b'))
def tensordot(p, g):
    """A MatMul of ``a`` (free axes first) and ``b`` (summed axes first),
    each flattened to a matrix."""
    f = p.func
    a, b = p.input_names
    a_shape, b_shape = p.in_shapes
    a_axes, b_axes = list(f._a_axes), list(f._b_axes)
    a_free = [i for i in range(len(a_shape)) if i not in a_axes]
    b_free = [i for i in range(len(b_shape)) if i not in b_axes]
    k = int(numpy.prod([a_shape[i] for i in a_axes]))
    if a_free + a_axes != sorted(a_free + a_axes):
        a = g.transpose(a, a_free + a_axes)
    if b_axes + b_free != sorted(b_axes + b_free):
        b = g.transpose(b, b_axes + b_free)
    a = g.reshape(a, (-1, k))
    b = g.reshape(b, (k, -1))
    out = tuple(a_shape[i] for i in a_free) + tuple(b_shape[i]
                                                    for i in b_free)
    g.reshape(g.emit('MatMul', [a, b]), out, out=True)


@converts('EinSum', since=12)
def einsum(p, g):
    f = p.func
    g.out('Einsum', p.input_names,
          equation='{}->{}'.format(f.in_subs, f.out_sub))
