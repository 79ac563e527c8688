"""``L.Parameter``: a link that only holds one parameter."""

from chainer import link


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
        # made as add_param makes parameters (its gradient NaN-filled until
        # cleared, as every initialized parameter's), holding ``array``
        self.add_param('W', array.shape, dtype=array.dtype)
        self.W.array = array

    def forward(self, volatile='off'):
        """Returns the parameter ``W`` through the graph (two identity
        nodes, as Chainer: a new Variable whose gradient flows to ``W``;
        ``volatile`` is ignored, kept from Chainer v1)."""
        from chainer.functions.math.identity import identity
        return identity(identity(self.W))
