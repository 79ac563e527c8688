"""``F.shift``: shifts channel groups of an image by the kernel offsets.

The channels are split into ``kh * kw`` groups; each group is moved by
one offset of a ``kh x kw`` (dilated) kernel, with zeros shifted in. The
last group (with the channels left over by the split) stays in place: it
takes the kernel centre, whose slot in the kernel order goes to the last
offset. The adjoint of a shift is the shift by the negated dilation.
"""

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import invalid_type, names_bad_arguments
from chainer.utils.conv_nd import as_tuple


def _ranges(o, size):
    """(destination, source) slices of one axis for a read offset ``o``."""
    if o >= 0:
        return slice(0, max(size - o, 0)), slice(o, size)
    return slice(min(-o, size), size), slice(0, max(size + o, 0))


class Shift(FunctionNode):
    """Shifts the channel groups of an ``(n, c, h, w)`` input."""

    def __init__(self, ksize=3, dilate=1):
        self.kh, self.kw = as_tuple(ksize, 2)
        if self.kh % 2 != 1:
            raise ValueError('kh must be odd')
        if self.kw % 2 != 1:
            raise ValueError('kw must be odd')
        self.dy, self.dx = as_tuple(dilate, 2)
        if self.dy == 0 or self.dx == 0:
            raise ValueError('shift: dilate must be nonzero, got {}'.format(
                (self.dy, self.dx)))

    def forward(self, inputs):
        x, = inputs
        if x.dtype.kind != 'f':
            raise invalid_type(self, 'x.dtype.kind == f',
                               '{} != f'.format(x.dtype.kind))
        if x.ndim != 4:
            raise invalid_type(self, 'x.ndim == 4', '{} != 4'.format(x.ndim))
        n_groups = self.kh * self.kw
        c = x.shape[1]
        if c < n_groups:
            raise invalid_type(self, 'x.shape[1] >= {}'.format(n_groups),
                               '{} < {}'.format(c, n_groups))
        xp = backend.get_array_module(x)
        h, w = x.shape[2:]
        y = xp.zeros_like(x)
        size = c // n_groups
        center = n_groups // 2
        for g in range(n_groups):
            k = {n_groups - 1: center, center: n_groups - 1}.get(g, g)
            ky, kx = divmod(k, self.kw)
            dst_h, src_h = _ranges((self.kh // 2 - ky) * self.dy, h)
            dst_w, src_w = _ranges((self.kw // 2 - kx) * self.dx, w)
            ch = slice(g * size, c if g == n_groups - 1 else (g + 1) * size)
            y[:, ch, dst_h, dst_w] = x[:, ch, src_h, src_w]
        return y,

    def backward(self, indexes, grad_outputs):
        return Shift((self.kh, self.kw), (-self.dy, -self.dx)).apply(
            grad_outputs)


@names_bad_arguments
def shift(x, ksize=3, dilate=1):
    """Shift function.

    Splits the ``c`` channels of ``x`` into ``kh * kw`` groups of
    ``c // (kh * kw)`` channels (the last group also takes the remainder)
    and shifts each group spatially by one offset of a ``kh x kw`` kernel
    dilated by ``dilate``; vacated pixels are zero. Group ``g`` reads
    ``x[:, group, i + (kh // 2 - ky) * dy, j + (kw // 2 - kx) * dx]`` for
    the kernel position ``(ky, kx) = divmod(g, kw)``, except that the last
    group takes the centre (no shift) and the centre's group takes the last
    position. This is the zero-FLOP, zero-parameter shift of Wu et al.,
    "Shift: A Zero FLOP, Zero Parameter Alternative to Spatial
    Convolutions" (2017).

    Args:
        x (~chainer.Variable or array): Input ``(n, c, h, w)`` with
            ``c >= kh * kw``.
        ksize (int or pair of ints): Odd kernel size ``(kh, kw)``.
        dilate (int or pair of ints): Dilation ``(dy, dx)`` (nonzero; a
            negative one shifts the other way).

    Returns:
        ~chainer.Variable: Output of the same shape as ``x``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.arange(2 * 9 * 3 * 3, dtype=np.float32).reshape(2, 9, 3, 3)
    >>> F.shift(x).shape
    (2, 9, 3, 3)
    """
    return Shift(ksize, dilate).apply((x,))[0]
