"""``F.pad``: ``numpy.pad``, differentiable."""

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import check_float

# Modes whose padded values are copies of input elements: their gradient
# adds each copy's gradient back into its source element.
_COPY_MODES = ('edge', 'reflect', 'symmetric', 'wrap')


class Pad(FunctionNode):
    """Pads an array (``numpy.pad``/``cupy.pad``)."""

    def __init__(self, pad_width, mode, **keywords):
        self.pad_width = pad_width
        self.mode = mode
        self.keywords = keywords

    @property
    def pad_bw(self):
        """Chainer's form of the widths (exporters read it): an array as
        given, a single width doubled to (before, after)."""
        bw = numpy.asarray(self.pad_width)
        return numpy.repeat(bw, 2) if bw.size == 1 else bw

    def forward(self, inputs):
        x, = inputs
        check_float(self, x)
        try:
            width = numpy.broadcast_to(
                numpy.asarray(self.pad_width, dtype=numpy.int64),
                (x.ndim, 2))
        except ValueError:
            raise ValueError(
                'pad: pad_width {!r} does not fit an input of {} '
                'dimension(s)'.format(self.pad_width, x.ndim)) from None
        if (width < 0).any():
            raise ValueError("index can't contain negative values")
        self._width = [tuple(int(v) for v in w) for w in width]
        self._in_shape = x.shape
        if x.ndim == 0:  # nothing to pad (numpy.pad returns the value)
            return x.copy(),
        xp = backend.get_array_module(x)
        return xp.pad(x, self._width, mode=self.mode, **self.keywords),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        if not self._in_shape:
            return gy,
        if self.mode == 'constant':
            from chainer.functions.array.get_item import get_item
            return get_item(gy, tuple(
                slice(a, a + s) for (a, _), s in zip(self._width,
                                                     self._in_shape))),
        copies = self.mode in _COPY_MODES and \
            self.keywords.get('reflect_type', 'even') == 'even'
        if not copies:
            raise NotImplementedError(
                'pad: the gradient of mode {!r} is not implemented (only '
                "'constant', 'edge', 'reflect', 'symmetric' and "
                "'wrap')".format(self.mode))
        from chainer.functions.array.get_item import GetItemGrad
        from chainer.functions.array.reshape import reshape
        # Pad the element numbers the same way: each output element then
        # names its source, and the gradient is a scatter-add.
        size = int(numpy.prod(self._in_shape))
        source = numpy.pad(numpy.arange(size).reshape(self._in_shape),
                           self._width, mode=self.mode, **self.keywords)
        gx = GetItemGrad(source.ravel(), (size,), gy.dtype).apply(
            (reshape(gy, (gy.size,)),))[0]
        return reshape(gx, self._in_shape),


def pad(x, pad_width, mode, **keywords):
    """Pad an input variable.

    Args:
        x (~chainer.Variable or array): Input variable (floating point).
        pad_width (int or array-like): The number of values padded before
            and after each axis, as in :func:`numpy.pad`.
        mode (str): The padding mode of :func:`numpy.pad` (``'constant'``
            pads with ``constant_values``, 0 by default).
        keywords: Passed to :func:`numpy.pad` (``constant_values``, ...).

    Returns:
        ~chainer.Variable: The padded variable.

    The gradient is implemented for ``'constant'`` and for the modes that
    copy input elements (``'edge'``, ``'reflect'``, ``'symmetric'``,
    ``'wrap'``).

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.pad(np.array([1., 2.], np.float32), 1, 'constant').array
    array([0., 1., 2., 0.], dtype=float32)
    """
    return Pad(pad_width, mode, **keywords).apply((x,))[0]
