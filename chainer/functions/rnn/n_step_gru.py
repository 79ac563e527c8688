"""Stacked GRUs over sequences: ``F.n_step_gru`` and ``F.n_step_bigru``."""

from chainer.functions.activation.sigmoid import sigmoid
from chainer.functions.activation.tanh import tanh
from chainer.functions.array.split_axis import split_axis
from chainer.functions.array.concat import concat
from chainer.functions.connection.linear import linear
from chainer.functions.rnn.n_step_rnn import _check_kwargs, _n_step
from chainer.functions._errors import names_bad_arguments


def _prepare(w, b):
    return (concat(w[:3], axis=0), concat(b[:3], axis=0),
            concat(w[3:], axis=0), concat(b[3:], axis=0))


def _cell(x, h, c, params):
    w_x, b_x, w_h, b_h = params
    xr, xz, xn = split_axis(linear(x, w_x, b_x), 3, axis=1)
    hr, hz, hn = split_axis(linear(h, w_h, b_h), 3, axis=1)
    r = sigmoid(xr + hr)
    z = sigmoid(xz + hz)
    n = tanh(xn + r * hn)
    return (1 - z) * n + z * h, None


def n_step_gru_base(n_layers, dropout_ratio, hx, ws, bs, xs,
                    use_bi_direction, **kwargs):
    """Base function of :func:`n_step_gru` and :func:`n_step_bigru`.

    Args:
        use_bi_direction (bool): Run each layer in both directions.

    Other arguments and the return value are those of :func:`n_step_gru`.
    """
    name = 'n_step_bigru' if use_bi_direction else 'n_step_gru'
    _check_kwargs(name, kwargs)
    hy, _, ys = _n_step(name, n_layers, dropout_ratio, hx, None, ws, bs, xs,
                        use_bi_direction, 6, _prepare, _cell)
    return hy, ys


@names_bad_arguments
def n_step_gru(n_layers, dropout_ratio, hx, ws, bs, xs, **kwargs):
    """Stacked Uni-directional Gated Recurrent Unit function.

    For each layer and time step::

        r = sigmoid(W0 x + b0 + W3 h + b3)
        z = sigmoid(W1 x + b1 + W4 h + b4)
        n = tanh(W2 x + b2 + r * (W5 h + b5))
        h' = (1 - z) * n + z * h

    The input of layer ``k > 0`` is the output of layer ``k - 1``, with
    dropout applied in training mode.

    Args:
        n_layers (int): The number of layers.
        dropout_ratio (float): Dropout ratio of the inputs of the layers
            after the first.
        hx (~chainer.Variable or array): Initial hidden states,
            ``(n_layers, B, out_size)``; None for zeros.
        ws (list of list of ~chainer.Variable): ``ws[k]`` holds the six
            weights of layer ``k``: ``W0..W2`` ``(out_size, in_size)`` (for
            ``k > 0``, ``in_size`` is ``out_size``) and ``W3..W5``
            ``(out_size, out_size)``.
        bs (list of list of ~chainer.Variable): ``bs[k]``: six biases, each
            ``(out_size,)``.
        xs (list of ~chainer.Variable): Time-major inputs: ``xs[t]`` is
            ``(B_t, in_size)``, ``B_t`` non-increasing in ``t``.

    Returns:
        tuple: ``(hy, ys)``: the last hidden states ``(n_layers, B,
        out_size)`` (each sequence's own last step) and the tuple of the
        last layer's outputs, ``ys[t]`` ``(B_t, out_size)``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> ws = [[np.zeros((1, 1), np.float32)] * 6]
    >>> bs = [[np.zeros(1, np.float32)] * 6]
    >>> hx = np.ones((1, 1, 1), np.float32)
    >>> hy, ys = F.n_step_gru(1, 0., hx, ws, bs, [np.ones((1, 1), 'f')])
    >>> hy.array  # z = 0.5, n = 0: halfway to 0
    array([[[0.5]]], dtype=float32)
    """
    return n_step_gru_base(n_layers, dropout_ratio, hx, ws, bs, xs, False,
                           **kwargs)


@names_bad_arguments
def n_step_bigru(n_layers, dropout_ratio, hx, ws, bs, xs, **kwargs):
    """Stacked Bi-directional Gated Recurrent Unit function.

    As :func:`n_step_gru`, with each layer run forwards and backwards in
    time; the outputs of both directions are concatenated (forward first),
    so the layers after the first take ``2 * out_size`` inputs.

    Args:
        n_layers (int): The number of layers.
        dropout_ratio (float): Dropout ratio of the inputs of the layers
            after the first.
        hx (~chainer.Variable or array): ``(2 * n_layers, B, out_size)``;
            ``hx[2 * k]`` is the forward and ``hx[2 * k + 1]`` the backward
            direction of layer ``k``. None for zeros.
        ws, bs (list of list of ~chainer.Variable): ``ws[2 * k + d]`` and
            ``bs[2 * k + d]`` are those of direction ``d`` of layer ``k``,
            laid out as in :func:`n_step_gru`.
        xs (list of ~chainer.Variable): Time-major inputs.

    Returns:
        tuple: ``(hy, ys)``, ``hy`` of ``hx``'s shape and ``ys[t]`` of
        shape ``(B_t, 2 * out_size)``.
    """
    return n_step_gru_base(n_layers, dropout_ratio, hx, ws, bs, xs, True,
                           **kwargs)
