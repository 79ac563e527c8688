"""``F.lstm``: the LSTM cell as an activation function.

The ``4 * units`` channels of ``x`` interleave the gates: viewed as
``(batch, units, 4, ...)``, the last-but-one axis holds the cell input
``a``, and the input, forget and output gates ``i``, ``f``, ``o`` (the
layout of Chainer, so weights trained with it give the same numbers).
"""

import chainer
from chainer import backend
from chainer.backends import cuda
from chainer.function_node import FunctionNode
from chainer.functions._errors import check_same_dtype, invalid_type
from chainer.utils.array import size_of_shape


def _sigmoid(xp, x):
    return xp.tanh(x * 0.5) * 0.5 + 0.5  # no overflow for large |x|


# On CuPy a step is one kernel each way, as the NumPy path's arithmetic
# (in float32 for float16, in float64 for float64): the gates of cell item
# (b, u, r) sit at x[((b U + u) 4 + k) R + r] for k = a, i, f, o (R: the
# items of the trailing axes); the backward recomputes them from x.
_CELL = '''
    const ptrdiff_t base = (i / R) * 4 * R + i % R;
    const CT a = tanh((CT)x[base]);
    const CT ig = tanh((CT)x[base + R] * (CT)0.5) * (CT)0.5 + (CT)0.5;
    const CT fg = tanh((CT)x[base + 2 * R] * (CT)0.5) * (CT)0.5 + (CT)0.5;
    const CT og = tanh((CT)x[base + 3 * R] * (CT)0.5) * (CT)0.5 + (CT)0.5;
    const T c_t = (T)(a * ig + fg * (CT)c_prev);
    const CT tc = tanh((CT)c_t);
'''
_FORWARD = _CELL + '''
    c = c_t;
    h = (T)(og * tc);
'''
_BACKWARD = _CELL + '''
    const CT gt = (CT)gc + (CT)gh * og * ((CT)1 - tc * tc);
    gc_prev = (T)(gt * fg);
    gx[base] = (T)(gt * ig * ((CT)1 - a * a));
    gx[base + R] = (T)(gt * a * (ig * ((CT)1 - ig)));
    gx[base + 2 * R] = (T)(gt * (CT)c_prev * (fg * ((CT)1 - fg)));
    gx[base + 3 * R] = (T)((CT)gh * tc * (og * ((CT)1 - og)));
'''


def _cell_kernel(backward, dtype):
    ct = 'double' if dtype == 'float64' else 'float'
    if backward:
        return cuda.elementwise(
            'raw T x, T c_prev, T gc, T gh, int64 R', 'T gc_prev, raw T gx',
            _BACKWARD.replace('CT', ct), 'chainer_lstm_bwd_' + ct)
    return cuda.elementwise(
        'raw T x, T c_prev, int64 R', 'T c, T h',
        _FORWARD.replace('CT', ct), 'chainer_lstm_fwd_' + ct)


