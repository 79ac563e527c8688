"""Memory layouts of arrays (experimental).

A *memory layout* says how the axes of a Variable's array are stored. The
*semantic* shape is the one every Chainer function reasons in, channels
first: ``(N, C, H, W)`` for images, ``(out, in, kh, kw)`` for convolution
weights. A non-standard layout stores the same data with the channel axis
(axis 1) moved to the end, ``(N, H, W, C)``, which some cuDNN kernels
prefer. The stored shape is the *raw* shape.

A layout is named by a constant below; ``None`` is the standard layout.

>>> import numpy as np
>>> import chainer
>>> from chainer import memory_layouts
>>> x = chainer.Variable(np.zeros((2, 3, 4, 5), dtype=np.float32))
>>> y = x.as_layout(memory_layouts.CUDNN_CHANNEL_LAST_X)
>>> y.raw_array.shape, y.shape
((2, 4, 5, 3), (2, 3, 4, 5))
>>> y.as_layout(None).array.shape
(2, 3, 4, 5)
"""

import weakref

from chainer import function_node
from chainer import variable

# The standard (channel-first) layouts are spelled ``None``.
CUDNN_CHANNEL_FIRST_X = None
CUDNN_CHANNEL_LAST_X = 'CUDNN_CHANNEL_LAST_X'
CUDNN_CHANNEL_FIRST_W = None
CUDNN_CHANNEL_LAST_W = 'CUDNN_CHANNEL_LAST_W'

_CHANNEL_LAST = (CUDNN_CHANNEL_LAST_X, CUDNN_CHANNEL_LAST_W)


class _Unspecified:
    def __repr__(self):
        return '<unspecified>'


_unspecified = _Unspecified()


def _get_layout_transpose_axes(ndim, src_layout, dst_layout):
    """Axes that turn an ``ndim``-d array stored in ``src_layout`` into one
    stored in ``dst_layout``, or None when the two are the same."""
    if src_layout == dst_layout:
        return None
    if src_layout is None and dst_layout in _CHANNEL_LAST:
        axes = (0,) + tuple(range(2, ndim)) + (1,)
    elif dst_layout is None and src_layout in _CHANNEL_LAST:
        axes = (0, ndim - 1) + tuple(range(1, ndim - 1))
    else:
        # Two channel-last layouts are only converted through None.
        raise ValueError('Unknown layout conversion: from {!r} to {!r}'.format(
            src_layout, dst_layout))
    if ndim < 3:
        raise ValueError(
            'Layout conversion from {!r} to {!r} needs an array of at least 3 '
            'dimensions (batch, channel, spatial), got {}'.format(
                src_layout, dst_layout, ndim))
    return axes


def _transpose_shape(shape, src_layout, dst_layout):
    axes = _get_layout_transpose_axes(len(shape), src_layout, dst_layout)
    if axes is None:
        return tuple(shape)
    return tuple(shape[i] for i in axes)


def get_raw_shape(arr_or_var):
    """Returns the shape as stored in memory.

    Args:
        arr_or_var: An array or a :class:`~chainer.Variable`.

    Returns:
        tuple of ints: For a Variable, the shape of its raw array, whatever
        its layout; for an array, its shape.

    >>> import numpy as np
    >>> get_raw_shape(np.zeros((2, 3, 4, 5)))
    (2, 3, 4, 5)
    """
    if isinstance(arr_or_var, variable.Variable):
        return arr_or_var.raw_array.shape
    return arr_or_var.shape


