"""``L.EmbedID``: the embedding (lookup table) layer."""

import chainer.functions as F
from chainer import initializers
from chainer import link
from chainer import variable


class EmbedID(link.Link):
    """Efficient linear layer for one-hot input: a lookup table.

    ``W`` has the shape ``(in_size, out_size)``; row ``x[i]`` of ``W`` is
    the output for the ID ``x[i]`` (see
    :func:`~chainer.functions.embed_id`).

    Args:
        in_size (int): Number of IDs (vocabulary size).
        out_size (int): Size of an embedding.
        initialW: Initializer of ``W`` (default
            :class:`~chainer.initializers.Normal` with scale 1).
        ignore_label (int or None): ID whose output is a zero vector.

    Attributes:
        W (~chainer.Parameter): Embedding matrix.

    >>> import numpy as np
    >>> emb = EmbedID(3, 2, initialW=np.arange(6.).reshape(3, 2))
    >>> emb(np.array([2, 0], np.int32)).array
    array([[4., 5.],
           [0., 1.]], dtype=float32)
    """

    ignore_label = None

    def __init__(self, in_size, out_size, initialW=None, ignore_label=None):
        super().__init__()
        self.ignore_label = ignore_label
        if initialW is None:
            initialW = initializers.Normal(1.0)
        with self.init_scope():
            self.W = variable.Parameter(
                initializers._get_initializer(initialW), (in_size, out_size))

    @classmethod
    def from_params(cls, W, ignore_label=None):
        """Makes the link with the array ``W`` as its initial weight."""
        # Variables (e.g. another link's parameters) give their arrays,
        # which the initializers copy.
        W = variable.as_array(W)
        in_size, out_size = W.shape
        return cls(in_size, out_size, initialW=W, ignore_label=ignore_label)

    def forward(self, x):
        """The embeddings of the IDs ``x`` (an int array of any shape)."""
        return F.embed_id(x, self.W, ignore_label=self.ignore_label)
