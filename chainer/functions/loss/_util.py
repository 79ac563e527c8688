"""Private helpers shared by the loss functions.

Small differentiable ops (stable sigmoid, softplus, softmax, a relu built
from a constant mask, a concat along axis 0) and argument checks.  They
exist here so the losses do not depend on the activation family.
"""

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.variable import Variable


def as_array(x):
    return x.array if isinstance(x, Variable) else x


def check_reduce(func, reduce, valid=('mean', 'no')):
    # Chainer's exact text (``func`` is unused there; Huber and
    # cross-covariance capitalise the first word).
    if reduce not in valid:
        names = [repr(v) for v in valid]
        names = ', '.join(names[:-1]) + ' and ' + names[-1]
        first = 'Only' if func in ('huber_loss', 'cross_covariance') else 'only'
        from chainer.functions._errors import chainer_text
        raise chainer_text(ValueError(
            '{} {} are valid for \'reduce\', but {!r} is given'.format(
                first, names, reduce)))


def check_int_labels(func, t, name='t'):
    from chainer.functions._errors import invalid_type
    if t.dtype.kind not in 'iu':
        raise invalid_type(func, '{}.dtype.kind == i'.format(name),
                           '{} != i'.format(t.dtype.kind))


def stable_sigmoid(xp, x):
    # tanh form: no overflow for any |x|.
    return xp.tanh(x * 0.5) * 0.5 + 0.5


def stable_softplus(xp, x):
    # log(1 + exp(x)) = max(x, 0) + log1p(exp(-|x|)), finite for any x.
    return xp.maximum(x, 0) + xp.log1p(xp.exp(-abs(x)))


def log_softmax_array(xp, x, axis=1):
    """``x - logsumexp(x, axis)`` shifted by the max, so finite for large
    logits."""
    from chainer.functions.activation.log_softmax import _log_softmax
    return _log_softmax(x, axis, xp)


class _Sigmoid(FunctionNode):

    @property
    def label(self):
        return 'Sigmoid'

    def forward(self, inputs):
        x, = inputs
        self.retain_outputs((0,))
        return stable_sigmoid(backend.get_array_module(x), x),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return grad_outputs[0] * y * (1 - y),


def sigmoid(x):
    return _Sigmoid().apply((x,))[0]


def softplus(x):
    # F.softplus itself (its gradient rounds as Chainer's does)
    from chainer.functions.activation.softplus import softplus as _softplus
    return _softplus(x)


class _Softmax(FunctionNode):

    def __init__(self, axis=1):
        self.axis = axis

    @property
    def label(self):
        return 'Softmax'

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        self.retain_outputs((0,))
        return xp.exp(log_softmax_array(xp, x, self.axis)),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.math.sum import sum as _sum
        y, = self.get_retained_outputs()
        gy, = grad_outputs
        gx = y * gy
        return gx - y * _sum(gx, axis=self.axis, keepdims=True),


def softmax(x, axis=1):
    return _Softmax(axis).apply((x,))[0]


def relu(x):
    """``max(x, 0)`` as ``x * mask``: the mask is a constant, so the
    gradient (and every higher one) is exact away from 0."""
    a = as_array(x)
    return x * (a > 0).astype(a.dtype)


class _Concat0(FunctionNode):
    """Concatenation along axis 0 (for per-sequence losses)."""

    @property
    def label(self):
        return 'Concat'

    def forward(self, xs):
        xp = backend.get_array_module(*xs)
        self._sizes = [x.shape[0] for x in xs]
        return xp.concatenate(xs, axis=0),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        bounds = numpy.cumsum([0] + self._sizes)
        return tuple(gy[int(bounds[i]):int(bounds[i + 1])] for i in indexes)


def concat0(xs):
    if len(xs) == 1:
        return xs[0]
    return _Concat0().apply(tuple(xs))[0]


def check_pair(func, x0, x1, names=('x0', 'x1')):
    """Chainer's checks of two same-shaped float operands."""
    from chainer.functions._errors import check_same_dtype, invalid_type
    a, b = names
    if x0.dtype.kind != 'f':
        raise invalid_type(func, '{}.dtype.kind == f'.format(a),
                           '{} != f'.format(x0.dtype.kind))
    # (a type check: with type_check off, mixed dtypes compute promoted)
    check_same_dtype(func, x0, x1, (a, b))
    if x0.shape != x1.shape:
        raise invalid_type(func, '{}.shape == {}.shape'.format(a, b),
                           '{} != {}'.format(x0.shape, x1.shape))


def expand_gy(gy, axis=1):
    """``gy`` with a length-1 axis inserted, to broadcast over it."""
    from chainer.functions.array.reshape import reshape
    return reshape(gy, gy.shape[:axis] + (1,) + gy.shape[axis:])


def check_label_range(func, t, n, ignore_label=None):
    """IndexError naming the first label outside ``[0, n)`` (CPU only: on
    GPU the check costs a device sync, so it runs in debug mode only)."""
    import chainer
    xp = backend.get_array_module(t)
    if t.size == 0 or (xp is not numpy and not chainer.config.debug):
        return
    bad = (t < 0) | (t >= n)
    if ignore_label is not None:
        bad &= t != ignore_label
    if bad.any():
        where = tuple(int(i[0]) for i in xp.nonzero(bad))
        label = func if isinstance(func, str) else func.label
        from chainer.functions._errors import LabelRangeError
        raise LabelRangeError(
            '{}: label {} at t[{}] is out of range: labels must be in '
            '[0, {}){}'.format(
                label, int(t[where]), ', '.join(map(str, where)), n,
                '' if ignore_label is None else
                ' or equal ignore_label ({})'.format(ignore_label)))
