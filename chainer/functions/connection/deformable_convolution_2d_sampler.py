"""``F.deformable_convolution_2d_sampler``: a convolution whose kernel taps
are moved by given (fractional) offsets.

Each tap ``(ky, kx)`` of output ``(i, j)`` reads the zero-padded input
bilinearly at ``(i * sy + ky + dy, j * sx + kx + dx)``, where ``dx`` and
``dy`` come from ``offset`` (the first ``kh * kw`` channels are the x
offsets, the next ``kh * kw`` the y offsets, taps in row-major order).
As in Chainer, the function is a composition of differentiable ops: the
four neighbours are gathered with integer indices (the floor of the
positions, which is locally constant) and weighted by the fractional parts,
which are Variables of the offsets; a linear layer then applies ``W``.
So ``x``, ``offset``, ``W`` and ``b`` get gradients of any order.
"""

import numpy

import chainer
from chainer import backend
from chainer.functions._errors import invalid_type, names_bad_arguments
from chainer.utils.conv_nd import as_tuple

_LABEL = 'deformable_convolution_2d_sampler'


def _check(x, offset, W, b):
    for name, a, nd in (('x', x, 4), ('offset', offset, 4), ('W', W, 4)):
        if a.dtype.kind != 'f':
            raise invalid_type(_LABEL, '{}.dtype.kind == f'.format(name),
                               '{} != f'.format(a.dtype.kind))
        if a.ndim != nd:
            raise invalid_type(_LABEL, '{}.ndim == {}'.format(name, nd),
                               '{} != {}'.format(a.ndim, nd))
    for name, a in (('offset', offset), ('W', W), ('b', b)):
        if a is not None and a.dtype != x.dtype:
            raise invalid_type(_LABEL, '{}.dtype == x.dtype'.format(name),
                               '{} != {}'.format(a.dtype, x.dtype))
    if x.shape[1] != W.shape[1]:
        raise invalid_type(_LABEL, 'x.shape[1] == W.shape[1]',
                           '{} != {}'.format(x.shape[1], W.shape[1]))
    if offset.shape[0] != x.shape[0]:
        raise invalid_type(_LABEL, 'offset.shape[0] == x.shape[0]',
                           '{} != {}'.format(offset.shape[0], x.shape[0]))
    if offset.shape[1] != 2 * W.shape[2] * W.shape[3]:
        raise ValueError(
            'The shape of the offset does not match the kernel size: '
            'offset.shape[1] = {}, expected 2 * kh * kw = {}'.format(
                offset.shape[1], 2 * W.shape[2] * W.shape[3]))
    if b is not None and b.shape != W.shape[:1]:
        raise invalid_type(_LABEL, 'b.shape == (W.shape[0],)',
                           'b.shape = {}, W.shape = {}'.format(b.shape,
                                                               W.shape))


