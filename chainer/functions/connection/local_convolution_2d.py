"""``F.local_convolution_2d``: a convolution with a separate filter at each
output position (unshared weights).

``y[n, o, i, j] = sum_{c, ky, kx} W[o, i, j, c, ky, kx]
x[n, c, i * sy + ky, j * sx + kx] (+ b[o, i, j])``: the im2col view of
``x`` and one matmul per output position, batched over the positions.
"""

import chainer
from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import invalid_type, names_bad_arguments
from chainer.utils.conv_nd import as_tuple, conv_outs, im2col_view


class LocalConvolution2DFunction(FunctionNode):
    """Local convolution of ``(x, W[, b])``."""

    def __init__(self, stride=1):
        self.sy, self.sx = as_tuple(stride, 2)

    def _check(self, inputs):
        x, W = inputs[:2]
        for name, a, nd in (('x', x, 4), ('W', W, 6)):
            if a.dtype.kind != 'f':
                raise invalid_type(self, '{}.dtype.kind == f'.format(name),
                                   '{} != f'.format(a.dtype.kind))
            if a.ndim != nd:
                raise invalid_type(self, '{}.ndim == {}'.format(name, nd),
                                   '{} != {}'.format(a.ndim, nd))
        if x.shape[1] != W.shape[3]:
            raise invalid_type(self, 'x.shape[1] == W.shape[3]',
                               '{} != {}'.format(x.shape[1], W.shape[3]))
        outs = conv_outs(x.shape[2:], W.shape[4:], (self.sy, self.sx),
                         (0, 0))
        if outs != W.shape[1:3]:
            raise invalid_type(
                self, 'W.shape[1:3] == output size {}'.format(outs),
                'W.shape[1:3] = {} (input {}, kernel {}, stride {})'.format(
                    W.shape[1:3], x.shape[2:], W.shape[4:],
                    (self.sy, self.sx)))
        if len(inputs) == 3:
            b = inputs[2]
            if b.dtype != x.dtype:
                raise invalid_type(self, 'b.dtype == x.dtype',
                                   '{} != {}'.format(b.dtype, x.dtype))
            if b.shape != W.shape[:3]:
                raise invalid_type(self, 'b.shape == W.shape[:3]',
                                   '{} != {}'.format(b.shape, W.shape[:3]))

    def forward(self, inputs):
        self._check(inputs)
        self.retain_inputs((0, 1))
        x, W = inputs[:2]
        xp = backend.get_array_module(x)
        n = x.shape[0]
        out_c, oh, ow = W.shape[:3]
        K = W.shape[3] * W.shape[4] * W.shape[5]
        col = im2col_view(x, W.shape[4:], (self.sy, self.sx), (0, 0))
        # (oh * ow, n, c * kh * kw) @ (oh * ow, c * kh * kw, out_c)
        col = col.transpose(4, 5, 0, 1, 2, 3).reshape(oh * ow, n, K)
        Wt = W.astype(x.dtype, copy=False).transpose(1, 2, 3, 4, 5, 0)
        y = xp.matmul(col, Wt.reshape(oh * ow, K, out_c))
        y = y.reshape(oh, ow, n, out_c).transpose(2, 3, 0, 1)
        if len(inputs) == 3:
            y = y + inputs[2]
        return xp.ascontiguousarray(y),

    def backward(self, indexes, grad_outputs):
        from chainer import functions as F
        from chainer.functions.array.im2col import Im2Col, Im2ColGrad
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        n, c = x.shape[:2]
        out_c, oh, ow = W.shape[:3]
        kh, kw = W.shape[4:]
        P = oh * ow
        if n == 0:   # F.im2col cannot reshape an empty batch
            xp = backend.get_array_module(gy)
            zeros = {0: x, 1: W, 2: None}
            return [F.sum(gy, axis=0) if i == 2 else
                    chainer.Variable(xp.zeros(zeros[i].shape,
                                              zeros[i].dtype))
                    for i in indexes]
        gyT = F.reshape(F.transpose(gy, (2, 3, 0, 1)), (P, n, out_c))
        ret = []
        if 0 in indexes:
            Wt = F.reshape(F.transpose(W, (1, 2, 0, 3, 4, 5)),
                           (P, out_c, c * kh * kw))
            gcol = F.reshape(F.matmul(gyT, Wt), (oh, ow, n, c * kh * kw))
            gcol = F.transpose(gcol, (2, 3, 0, 1))
            im2col = Im2Col((kh, kw), (self.sy, self.sx), 0, False, 1)
            im2col._in_shape = x.shape
            ret.append(Im2ColGrad(im2col).apply((gcol,))[0])
        if 1 in indexes:
            col = F.im2col(x, (kh, kw), (self.sy, self.sx))
            col = F.reshape(F.transpose(col, (2, 3, 0, 1)),
                            (P, n, c * kh * kw))
            gW = F.reshape(F.matmul(gyT, col, transa=True),
                           (oh, ow, out_c, c, kh, kw))
            ret.append(F.transpose(gW, (2, 0, 1, 3, 4, 5)))
        if 2 in indexes:
            ret.append(F.sum(gy, axis=0))
        return ret


@names_bad_arguments
def local_convolution_2d(x, W, b=None, stride=1):
    """Two-dimensional local convolution function.

    A convolution without weight sharing: every output position ``(i, j)``
    has its own filter ``W[:, i, j]``,

    .. math::

        y_{n,o,i,j} = \\sum_{c,k_y,k_x} W_{o,i,j,c,k_y,k_x}
            x_{n,c,i s_Y + k_y,j s_X + k_x} + b_{o,i,j}.

    There is no padding; ``W``'s output size ``(h_O, w_O)`` must be
    ``((h - kh) // s_Y + 1, (w - kw) // s_X + 1)``.

    Args:
        x (~chainer.Variable or array): Input ``(n, c_I, h, w)``.
        W (~chainer.Variable or array): Weights
            ``(c_O, h_O, w_O, c_I, kh, kw)``.
        b (~chainer.Variable or array): Bias ``(c_O, h_O, w_O)``
            (optional).
        stride (int or pair of ints): Stride ``(s_Y, s_X)``.

    Returns:
        ~chainer.Variable: Output ``(n, c_O, h_O, w_O)``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.ones((1, 3, 5, 5), np.float32)
    >>> W = np.ones((2, 3, 3, 3, 3, 3), np.float32)
    >>> F.local_convolution_2d(x, W).shape
    (1, 2, 3, 3)
    """
    func = LocalConvolution2DFunction(stride)
    args = (x, W) if b is None else (x, W, b)
    return func.apply(args)[0]
