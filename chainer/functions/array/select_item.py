"""``F.select_item``."""

import numpy

import chainer
from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import (chainer_text, invalid_type,
                                       names_bad_arguments)


class SelectItem(FunctionNode):
    """Selects one element of each row: ``y[i] = x[i, t[i]]``."""

    def forward(self, inputs):
        x, t = inputs
        if t.dtype.kind not in 'iu':
            raise invalid_type(self, 't.dtype.kind == i',
                               '{} != i'.format(t.dtype.kind))
        if x.ndim != 2:
            raise invalid_type(self, 'x.ndim == 2',
                               '{} != 2'.format(x.ndim))
        if t.ndim != 1:
            raise invalid_type(self, 't.ndim == 1',
                               '{} != 1'.format(t.ndim))
        if x.shape[0] != t.shape[0]:
            raise invalid_type(self, 'x.shape[0] == t.shape[0]',
                               '{} != {}'.format(x.shape[0], t.shape[0]))
        debug = chainer.config.debug
        if (debug or isinstance(t, numpy.ndarray)) and t.size:
            # Chainer checks the labels in debug mode; otherwise a label
            # past the end fails in its indexing, in NumPy's words, and a
            # negative one (which indexing takes from the end, silently)
            # gets the debug mode's error here
            past = t >= x.shape[1]
            if (t < 0).any() or debug and past.any():
                raise chainer_text(ValueError(
                    'Each label `t` need to satisfty '
                    '`0 <= t < x.shape[1]`'))  # sic: Chainer's text
            if past.any():
                raise chainer_text(IndexError(
                    'index {} is out of bounds for axis 1 with size '
                    '{}'.format(t[past.argmax()], x.shape[1])))
        xp = backend.get_array_module(x)
        self._index = (xp.arange(len(t)), t)
        self._in_shape = x.shape
        return x[self._index],

    def backward(self, indexes, grad_outputs):
        from chainer.functions.array.get_item import GetItemGrad
        gy, = grad_outputs
        return GetItemGrad(self._index, self._in_shape, gy.dtype).apply(
            (gy,))[0], None


@names_bad_arguments
def select_item(x, t):
    """Select elements stored in given indices.

    ``y[i] = x[i, t[i]]``.

    Args:
        x (~chainer.Variable or array): A 2-D variable ``(B, N)``.
        t (~chainer.Variable or array): A 1-D int array of ``B`` column
            indices.

    Returns:
        ~chainer.Variable: The selected elements, shape ``(B,)``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.arange(6, dtype=np.float32).reshape(2, 3)
    >>> F.select_item(x, np.array([2, 0], np.int32)).array
    array([2., 3.], dtype=float32)
    """
    return SelectItem().apply((x, t))[0]
