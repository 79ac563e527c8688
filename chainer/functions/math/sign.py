"""``sign``: piecewise constant, so it records no graph."""

from chainer import backend
from chainer import utils
from chainer.variable import Variable, as_array
from chainer.functions._errors import check_array, names_bad_arguments


@names_bad_arguments
def sign(x):
    """Elementwise sign function.

    The result is piecewise constant: its gradient is zero almost
    everywhere, so (as in Chainer) it is returned as a Variable that does
    not require a gradient, and no graph is recorded.

    Args:
        x (~chainer.Variable or array): Input (float or integer).

    Returns:
        ~chainer.Variable: the sign of each element (-1, 0 or 1), with the dtype of ``x``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.sign(np.array([2.5, -1.5], np.float32)).array
    array([ 1., -1.], dtype=float32)
    """
    check_array('sign', 'x', x)
    x = as_array(x)
    if x.dtype.kind == 'c':
        raise TypeError('sign: x must be real, but got dtype {}'.format(
            x.dtype))
    xp = backend.get_array_module(x)
    x = xp.asarray(x)
    return Variable(utils.force_array(xp.sign(x), x.dtype),
                    requires_grad=False)
