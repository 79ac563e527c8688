"""Converters of the loss functions."""

from onnx_chainer import onnx_helper
from onnx_chainer.functions._base import converts, unsupported


@converts('SoftmaxCrossEntropy', inputs=('x', 't'))
def softmax_cross_entropy(p, g):
    """``-log softmax(x)[t]`` over the class axis 1, with ``ignore_label``
    left out, ``class_weight``, and ``reduce='mean'`` dividing by the count
    of labels (``normalize``) or by the batch size."""
    f = p.func
    if getattr(f, 'soft_target', False):
        raise unsupported(p, 'soft targets')
    x, t = p.input_names
    shape, dtype = p.in_shapes[0], p.dtype
    ndim, n_class = len(shape), shape[1]
    if g.opset >= 13 or ndim == 2:
        log_y = g.emit('LogSoftmax', [x], axis=1)
    else:
        perm = [0] + list(range(2, ndim)) + [1]
        back = [0, ndim - 1] + list(range(1, ndim - 1))
        log_y = g.transpose(g.emit('LogSoftmax', [g.transpose(x, perm)],
                                   axis=ndim - 1), back)
    onehot = g.onehot(t, p.in_shapes[1], p.in_dtypes[1], n_class, dtype)
    if f.class_weight is not None:
        w = onnx_helper.to_numpy(f.class_weight).astype(dtype)
        w = w.reshape((n_class,) + (1,) * (ndim - 2))
        onehot = g.emit('Mul', [onehot, g.const(w)])
    # (an ignored label, out of the classes, picks nothing)
    loss = g.emit('Neg', [g.reduce('ReduceSum', g.emit('Mul', [
        log_y, onehot]), [1], False)])
    if f.reduce == 'no':
        return g.emit('Identity', [loss], out=True)
    total = g.reduce('ReduceSum', loss, None, False)
    if f.normalize:
        valid = g.emit('Not', [g.emit('Equal', [t, g.scalar(
            f.ignore_label, p.in_dtypes[1])])])
        valid = g.cast(valid, dtype)
        count = g.reduce('ReduceSum', valid, None, False)
        count = g.emit('Max', [count, g.scalar(1, dtype)])
    else:
        count = g.scalar(shape[0], dtype)
    g.out('Div', [total, count])


def _error(p, g, square):
    d = g.emit('Sub', p.input_names)
    return g.emit('Mul', [d, d]) if square else g.emit('Abs', [d])


@converts('SquaredError')
def squared_error(p, g):
    g.emit('Identity', [_error(p, g, True)], out=True)


@converts('AbsoluteError')
def absolute_error(p, g):
    g.emit('Identity', [_error(p, g, False)], out=True)


@converts('MeanSquaredError')
def mean_squared_error(p, g):
    g.reduce('ReduceMean', _error(p, g, True), None, False, out=True)


@converts('MeanAbsoluteError')
def mean_absolute_error(p, g):
    g.reduce('ReduceMean', _error(p, g, False), None, False, out=True)
