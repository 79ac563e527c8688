"""Converters of the connection functions (convolutions, linear, embed)."""

from chainer.utils import get_conv_outsize, get_deconv_outsize
from onnx_chainer.functions._base import converts, unsupported


def window_pads(in_size, ksize, stride, pad, dilate, cover_all):
    """ONNX ``pads`` (begins, then ends) of a sliding window. With
    ``cover_all`` the output has one more step when the windows leave
    a remainder: the ends get the padding that takes (the least that
    gives Chainer's size)."""
    ends = list(pad)
    if cover_all:
        for i, (n, k, s, q, d) in enumerate(
                zip(in_size, ksize, stride, pad, dilate)):
            out = get_conv_outsize(n, k, s, q, cover_all=True, d=d)
            ends[i] = max(q, (out - 1) * s + (k - 1) * d + 1 - n - q)
    return list(pad) + ends


@converts('Convolution2DFunction', 'ConvolutionND', inputs=('x', 'W', 'b'))
def convolution(p, g):
    f = p.func
    ksize = p.in_shapes[1][2:]
    pads = window_pads(p.in_shapes[0][2:], ksize, f.stride, f.pad,
                       f.dilate, f.cover_all)
    g.out('Conv', p.input_names, kernel_shape=list(ksize),
          strides=list(f.stride), pads=pads, dilations=list(f.dilate),
          group=int(f.groups))


def transposed_window_pads(in_size, out_size, ksize, stride, pad, dilate):
    """``pads`` and ``output_padding`` of a ConvTranspose that gives
    ``out_size``: what the size differs from the plain one goes to the end
    padding (smaller) or the output padding (larger)."""
    ends, extra = list(pad), []
    for i, (n, m, k, s, q, d) in enumerate(
            zip(in_size, out_size, ksize, stride, pad, dilate)):
        plain = get_deconv_outsize(n, k, s, q, d=d)
        ends[i] += max(plain - m, 0)
        extra.append(max(m - plain, 0))
    return list(pad) + ends, extra


@converts('Deconvolution2DFunction', 'DeconvolutionND',
          inputs=('x', 'W', 'b'))
def deconvolution(p, g):
    f = p.func
    ksize = p.in_shapes[1][2:]
    pads, extra = transposed_window_pads(
        p.in_shapes[0][2:], f.outs, ksize, f.stride, f.pad, f.dilate)
    attrs = {}
    if any(extra):
        attrs['output_padding'] = extra
    g.out('ConvTranspose', p.input_names, kernel_shape=list(ksize),
          strides=list(f.stride), pads=pads, dilations=list(f.dilate),
          group=int(f.groups), **attrs)


@converts('LinearFunction', inputs=('x', 'W', 'b'))
def linear(p, g):
    if len(p.input_names) == 3 or g.opset >= 11:
        return g.out('Gemm', p.input_names, transB=1)
    x, w = p.input_names
    g.out('MatMul', [x, g.transpose(w, [1, 0])])


@converts('EmbedIDFunction', inputs=('x', 'W'))
def embed_id(p, g):
    x, w = p.input_names
    ignore = p.func.ignore_label
    if ignore is None:
        return g.out('Gather', [w, x], axis=0)
    if g.opset < 9:
        raise unsupported(p, 'ignore_label needs opset 9')
    # The rows of ignore_label are zeros (gathered from row 0, then zeroed).
    hit = g.emit('Equal', [x, g.scalar(ignore, p.in_dtypes[0])])
    x = g.emit('Where', [hit, g.scalar(0, p.in_dtypes[0]), x])
    y = g.emit('Gather', [w, x], axis=0)
    hit = g.unsqueeze(hit, [len(p.in_shapes[0])])
    g.out('Where', [hit, g.scalar(0, p.in_dtypes[1]), y])


@converts('BilinearFunction', inputs=('e1', 'e2', 'W', 'V1', 'V2', 'b'))
def bilinear(p, g):
    """``outer(e1, e2) (B, J*K) @ W (J*K, L)`` (+ ``e1 V1 + e2 V2 + b``),
    in Chainer's order."""
    e1, e2, w = p.input_names[:3]
    j, k, l_ = p.in_shapes[2]
    e1 = g.reshape(e1, (-1, j))
    e2 = g.reshape(e2, (-1, k))
    outer = g.emit('Mul', [g.unsqueeze(e1, [2]), g.unsqueeze(e2, [1])])
    matrices = [g.reshape(outer, (-1, j * k)), g.reshape(w, (j * k, l_))]
    if len(p.input_names) == 3:
        return g.out('MatMul', matrices)
    y = g.emit('MatMul', matrices)
    v1, v2, b = p.input_names[3:]
    y = g.emit('Add', [y, g.emit('MatMul', [e1, v1])])
    y = g.emit('Add', [y, g.emit('MatMul', [e2, v2])])
    g.out('Add', [y, b])
