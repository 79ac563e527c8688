"""``L.Bias``: broadcasted addition of a (learnable) bias."""

import chainer.functions as F
from chainer import link
from chainer.functions._errors import AssertionValueError
from chainer import variable


class Bias(link.Link):
    """Broadcasted elementwise summation with learnable parameters.

    Computes ``F.bias(x, b, axis)``: ``b`` is added to ``x`` along the axes
    starting at ``axis``.  With ``shape`` given, ``b`` is a parameter of
    that shape (initialized to 0) and ``forward`` takes ``x`` alone;
    otherwise ``forward(x, b)`` takes the bias as its second argument.

    Args:
        axis (int): The first axis of ``x`` the bias is aligned with.
        shape (tuple of ints): Shape of the learnable bias ``b`` (None:
            no parameter).

    >>> import numpy as np
    >>> Bias(shape=(2,))(np.ones((1, 2), np.float32)).array
    array([[1., 1.]], dtype=float32)
    """

    def __init__(self, axis=1, shape=None):
        super().__init__()
        # Without ``shape`` there is no attribute ``b`` at all (forward
        # then expects the bias as an argument).
        if shape is not None:
            with self.init_scope():
                self.b = variable.Parameter(0, shape)
        self.axis = axis

    def forward(self, *xs):
        """``forward(x)`` with the learned ``b``, else ``forward(x, b)``."""
        learnt = hasattr(self, 'b')
        _check_argc('Bias', xs, learnt, 'b')
        if learnt:
            x, = xs
            b = self.b
        else:
            x, b = xs
        return F.bias(x, b, self.axis)


def _check_argc(label, xs, learnt, name):
    # Chainer asserts the number of inputs.
    want = 1 if learnt else 2
    if len(xs) != want:
        raise AssertionValueError(
            '{}: takes {} input{} ({}), got {}'.format(
                label, want, '' if want == 1 else 's',
                'x; {} is learnt'.format(name) if learnt
                else 'x and {}'.format(name), len(xs)))