def get_semantic_shape(arr_or_var, *, assumed_layout=_unspecified):
    """Returns the shape in the standard (channel-first) layout.

    Args:
        arr_or_var: An array or a :class:`~chainer.Variable`.
        assumed_layout: For an array, the layout its data is stored in
            (``None``, the standard layout, when omitted). A Variable knows
            its own layout, so this must be omitted or ``None`` for one.

    Returns:
        tuple of ints: The semantic shape.

    >>> import numpy as np
    >>> x = np.zeros((2, 4, 5, 3))
    >>> get_semantic_shape(x, assumed_layout=CUDNN_CHANNEL_LAST_X)
    (2, 3, 4, 5)
    """
    if isinstance(arr_or_var, variable.Variable):
        if assumed_layout is not _unspecified and assumed_layout is not None:
            raise ValueError(
                'get_semantic_shape: assumed_layout cannot be given for a '
                'Variable (it has its own layout, {!r}); got {!r}'.format(
                    arr_or_var.layout, assumed_layout))
        return arr_or_var.shape
    layout = None if assumed_layout is _unspecified else assumed_layout
    return _transpose_shape(arr_or_var.shape, layout, None)


def _adopt_layout(var, layout):
    """Makes ``var``, a plain Variable over the raw array of ``layout``, a
    variable of that layout (``Variable(raw, layout=...)``)."""
    if type(var) is not variable.Variable:
        raise TypeError(
            'Variable: a memory layout can be given to a plain Variable '
            'only, not to a {}'.format(type(var).__name__))
    if layout not in (CUDNN_CHANNEL_LAST_X, CUDNN_CHANNEL_LAST_W):
        raise ValueError('Variable: unknown memory layout {!r}'.format(
            layout))
    data = var._data
    if data is not None and data.ndim != 4:
        # Chainer asserts this.
        raise AssertionError(
            'Variable: the layout {} needs a 4-dimensional array, got shape '
            '{}'.format(layout, data.shape))
    var.__class__ = _LayoutVariable
    var._layout = layout


class _LayoutVariable(variable.Variable):
    """A Variable whose array is stored in a non-standard layout.

    Only :class:`AsLayout` makes these. ``shape`` is the semantic shape;
    the stored array is reachable through ``raw_array`` only, so that no
    code reads it by mistake as if it were channel-first.
    """

    __slots__ = ()  # its ``_layout`` slot is Variable's

    @property
    def layout(self):
        return self._layout

    @property
    def shape(self):
        return _transpose_shape(self._data.shape, self._layout, None)

    def _get_array(self):
        raise RuntimeError(
            'Cannot directly retrieve the underlying array from a variable '
            'with non-standard layout ({!r}); use raw_array, or convert it '
            'with as_layout(None) first.'.format(self._layout))

    array = property(_get_array, variable.Variable.array.fset)
    data = array

    @property
    def raw_array(self):
        return self._data


class AsLayout(function_node.FunctionNode):
    """Converts a variable to the memory layout ``layout`` (experimental).

    The input's layout is read from the input when the node is applied
    (``None`` for a plain array). The output holds the same data stored in
    ``layout``; the gradient is converted back to the input's layout, so
    the conversion is differentiable any number of times.

    Attributes:
        in_layout: The input's layout (known once applied).
        out_layout: The layout converted to.
        axes: The transpose that does the conversion (None if no-op).
    """

    in_layout = None
    axes = None
    _in_layout_given = False

    def __init__(self, layout):
        self.out_layout = layout

    def apply(self, inputs):
        if not self._in_layout_given:
            self.in_layout = getattr(inputs[0], 'layout', None)
        ys = super().apply(inputs)
        if self.out_layout is None:
            return ys
        # Re-wrap the output so that it knows its layout; its graph node
        # is kept as it is.
        y = ys[0]
        v = variable.Variable.__new__(_LayoutVariable)
        v._data, v._node = y._data, y._node
        if y._node is not None:
            y._node._variable = weakref.ref(v)
        v._requires_grad, v._name = y._requires_grad, y._name
        v._layout = self.out_layout
        return v,

    def forward(self, inputs):
        x, = inputs
        self.axes = _get_layout_transpose_axes(
            x.ndim, self.in_layout, self.out_layout)
        return (x if self.axes is None else x.transpose(self.axes)),

    def backward(self, indexes, grad_outputs):
        # gy is stored in out_layout; send it back to in_layout.
        back = AsLayout(self.in_layout)
        back.in_layout, back._in_layout_given = self.out_layout, True
        return back.apply(grad_outputs)
