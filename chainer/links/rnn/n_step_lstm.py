"""Stacked LSTMs over sequences: :class:`NStepLSTM`, :class:`NStepBiLSTM`."""

from chainer.functions.rnn import n_step_lstm as rnn
from chainer.links.rnn.n_step_rnn import NStepRNNBase


class NStepLSTMBase(NStepRNNBase):
    """Base class of the stacked LSTM links: eight weights per layer and
    direction (``w0 .. w3`` on the input, ``w4 .. w7`` on the state, for
    the gates ``i, f, a, o``, see :func:`F.n_step_lstm`)."""

    n_weights = 8

    @property
    def n_cells(self):
        return 2

    def rnn(self, *args):
        fn = rnn.n_step_bilstm if self.use_bi_direction else rnn.n_step_lstm
        return fn(*args)

    def forward(self, hx, cx, xs, **kwargs):
        """Runs the LSTM.

        Args:
            hx (~chainer.Variable or None): The initial hidden states
                ``(n_layers * direction, len(xs), out_size)`` (None:
                zeros).
            cx (~chainer.Variable or None): The initial cell states, alike.
            xs (list of ~chainer.Variable): The sequences, each
                ``(length, in_size)``, in any order.

        Returns:
            tuple: ``(hy, cy, ys)``: the final hidden and cell states (as
            ``hx``) and the list of outputs, each
            ``(length, direction * out_size)``, in the order of ``xs``.
        """
        (hy, cy), ys = self._call([hx, cx], xs, **kwargs)
        return hy, cy, ys


class NStepLSTM(NStepLSTMBase):
    """Stacked Uni-directional LSTM for sequences.

    Args:
        n_layers (int): The number of layers.
        in_size (int): The input size.
        out_size (int): The hidden state size.
        dropout (float): The dropout ratio between layers.
        initialW: Initializer of the weights.
        initial_bias: Initializer of the biases (default 0).

    >>> import numpy as np
    >>> import chainer.links as L
    >>> lstm = L.NStepLSTM(1, 3, 2, 0.)
    >>> xs = [np.ones((2, 3), np.float32), np.ones((4, 3), np.float32)]
    >>> hy, cy, ys = lstm(None, None, xs)
    >>> hy.shape, cy.shape, [y.shape for y in ys]
    ((1, 2, 2), (1, 2, 2), [(2, 2), (4, 2)])
    """
    use_bi_direction = False


class NStepBiLSTM(NStepLSTMBase):
    """Stacked Bi-directional LSTM for sequences (outputs of both
    directions concatenated; ``hx`` and ``cx`` are
    ``(2 * n_layers, batch, out_size)``).

    Arguments as :class:`NStepLSTM`.
    """
    use_bi_direction = True
