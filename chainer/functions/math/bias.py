"""``F.bias``: adds ``y`` to ``x`` broadcast from a given axis."""

from chainer.functions._errors import (chainer_text, check_floats,
                                       names_bad_arguments)


def _expand_from_axis(func, x, y, axis):
    """Reshapes ``y`` so that its axes line up with ``x``'s from ``axis``
    on, then broadcasts it to ``x``'s shape."""
    from chainer.functions.array.broadcast import broadcast_to
    from chainer.functions.array.reshape import reshape
    import chainer
    x_shape, y_shape = x.shape, y.shape
    check_floats(func, (x, y), ('x', 'y'))
    if chainer.config.debug and \
            tuple(x_shape[axis:axis + len(y_shape)]) != tuple(y_shape):
        raise chainer_text(AssertionError())  # Chainer's debug-mode assert
    if axis < 0:
        axis += len(x_shape)
    end = axis + len(y_shape)
    # a y that does not fit fails in broadcast_to, with Chainer's message
    shape = (1,) * axis + y_shape + (1,) * (len(x_shape) - end)
    return broadcast_to(reshape(y, shape), x_shape)


@names_bad_arguments
def bias(x, y, axis=1):
    """Elementwise summation with broadcasting.

    Computes an elementwise summation of two input variables, with the shape
    of the latter variable broadcasted to match the shape of the former.
    ``axis`` is the first axis of the first variable along which the second
    variable is applied.

    Args:
        x (~chainer.Variable or array): Input variable to be summed.
        y (~chainer.Variable or array): Input variable to sum, broadcasted.
        axis (int): The first axis of ``x`` along which ``y`` is applied.

    Returns:
        ~chainer.Variable: Output variable.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.zeros((2, 3, 4), np.float32)
    >>> y = np.arange(3, dtype=np.float32)
    >>> F.bias(x, y, axis=1)[0, :, 0].array
    array([0., 1., 2.], dtype=float32)
    """
    return x + _expand_from_axis('bias', x, y, axis)
