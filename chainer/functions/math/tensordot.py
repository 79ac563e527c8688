"""``F.tensordot``: sums products over given pairs of axes."""

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import check_floats


def _normalize_axes(a_ndim, b_ndim, axes):
    """``(a_axes, b_axes)``: tuples of non-negative contracted axes."""
    if isinstance(axes, (int, numpy.integer)):
        n = int(axes)
        if n < 0 or n > a_ndim or n > b_ndim:
            raise ValueError('tensordot: axes={} is out of range for inputs '
                             'of {} and {} dimensions'.format(n, a_ndim,
                                                              b_ndim))
        return tuple(range(a_ndim - n, a_ndim)), tuple(range(n))
    if isinstance(axes, (float, numpy.floating)):
        raise TypeError('axes must be a pair of sequence of integers or an '
                        'integer, got {!r}'.format(axes))
    try:
        a_axes, b_axes = axes
    except (TypeError, ValueError):
        raise ValueError('tensordot: axes must be an int or a pair of '
                         'sequences of ints, got {!r}'.format(axes)) from None
    a_axes = (a_axes,) if isinstance(a_axes, int) else tuple(a_axes)
    b_axes = (b_axes,) if isinstance(b_axes, int) else tuple(b_axes)
    if len(a_axes) != len(b_axes):
        raise ValueError('axes count mismatch')
    for ax, nd in ((a_axes, a_ndim), (b_axes, b_ndim)):
        if not all(-nd <= x < nd for x in ax):
            raise ValueError('tensordot: axes {} out of range for an input '
                             'of {} dimension(s)'.format(ax, nd))
    return (tuple(x % a_ndim for x in a_axes),
            tuple(x % b_ndim for x in b_axes))


class TensorDot(FunctionNode):
    """Tensor dot product along given axes."""

    def __init__(self, axes=2):
        self.axes = axes

    def forward(self, inputs):
        a, b = inputs
        check_floats(self, inputs, ('a', 'b'))
        a_axes, b_axes = _normalize_axes(a.ndim, b.ndim, self.axes)
        for i, j in zip(a_axes, b_axes):
            if a.shape[i] != b.shape[j]:
                raise ValueError(
                    'tensordot: shape mismatch: a.shape[{}] = {} != '
                    'b.shape[{}] = {}'.format(i, a.shape[i], j, b.shape[j]))
        self._a_axes, self._b_axes = a_axes, b_axes
        self.retain_inputs((0, 1))
        xp = backend.get_array_module(a, b)
        return xp.tensordot(a, b, axes=(a_axes, b_axes)),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.array.transpose import transpose
        a, b = self.get_retained_inputs()
        gy, = grad_outputs
        a_axes, b_axes = self._a_axes, self._b_axes
        a_free = [i for i in range(a.ndim) if i not in a_axes]
        b_free = [i for i in range(b.ndim) if i not in b_axes]
        na = len(a_free)
        gy_a = tuple(range(na))                 # gy's axes from a
        gy_b = tuple(range(na, na + len(b_free)))  # gy's axes from b
        ret = []
        if 0 in indexes:
            # gy (a_free, b_free) . b (b_axes, b_free) -> (a_free, a_axes)
            ga = tensordot(gy, b, axes=(gy_b, tuple(b_free)))
            paired = [a_axes[b_axes.index(j)] for j in sorted(b_axes)]
            ret.append(_untranspose(ga, a_free + paired, transpose))
        if 1 in indexes:
            # a (a_axes, a_free) . gy (a_free, b_free) -> (b_axes, b_free)
            gb = tensordot(a, gy, axes=(tuple(a_free), gy_a))
            paired = [b_axes[a_axes.index(i)] for i in sorted(a_axes)]
            ret.append(_untranspose(gb, paired + b_free, transpose))
        return tuple(ret)


def _untranspose(g, order, transpose):
    """``g``'s axis ``k`` is the input's axis ``order[k]``: put them back."""
    inv = [order.index(i) for i in range(len(order))]
    if inv == list(range(len(order))):
        return g
    return transpose(g, inv)


def tensordot(a, b, axes=2):
    """Returns the tensor dot product of two arrays along specified axes.

    This is equivalent to computing dot product along the specified axes
    which are treated as one axis by reshaping.

    Args:
        a (~chainer.Variable or array): The first argument.
        b (~chainer.Variable or array): The second argument.
        axes: An int ``N``: the last ``N`` axes of ``a`` are summed against
            the first ``N`` axes of ``b``.  Or a pair of sequences (or of
            ints): the axes of ``a`` and of ``b`` to sum over, pairwise.

    Returns:
        ~chainer.Variable: The tensor dot product.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> a = np.ones((2, 3), np.float32)
    >>> b = np.ones((3, 4), np.float32)
    >>> F.tensordot(a, b, axes=1).shape
    (2, 4)
    """
    return TensorDot(axes).apply((a, b))[0]
