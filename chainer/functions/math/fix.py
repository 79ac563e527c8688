"""``fix``: piecewise constant, so it records no graph."""

from chainer import backend
from chainer import utils
from chainer.variable import Variable, as_array
from chainer.functions._errors import check_array, names_bad_arguments


@names_bad_arguments
def fix(x):
    """Elementwise fix function.

    The result is piecewise constant: its gradient is zero almost
    everywhere, so (as in Chainer) it is returned as a Variable that does
    not require a gradient, and no graph is recorded.

    Args:
        x (~chainer.Variable or array): Input (float or integer).

    Returns:
        ~chainer.Variable: each element rounded towards zero, with the dtype of ``x``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.fix(np.array([1.5, -1.5], np.float32)).array
    array([ 1., -1.], dtype=float32)
    """
    check_array('fix', 'x', x)
    x = as_array(x)
    xp = backend.get_array_module(x)
    x = xp.asarray(x)
    return Variable(utils.force_array(xp.fix(x), x.dtype),
                    requires_grad=False)
