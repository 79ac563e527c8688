"""``F.zoneout``: keeps the previous state at random (Krueger et al.,
2016), the recurrent twin of dropout."""

import chainer
from chainer import backend
from chainer import utils
from chainer.function_node import FunctionNode
from chainer.functions.noise.dropout import _parse_kwargs
from chainer.functions._errors import (check_floats, names_bad_arguments)


class Zoneout(FunctionNode):
    """Picks ``x`` where a random flag is set, ``h`` elsewhere."""

    def __init__(self, zoneout_ratio):
        self.zoneout_ratio = zoneout_ratio

    def forward(self, inputs):
        h, x = inputs
        xp = backend.get_array_module(x)
        # flag_h marks the zoned-out elements (kept from h), flag_x the rest
        self.flag_h = xp.random.rand(*x.shape) < self.zoneout_ratio
        self.flag_x = ~self.flag_h
        # h * flag_h + x * flag_x, Chainer's arithmetic: a NaN or an
        # infinity on either side shows (and -0 + 0 is 0)
        return utils.force_array(h * self.flag_h + x * self.flag_x),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(gy * self.flag_h)
        if 1 in indexes:
            ret.append(gy * self.flag_x)
        return tuple(ret)


@names_bad_arguments
def zoneout(h, x, ratio=.5, **kwargs):
    """zoneout(h, x, ratio=.5)

    Drops elements of input variable and sets to previous variable randomly.

    In training mode (``chainer.config.train``) each element of the output
    is the previous state ``h`` with probability ``ratio`` and the new
    state ``x`` otherwise; the flags are drawn by ``xp.random`` (NumPy's or
    CuPy's global generator). In test mode ``x`` is returned.

    Args:
        h (:class:`~chainer.Variable` or :ref:`ndarray`): The previous state.
        x (:class:`~chainer.Variable` or :ref:`ndarray`): The new state.
        ratio (float): The zoneout ratio.

    Returns:
        ~chainer.Variable: The output.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> h = np.zeros((2, 3), np.float32)
    >>> x = np.ones((2, 3), np.float32)
    >>> F.zoneout(h, x, ratio=0.).array
    array([[1., 1., 1.],
           [1., 1., 1.]], dtype=float32)
    """
    _parse_kwargs('zoneout', kwargs)
    if chainer.config.train:
        if not 0 <= ratio <= 1:
            raise ValueError('zoneout: ratio must be in [0, 1], got '
                             '{}'.format(ratio))
        check_floats('zoneout', (h, x), ('h', 'x'))
        return Zoneout(ratio).apply((h, x))[0]
    return chainer.as_variable(x)