@names_bad_arguments
def deformable_convolution_2d_sampler(x, offset, W, b=None, stride=1, pad=0):
    """Two-dimensional deformable convolution function using computed offset.

    The convolution of Dai et al., "Deformable Convolutional Networks"
    (2017), with given offsets: output ``(i, j)`` gathers tap ``(ky, kx)``
    from ``x`` (zero padded by ``pad``) by bilinear interpolation at

    .. math::

        (i s_Y + k_y + \\Delta y_{k}, \\; j s_X + k_x + \\Delta x_{k}),

    with ``k = ky * kw + kx``, ``Delta x_k = offset[:, k, i, j]`` and
    ``Delta y_k = offset[:, kh * kw + k, i, j]``; points outside the padded
    image read zeros. The gathered taps are then combined with ``W`` (and
    ``b``) as in :func:`~chainer.functions.convolution_2d`. With zero offsets
    it is a plain convolution.

    Args:
        x (~chainer.Variable or array): Input ``(n, c_I, h, w)``.
        offset (~chainer.Variable or array): Offsets
            ``(n, 2 * kh * kw, h_O, w_O)``; its spatial shape is the output
            size, normally ``((h + 2 p_H - kh) // s_Y + 1, ...)``.
        W (~chainer.Variable or array): Filters ``(c_O, c_I, kh, kw)``.
        b (~chainer.Variable or array): Bias ``(c_O,)`` (optional).
        stride (int or pair of ints): Stride ``(s_Y, s_X)``.
        pad (int or pair of ints): Zero padding ``(p_H, p_W)``.

    Returns:
        ~chainer.Variable: Output ``(n, c_O, h_O, w_O)``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.ones((1, 3, 5, 5), np.float32)
    >>> W = np.ones((2, 3, 3, 3), np.float32)
    >>> offset = np.zeros((1, 18, 3, 3), np.float32)
    >>> F.deformable_convolution_2d_sampler(x, offset, W).array[0, 0]
    array([[27., 27., 27.],
           [27., 27., 27.],
           [27., 27., 27.]], dtype=float32)
    """
    from chainer import functions as F
    xa, oa, Wa = (chainer.as_array(v) for v in (x, offset, W))
    ba = None if b is None else chainer.as_array(b)
    _check(xa, oa, Wa, ba)
    sy, sx = as_tuple(stride, 2)
    ph, pw = as_tuple(pad, 2)
    xp = backend.get_array_module(xa)
    n, c, h, w = xa.shape
    out_c, _, kh, kw = Wa.shape
    K = kh * kw
    oh, ow = oa.shape[2:]
    # Sampling positions in the padded image, as Variables of the offsets.
    ky, kx = numpy.divmod(numpy.arange(K), kw)
    base_y = (numpy.arange(oh)[None, :, None] * sy + ky[:, None, None])
    base_x = (numpy.arange(ow)[None, None, :] * sx + kx[:, None, None])
    py = offset[:, K:] + xp.asarray(base_y, xa.dtype)
    px = offset[:, :K] + xp.asarray(base_x, xa.dtype)
    y0 = xp.floor(chainer.as_array(py))
    x0 = xp.floor(chainer.as_array(px))
    fy = py - y0
    fx = px - x0
    # A NaN offset reads the padding; its NaN weights make the output NaN.
    y0 = xp.where(xp.isnan(y0), -1, y0)
    x0 = xp.where(xp.isnan(x0), -1, x0)
    # The padded image gets one more zero pixel on each side: indices out
    # of range clip onto it, so far points read zeros.
    hp, wp = h + 2 * ph, w + 2 * pw
    xpad = F.pad(x, ((0, 0), (0, 0), (ph + 1, ph + 1), (pw + 1, pw + 1)),
                 'constant')
    table = F.reshape(F.transpose(xpad, (0, 2, 3, 1)), (-1, c))
    nidx = xp.arange(n).reshape(n, 1, 1, 1) * ((hp + 2) * (wp + 2))

    def gather(yy, xx):
        iy = xp.clip(yy, -1, hp).astype(numpy.intp) + 1
        ix = xp.clip(xx, -1, wp).astype(numpy.intp) + 1
        return F.get_item(table, nidx + iy * (wp + 2) + ix)

    def weight(v):
        return F.expand_dims(v, 4)

    col = (weight((1 - fy) * (1 - fx)) * gather(y0, x0) +
           weight((1 - fy) * fx) * gather(y0, x0 + 1) +
           weight(fy * (1 - fx)) * gather(y0 + 1, x0) +
           weight(fy * fx) * gather(y0 + 1, x0 + 1))   # (n, K, oh, ow, c)
    col = F.reshape(F.transpose(col, (0, 2, 3, 4, 1)), (n * oh * ow, c * K))
    y = F.linear(col, F.reshape(W, (out_c, c * K)))
    y = F.transpose(F.reshape(y, (n, oh, ow, out_c)), (0, 3, 1, 2))
    if b is None:
        return y
    # (the bias added last, by a broadcast add, as in Chainer's graph)
    return y + F.reshape(b, (1, out_c, 1, 1))
