"""Stacked LSTMs over sequences: ``F.n_step_lstm`` and ``F.n_step_bilstm``.

Each step runs :func:`~chainer.functions.lstm` on the gate inputs, so the
eight weights of a layer are rearranged once per call into its interleaved
gate layout.
"""

from chainer import backend
from chainer.functions.array.reshape import reshape
from chainer.functions.array.stack import stack
from chainer.functions.connection.linear import linear
from chainer.functions.rnn.lstm import lstm
from chainer.functions.rnn.n_step_rnn import _array, _check_kwargs, _n_step
from chainer.functions._errors import names_bad_arguments


def _interleave(m):
    # n_step order i, f, a, o -> F.lstm's per-unit order a, i, f, o.
    return reshape(stack([m[2], m[0], m[1], m[3]], axis=1),
                   (-1,) + m[0].shape[1:])


def _prepare(w, b):
    return (_interleave(w[:4]), _interleave(b[:4]), _interleave(w[4:]),
            _interleave(b[4:]))


def _cell(x, h, c, params):
    w_x, b_x, w_h, b_h = params
    c, h = lstm(c, linear(x, w_x, b_x) + linear(h, w_h, b_h))
    return h, c


def _lstm(x, h, c, w, b):
    """One step of one layer: the layer's eight weights ``w`` and biases
    ``b`` as :func:`n_step_lstm` takes them; returns ``(h, c)``.

    Chainer's private name for it, which code built on Chainer calls to run
    an :class:`~chainer.links.NStepLSTM` one step at a time (chainerrl).
    """
    return _cell(x, h, c, _prepare(w, b))


def n_step_lstm_base(n_layers, dropout_ratio, hx, cx, ws, bs, xs,
                     use_bi_direction, **kwargs):
    """Base function of :func:`n_step_lstm` and :func:`n_step_bilstm`.

    Args:
        use_bi_direction (bool): Run each layer in both directions.

    Other arguments and the return value are those of :func:`n_step_lstm`.
    """
    name = 'n_step_bilstm' if use_bi_direction else 'n_step_lstm'
    _check_kwargs(name, kwargs)
    if cx is None and xs and ws and len(ws[0]):
        n = n_layers * (2 if use_bi_direction else 1)
        x0 = _array(xs[0])
        cx = backend.get_array_module(x0).zeros(
            (n, len(x0), ws[0][0].shape[0]), x0.dtype)
    return _n_step(name, n_layers, dropout_ratio, hx, cx, ws, bs, xs,
                   use_bi_direction, 8, _prepare, _cell)


@names_bad_arguments
def n_step_lstm(n_layers, dropout_ratio, hx, cx, ws, bs, xs, **kwargs):
    """Stacked Uni-directional Long Short-Term Memory function.

    For each layer and time step::

        i = sigmoid(W0 x + b0 + W4 h + b4)
        f = sigmoid(W1 x + b1 + W5 h + b5)
        a = tanh(W2 x + b2 + W6 h + b6)
        o = sigmoid(W3 x + b3 + W7 h + b7)
        c' = f * c + i * a
        h' = o * tanh(c')

    The input of layer ``k > 0`` is the output of layer ``k - 1``, with
    dropout applied in training mode.

    Args:
        n_layers (int): The number of layers.
        dropout_ratio (float): Dropout ratio of the inputs of the layers
            after the first.
        hx (~chainer.Variable or array): Initial hidden states,
            ``(n_layers, B, out_size)``; None for zeros.
        cx (~chainer.Variable or array): Initial cell states (as ``hx``).
        ws (list of list of ~chainer.Variable): ``ws[k]`` holds the eight
            weights of layer ``k``: ``W0..W3`` ``(out_size, in_size)`` (for
            ``k > 0``, ``in_size`` is ``out_size``) and ``W4..W7``
            ``(out_size, out_size)``.
        bs (list of list of ~chainer.Variable): ``bs[k]``: eight biases,
            each ``(out_size,)``.
        xs (list of ~chainer.Variable): Time-major inputs: ``xs[t]`` is
            ``(B_t, in_size)``, ``B_t`` non-increasing in ``t``.

    Returns:
        tuple: ``(hy, cy, ys)``: the last hidden and cell states
        ``(n_layers, B, out_size)`` (each sequence's own last step) and the
        tuple of the last layer's outputs, ``ys[t]`` ``(B_t, out_size)``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> z = np.zeros((1, 1), np.float32)
    >>> ws = [[z] * 8]
    >>> bs = [[np.zeros(1, np.float32)] * 8]
    >>> xs = [np.ones((2, 1), np.float32)]
    >>> hy, cy, ys = F.n_step_lstm(1, 0., None, None, ws, bs, xs)
    >>> hy.shape, cy.shape, len(ys), ys[0].shape
    ((1, 2, 1), (1, 2, 1), 1, (2, 1))
    """
    return n_step_lstm_base(n_layers, dropout_ratio, hx, cx, ws, bs, xs,
                            False, **kwargs)


@names_bad_arguments
def n_step_bilstm(n_layers, dropout_ratio, hx, cx, ws, bs, xs, **kwargs):
    """Stacked Bi-directional Long Short-Term Memory function.

    As :func:`n_step_lstm`, with each layer run forwards and backwards in
    time; the outputs of both directions are concatenated (forward first),
    so the layers after the first take ``2 * out_size`` inputs.

    Args:
        n_layers (int): The number of layers.
        dropout_ratio (float): Dropout ratio of the inputs of the layers
            after the first.
        hx, cx (~chainer.Variable or array): ``(2 * n_layers, B,
            out_size)``; index ``2 * k`` is the forward and ``2 * k + 1``
            the backward direction of layer ``k``. None for zeros.
        ws, bs (list of list of ~chainer.Variable): ``ws[2 * k + d]`` and
            ``bs[2 * k + d]`` are those of direction ``d`` of layer ``k``,
            laid out as in :func:`n_step_lstm`.
        xs (list of ~chainer.Variable): Time-major inputs.

    Returns:
        tuple: ``(hy, cy, ys)``, ``hy`` and ``cy`` of ``hx``'s shape and
        ``ys[t]`` of shape ``(B_t, 2 * out_size)``.
    """
    return n_step_lstm_base(n_layers, dropout_ratio, hx, cx, ws, bs, xs,
                            True, **kwargs)
