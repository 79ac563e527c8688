"""Stacked GRUs over sequences: :class:`NStepGRU`, :class:`NStepBiGRU`."""

from chainer.functions.rnn import n_step_gru as rnn
from chainer.links.rnn.n_step_rnn import NStepRNNBase


class NStepGRUBase(NStepRNNBase):
    """Base class of the stacked GRU links: six weights per layer and
    direction (``w0 .. w2`` on the input, ``w3 .. w5`` on the state, for
    the reset gate, the update gate and the candidate, see
    :func:`F.n_step_gru`)."""

    n_weights = 6

    def rnn(self, *args):
        fn = rnn.n_step_bigru if self.use_bi_direction else rnn.n_step_gru
        return fn(*args)


class NStepGRU(NStepGRUBase):
    """Stacked Uni-directional GRU for sequences.

    Args:
        n_layers (int): The number of layers.
        in_size (int): The input size.
        out_size (int): The hidden state size.
        dropout (float): The dropout ratio between layers.
        initialW: Initializer of the weights.
        initial_bias: Initializer of the biases (default 0).

    Call it as ``hy, ys = gru(hx, xs)`` (see
    :meth:`~chainer.links.rnn.n_step_rnn.NStepRNNBase.forward`).

    >>> import numpy as np
    >>> import chainer.links as L
    >>> gru = L.NStepGRU(2, 3, 4, 0.)
    >>> hy, ys = gru(None, [np.ones((5, 3), np.float32)])
    >>> hy.shape, ys[0].shape
    ((2, 1, 4), (5, 4))
    """
    use_bi_direction = False


class NStepBiGRU(NStepGRUBase):
    """Stacked Bi-directional GRU for sequences (outputs of both directions
    concatenated; ``hx`` is ``(2 * n_layers, batch, out_size)``).

    Arguments as :class:`NStepGRU`.
    """
    use_bi_direction = True
