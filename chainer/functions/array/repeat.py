"""``F.repeat``."""

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import chainer_text, names_bad_arguments

# numpy.exceptions exists from NumPy 1.25; older NumPy has numpy.AxisError.
_AxisError = getattr(numpy, 'exceptions', numpy).AxisError


def _int(v):
    # bools count as 0/1, as they do in Chainer and NumPy
    return isinstance(v, (int, numpy.integer, numpy.bool_))


class Repeat(FunctionNode):
    """Repeats each element of an array."""

    def __init__(self, repeats, axis=None):
        if _int(repeats):
            repeats = int(repeats)
        elif isinstance(repeats, tuple) and all(_int(r) for r in repeats):
            # (a list is refused, as in Chainer)
            repeats = tuple(int(r) for r in repeats)
            if len(repeats) == 1:
                repeats = repeats[0]
        else:
            raise chainer_text(
                TypeError('repeats must be int or tuple of ints'))
        if min(repeats if isinstance(repeats, tuple) else (repeats,),
               default=0) < 0:
            raise chainer_text(ValueError(
                'all elements in repeats must be zero or larger'))
        if axis is not None and (not _int(axis) or
                                 isinstance(axis, (bool, numpy.bool_))):
            raise chainer_text(TypeError('axis must be int or None'))
        self._repeats = repeats
        # Chainer's form (exporters read it): always a tuple
        self.repeats = (repeats,) if isinstance(repeats, int) else repeats
        self.axis = axis

    def forward(self, inputs):
        x, = inputs
        self._in_shape = x.shape
        axis = self.axis
        if axis is not None:
            if not -x.ndim <= axis < x.ndim:
                raise _AxisError(axis, x.ndim)
            axis %= x.ndim
            n = x.shape[axis]
        else:
            n = x.size
        if isinstance(self._repeats, tuple) and len(self._repeats) != n:
            # NumPy 1's words, which Chainer's users saw
            raise chainer_text(ValueError(
                'operands could not be broadcast together with shape ({},) '
                '({},)'.format(n, len(self._repeats))))
        self._axis = axis
        return backend.get_array_module(x).repeat(x, self._repeats, axis),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.array.get_item import GetItemGrad
        from chainer.functions.array.reshape import reshape
        from chainer.functions.math.sum import sum as sum_
        gy, = grad_outputs
        shape, axis, r = self._in_shape, self._axis, self._repeats
        if axis is None:
            shape, axis = (int(numpy.prod(shape)),), 0
            gy = reshape(gy, (gy.size,))
        if isinstance(r, int):
            # Each element's r copies are adjacent: sum them.
            split = shape[:axis] + (shape[axis], r) + shape[axis + 1:]
            gx = sum_(reshape(gy, split), axis=axis + 1)
        else:
            # The copies of element i sit at the positions that hold i.
            index = numpy.repeat(numpy.arange(shape[axis]), r)
            gx = GetItemGrad((slice(None),) * axis + (index,), shape,
                             gy.dtype).apply((gy,))[0]
        return reshape(gx, self._in_shape),


@names_bad_arguments
def repeat(x, repeats, axis=None):
    """Construct an array by repeating a given array.

    Args:
        x (~chainer.Variable or array): Input variable.
        repeats (int or tuple of ints): The number of copies of each element
            (one for all, or one per element along ``axis``).
        axis (int or None): The axis to repeat along; None repeats the
            flattened input.

    Returns:
        ~chainer.Variable: The repeated variable, as :func:`numpy.repeat`.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.repeat(np.array([0., 1.], np.float32), 2).array
    array([0., 0., 1., 1.], dtype=float32)
    """
    return Repeat(repeats, axis).apply((x,))[0]
