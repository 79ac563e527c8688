"""``F.split_axis``: splits an array along an axis."""

import numpy

import chainer
from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import invalid_type


class SplitAxis(FunctionNode):
    """Splits an array into several along an axis."""

    def __init__(self, indices_or_sections, axis):
        if isinstance(indices_or_sections, (int, numpy.integer)) and \
                not isinstance(indices_or_sections, bool):
            if indices_or_sections <= 0:
                raise ValueError(
                    'split_axis: the number of sections must be positive, '
                    'got {}'.format(indices_or_sections))
            self.sections = int(indices_or_sections)
            self.indices = None
        else:
            ok = isinstance(indices_or_sections, (list, tuple)) or (
                hasattr(indices_or_sections, 'ndim') and
                indices_or_sections.ndim == 1)
            if ok:
                indices = [int(i) for i in indices_or_sections]
                ok = all(i == j for i, j in zip(indices, indices_or_sections))
            if not ok:
                raise TypeError(
                    'split_axis: indices_or_sections must be an integer or a '
                    '1-D sequence of integers, got {!r}'.format(
                        indices_or_sections))
            if chainer.is_debug() and any(
                    a > b for a, b in zip(indices, indices[1:])):
                # (outside debug mode they split as numpy.split does)
                raise ValueError('split_axis: indices_or_sections must be '
                                 'sorted, got {!r}'.format(indices))
            self.sections = None
            self.indices = indices
        self.indices_or_sections = indices_or_sections  # as given (Chainer)
        self.axis = axis

    def forward(self, inputs):
        x, = inputs
        ndim = x.ndim
        axis = self.axis
        if not -ndim <= axis < ndim:
            raise invalid_type(self, 'in_types[0].ndim > {}'.format(
                axis if axis >= 0 else -axis - 1), '{} <= {}'.format(
                    ndim, axis if axis >= 0 else -axis - 1))
        axis %= ndim
        n = x.shape[axis]
        if self.sections is not None:
            if n % self.sections:
                raise invalid_type(
                    self, 'in_types[0].shape[{}] % sections == 0'.format(
                        axis), '{} != 0'.format(n % self.sections))
            arg = self.sections
        else:
            arg = self.indices
            if arg and max(arg) > n:
                raise invalid_type(
                    self, 'in_types[0].shape[{}] >= max_index'.format(axis),
                    '{} < {}'.format(n, max(arg)))
        self._axis = axis
        ys = tuple(backend.get_array_module(x).split(x, arg, axis))
        self._shapes = [y.shape for y in ys]
        n = x.shape[axis]
        self._starts = None
        if sum(s[axis] for s in self._shapes) != n:
            # Unordered split points: the pieces overlap (numpy's slicing).
            self._starts = [0] + [slice(i, None).indices(n)[0]
                                  for i in self.indices]
            self._n = n
        return ys

    def backward(self, indexes, grad_outputs):
        from chainer.functions.array.concat import concat
        gys = list(grad_outputs)
        if any(g is None for g in gys):
            # A missing output gradient is a zero block.
            xp = backend.get_array_module(*[g for g in gys if g is not None])
            dtype = self.inputs[0].dtype
            for i, g in enumerate(gys):
                if g is None:
                    gys[i] = chainer.Variable(xp.zeros(self._shapes[i], dtype))
        if self._starts is None:
            return concat(gys, self._axis),
        from chainer.functions.array.pad import pad
        gx = None
        for g, start in zip(gys, self._starts):
            width = [(0, 0)] * g.ndim
            width[self._axis] = (start, self._n - start - g.shape[self._axis])
            g = pad(g, width, 'constant')
            gx = g if gx is None else gx + g
        return gx,


def split_axis(x, indices_or_sections, axis, force_tuple=True):
    """Splits given variables along an axis.

    Args:
        x (~chainer.Variable or array): The variable to split.
        indices_or_sections (int or 1-D sequence of ints): An int ``n``
            splits into ``n`` equal parts; a sequence gives the split
            points, as in :func:`numpy.split`.
        axis (int): The axis to split along.
        force_tuple (bool): With ``False``, a single result is returned
            as a Variable rather than a 1-tuple.

    Returns:
        tuple of ~chainer.Variable (or one Variable, see ``force_tuple``).

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.arange(6, dtype=np.float32).reshape(2, 3)
    >>> [y.shape for y in F.split_axis(x, [1], axis=1)]
    [(2, 1), (2, 2)]
    """
    ys = SplitAxis(indices_or_sections, axis).apply((x,))
    if not force_tuple and len(ys) == 1:
        return ys[0]
    return ys
