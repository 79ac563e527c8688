"""Converters of the activation functions."""

import numpy

from onnx_chainer.functions._base import converts


@converts('ReLU')
def relu(p, g):
    g.out('Relu', [p.x])


@converts('Sigmoid')
def sigmoid(p, g):
    g.out('Sigmoid', [p.x])


@converts('Tanh')
def tanh(p, g):
    g.out('Tanh', [p.x])


@converts('LeakyReLU')
def leaky_relu(p, g):
    g.out('LeakyRelu', [p.x], alpha=float(p.func.slope))


@converts('ELU')
def elu(p, g):
    g.out('Elu', [p.x], alpha=float(p.func.alpha))


@converts('HardSigmoid')
def hard_sigmoid(p, g):
    # Chainer's is clip(0.2 x + 0.5, 0, 1): ONNX's defaults.
    g.out('HardSigmoid', [p.x], alpha=0.2, beta=0.5)


@converts('ClippedReLU')
def clipped_relu(p, g):
    g.clip(p.x, 0, p.func.cap, p.dtype, out=True)


def _softmax(op_type, p, g):
    ndim = len(p.in_shapes[0])
    axis = p.func.axis % ndim
    if g.opset >= 13 or axis == ndim - 1:
        return g.out(op_type, [p.x], axis=axis)
    # Before opset 13 the op normalizes over all the axes from ``axis`` on,
    # so the axis goes last and comes back.
    perm = [i for i in range(ndim) if i != axis] + [axis]
    back = list(numpy.argsort(perm))
    y = g.emit(op_type, [g.transpose(p.x, perm)], axis=ndim - 1)
    g.transpose(y, back, out=True)


@converts('Softmax')
def softmax(p, g):
    _softmax('Softmax', p, g)


@converts('LogSoftmax')
def log_softmax(p, g):
    _softmax('LogSoftmax', p, g)


@converts('Softplus')
def softplus(p, g):
    beta = float(p.func.beta)
    if beta == 1:
        return g.out('Softplus', [p.x])
    # log(1 + exp(beta x)) / beta
    y = g.emit('Softplus', [g.emit('Mul', [p.x, g.scalar(beta, p.dtype)])])
    g.out('Div', [y, g.scalar(beta, p.dtype)])


def _along_axis1(p, g, w):
    # A weight of shape x.shape[1:1 + w.ndim], made to broadcast against x.
    x_ndim, w_shape = len(p.in_shapes[0]), p.in_shapes[1]
    shape = tuple(w_shape) + (1,) * (x_ndim - 1 - len(w_shape))
    return w if len(shape) == len(w_shape) else g.reshape(w, shape)


@converts('PReLUFunction', inputs=('x', 'W'))
def prelu(p, g):
    g.out('PRelu', [p.x, _along_axis1(p, g, p.input_names[1])])


@converts('RReLU')
def rrelu(p, g):
    # The slopes drawn in the forward (their mean in test mode) are constant.
    r = numpy.asarray(p.func.r, dtype=p.dtype)
    g.out('PRelu', [p.x, g.const(r)])


@converts('Swish', inputs=('x', 'beta'))
def swish(p, g):
    beta = _along_axis1(p, g, p.input_names[1])
    s = g.emit('Sigmoid', [g.emit('Mul', [p.x, beta])])
    g.out('Mul', [p.x, s])


@converts('CReLU')
def crelu(p, g):
    pos = g.emit('Relu', [p.x])
    neg = g.emit('Relu', [g.emit('Neg', [p.x])])
    g.out('Concat', [pos, neg], axis=p.func.axis % len(p.in_shapes[0]))


