"""``L.Parameter``: a link that only holds one parameter."""

from chainer import link
from chainer import variable


class Parameter(link.Link):
    """Link that just holds a parameter and returns it.

    Useful to put a free array into a model so that an optimizer updates
    it.

    Args:
        array: The initial array of the parameter ``W``.

    >>> import numpy as np
    >>> p = Parameter(np.zeros(2, np.float32))
    >>> p().array
    array([0., 0.], dtype=float32)
    """

    def __init__(self, array):
        super().__init__()
        with self.init_scope():
            self.W = variable.Parameter(array)

    def forward(self, volatile='off'):
        """Returns the parameter ``W`` (``volatile`` is ignored, kept from
        Chainer v1)."""
        return self.W