def _gates(x, n_gates):
    """The interleaved gates of ``x``: ``(B, U * n, ...)`` viewed as
    ``(B, U, n, ...)``, split on that axis (arrays or Variables)."""
    r = x.reshape((x.shape[0], x.shape[1] // n_gates, n_gates) + x.shape[2:])
    return [r[:, :, k] for k in range(n_gates)]


def _join_gates(gs, x_shape):
    """The inverse of ``_gates`` for gradients (Variables or arrays)."""
    from chainer.functions.array.reshape import reshape
    from chainer.functions.array.stack import stack
    return reshape(stack(gs, axis=2), x_shape)


def _check_cell(func, c, x, n_gates, c_name='c', x_name='x'):
    if x.dtype.kind != 'f':
        raise invalid_type(func, '{}.dtype.kind == f'.format(x_name),
                           '{} != f'.format(x.dtype.kind))
    check_same_dtype(func, x, c, (x_name, c_name))
    if x.ndim < 2 or c.ndim != x.ndim:
        raise invalid_type(func, '{}.ndim == {}.ndim >= 2'.format(
            c_name, x_name), '{}.ndim = {}, {}.ndim = {}'.format(
                c_name, c.ndim, x_name, x.ndim))
    if x.shape[1] != n_gates * c.shape[1]:
        raise invalid_type(func, '{}.shape[1] == {} * {}.shape[1]'.format(
            x_name, n_gates, c_name), '{} != {}'.format(
                x.shape[1], n_gates * c.shape[1]))
    if x.shape[2:] != c.shape[2:]:
        raise invalid_type(func, '{}.shape[2:] == {}.shape[2:]'.format(
            x_name, c_name), '{} != {}'.format(x.shape[2:], c.shape[2:]))


def _lstm_grads(a, i, f, o, c_prev, tanh_c, gc, gh):
    """The gradients of one LSTM step, in plain arithmetic (so on arrays
    or on Variables): the cell's and those of the pre-activation gates."""
    gc_total = gc
    if gh is not None:
        gc_h = gh * o * (1 - tanh_c * tanh_c)
        gc_total = gc_h if gc_total is None else gc_total + gc_h
        go = gh * tanh_c * (o * (1 - o))
    else:
        go = o * 0
    # The sigmoid slopes s * (1 - s) are formed first, as in Chainer (the
    # float32 rounding follows its order)
    ga = gc_total * i * (1 - a * a)
    gi = gc_total * a * (i * (1 - i))
    gf = gc_total * c_prev * (f * (1 - f))
    return gc_total * f, (ga, gi, gf, go)


class LSTM(FunctionNode):
    """LSTM unit: ``(c_prev, x) -> (c, h)``."""

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        c_prev, x = inputs
        _check_cell(self, c_prev, x, 4)
        b = len(x)
        if b > len(c_prev):
            raise invalid_type(self, 'x.shape[0] <= c.shape[0]',
                               '{} > {}'.format(b, len(c_prev)))
        xp = backend.get_array_module(x)
        if xp is cuda.cupy and x.dtype == c_prev.dtype:
            self._cache = None
            c, h = _cell_kernel(False, x.dtype.name)(
                xp.ascontiguousarray(x), c_prev[:b], size_of_shape(x.shape[2:]))
            if b < len(c_prev):
                c = xp.concatenate([c, c_prev[b:]], axis=0)
            return c, h
        a, i, f, o = _gates(x, 4)
        a = xp.tanh(a)
        i, f, o = _sigmoid(xp, i), _sigmoid(xp, f), _sigmoid(xp, o)
        # (the cell keeps c_prev's dtype also for another x's, with
        # type_check off)
        c = (a * i + f * c_prev[:b]).astype(c_prev.dtype, copy=False)
        tanh_c = xp.tanh(c)
        h = o * tanh_c
        self._cache = (a, i, f, o, tanh_c)
        if b < len(c_prev):
            c = xp.concatenate([c, c_prev[b:]], axis=0)
        return c, h

    def backward(self, indexes, grad_outputs):
        c_prev, x = self.get_retained_inputs()
        gc, gh = grad_outputs
        b, n = len(x), len(c_prev)
        if chainer.config.enable_backprop:
            return _backward_graph(indexes, c_prev, x, gc, gh)
        # First order only: plain array work with the forward's gates.
        xp = backend.get_array_module(x.array)
        gc = None if gc is None else gc.array
        gh = None if gh is None else gh.array
        if self._cache is None:  # CuPy: one kernel
            x_a, cp = xp.ascontiguousarray(x.array), c_prev.array[:b]
            gx, gc_prev = xp.empty_like(x_a), xp.empty_like(cp)
            _cell_kernel(True, x.dtype.name)(
                x_a, cp, xp.zeros_like(cp) if gc is None else gc[:b],
                xp.zeros_like(cp) if gh is None else gh, size_of_shape(x_a.shape[2:]),
                gc_prev, gx)
            g_gates = None
        else:
            a, i, f, o, tanh_c = self._cache
            gc_prev, g_gates = _lstm_grads(
                a, i, f, o, c_prev.array[:b], tanh_c,
                None if gc is None else gc[:b], gh)
        ret = []
        if 0 in indexes:
            if b < n:
                rest = gc[b:] if gc is not None else \
                    xp.zeros_like(c_prev.array[b:])
                gc_prev = xp.concatenate([gc_prev, rest], axis=0)
            ret.append(chainer.Variable(gc_prev))
        if 1 in indexes:
            ret.append(chainer.Variable(
                gx if g_gates is None else
                xp.stack(g_gates, axis=2).reshape(x.shape)))
        return tuple(ret)


def _backward_graph(indexes, c_prev, x, gc, gh):
    """The gradient built from F ops, with the gates recomputed as
    functions of x, so it can be differentiated again."""
    from chainer.functions.activation.sigmoid import sigmoid
    from chainer.functions.activation.tanh import tanh
    from chainer.functions.array.concat import concat
    b, n = len(x), len(c_prev)
    c_prev_b = c_prev[:b] if b < n else c_prev
    a, i, f, o = _gates(x, 4)
    a, i, f, o = tanh(a), sigmoid(i), sigmoid(f), sigmoid(o)
    tanh_c = tanh(a * i + f * c_prev_b)
    gc_b = gc[:b] if gc is not None and b < n else gc
    gc_prev, g_gates = _lstm_grads(a, i, f, o, c_prev_b, tanh_c, gc_b, gh)
    ret = []
    if 0 in indexes:
        if b < n:
            rest = gc[b:] if gc is not None else \
                c_prev.xp.zeros_like(c_prev.array[b:])
            gc_prev = concat([gc_prev, rest], axis=0)
        ret.append(gc_prev)
    if 1 in indexes:
        ret.append(_join_gates(g_gates, x.shape))
    return tuple(ret)


def lstm(c_prev, x):
    """Long Short-Term Memory units as an activation function.

    With the gates ``a, i, f, o`` taken from ``x`` (see below),
    ``c = tanh(a) * sigmoid(i) + sigmoid(f) * c_prev`` and
    ``h = sigmoid(o) * tanh(c)``.

    ``x`` has ``4 * units`` channels, interleaved: reshaped to
    ``(batch, units, 4, ...)``, index 0, 1, 2, 3 of the third axis are
    ``a, i, f, o``. ``x`` may have fewer rows than ``c_prev`` (sequences
    of a shrinking batch): the remaining rows of ``c_prev`` are passed to
    ``c`` unchanged, and ``h`` has the rows of ``x``.

    Args:
        c_prev (~chainer.Variable or array): The previous cell state,
            ``(B, units, ...)``.
        x (~chainer.Variable or array): The gate inputs,
            ``(b, 4 * units, ...)``, ``b <= B``.

    Returns:
        tuple: ``(c, h)``, the new cell state ``(B, units, ...)`` and the
        output ``(b, units, ...)``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> c = np.zeros((1, 1), np.float32)
    >>> x = np.array([[0., 100., 0., 100.]], np.float32)  # a, i, f, o
    >>> c, h = F.lstm(c, x)
    >>> c.array, h.array
    (array([[0.]], dtype=float32), array([[0.]], dtype=float32))
    """
    return LSTM().apply((c_prev, x))


def _lstm_grad_graph(c_prev, x, c_next, gc, gh):
    """LSTMGrad's outputs built from F ops (or, on arrays, plain
    arithmetic): the gradients of one LSTM step given the step's output
    cell ``c_next``."""
    from chainer.functions.array.concat import concat
    b, n = len(x), len(c_prev)
    is_var = isinstance(x, chainer.Variable)
    if is_var:
        from chainer.functions.activation.sigmoid import sigmoid
        from chainer.functions.activation.tanh import tanh
    else:
        xp = backend.get_array_module(x)
        tanh = xp.tanh

        def sigmoid(v):
            return _sigmoid(xp, v)
    a, i, f, o = _gates(x, 4)
    a, i, f, o = tanh(a), sigmoid(i), sigmoid(f), sigmoid(o)
    tanh_c = tanh(c_next[:b])
    gc_prev, g_gates = _lstm_grads(a, i, f, o, c_prev[:b], tanh_c, gc[:b],
                                   gh)
    if b < n:
        if is_var:
            gc_prev = concat([gc_prev, gc[b:]], axis=0)
        else:
            gc_prev = xp.concatenate([gc_prev, gc[b:]], axis=0)
    if is_var:
        gx = _join_gates(g_gates, x.shape)
    else:
        gx = xp.stack(g_gates, axis=2).reshape(x.shape)
    return gc_prev, gx


class _GradNode(chainer.Function):
    """A legacy Function (as Chainer's are) computing gradients of a step
    on arrays; its own backward differentiates the same computation built
    from F ops."""

    _graph = None  # (inputs...) -> outputs, on arrays or on Variables

    def forward(self, inputs):
        return tuple(type(self)._graph(*inputs))

    def backward(self, inputs, grad_outputs):
        xs = [chainer.Variable(x) for x in inputs]
        with chainer.force_backprop_mode():
            outs = type(self)._graph(*xs)
        pairs = [(y, g) for y, g in zip(outs, grad_outputs) if g is not None]
        if not pairs:
            return (None,) * len(inputs)
        gxs = chainer.grad([y for y, _ in pairs], xs,
                           [chainer.Variable(g) for _, g in pairs])
        return tuple(None if g is None else g.array for g in gxs)


class LSTMGrad(_GradNode):
    """Chainer's function of the LSTM step's gradients: ``(c_prev, x,
    c_next, gc, gh) -> (gc_prev, gx)``, differentiable again."""

    _graph = staticmethod(_lstm_grad_graph)
