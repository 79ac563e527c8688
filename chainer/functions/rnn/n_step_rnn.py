"""Stacked RNNs over sequences: ``F.n_step_rnn`` and ``F.n_step_birnn``,
and the loop they share with the LSTM and GRU variants.

The inputs are time-major: ``xs[t]`` holds the batch at time ``t``,
``(B_t, in_size)``, with ``B_t`` non-increasing (sequences sorted by length,
longest first, then transposed, e.g. with ``F.transpose_sequence``).
Each step adds the input and hidden projections (each with its bias), in
Chainer's order, so float results match it bit for bit. Rows of finished sequences keep their last
hidden state (their initial one, going backwards), which ends up in ``hy``.
"""

from chainer import backend
from chainer.functions.activation.relu import relu
from chainer.functions.activation.tanh import tanh
from chainer.functions.array.concat import concat
from chainer.functions.array.stack import stack
from chainer.functions.connection.linear import linear
from chainer.utils import argument
from chainer.variable import Variable
from chainer.functions._errors import chainer_text, names_bad_arguments


def _check_kwargs(func_name, kwargs):
    for name in ('train', 'use_cudnn'):
        if name in kwargs:
            raise ValueError('{} argument is not supported anymore. Use '
                             'chainer.using_config'.format(name))
    if kwargs:  # Chainer's text
        raise argument.unexpected_error('assert_kwargs_empty', kwargs)


def _array(x):
    return x.array if isinstance(x, Variable) else x


def _check(func_name, n_layers, directions, hx, cx, ws, bs, xs, n_w):
    if not xs:
        raise ValueError('{}: xs must hold at least one time step'.format(
            func_name))
    sizes = [len(x) for x in xs]
    if any(a < b for a, b in zip(sizes, sizes[1:])):
        raise ValueError(
            '{}: the batch sizes of xs must not increase with time (sort the '
            'sequences by length, longest first), got {}'.format(
                func_name, sizes))
    if not isinstance(n_layers, int) or n_layers < 1:
        raise ValueError('{}: n_layers must be a positive int, got {!r}'
                         .format(func_name, n_layers))
    n = n_layers * directions
    if len(ws) != n or len(bs) != n:
        raise ValueError(
            '{}: ws and bs must hold n_layers * {} = {} lists of weights, '
            'got {} and {}'.format(func_name, directions, n, len(ws),
                                   len(bs)))
    out = ws[0][0].shape[0] if len(ws[0]) else 0
    batch = sizes[0]
    if len(ws[0]) and ws[0][0].ndim == 2 and xs[0].ndim == 2 and \
            xs[0].shape[1] != ws[0][0].shape[1]:
        # Chainer's text for the most common mistake: a wrong in_size.
        raise chainer_text(ValueError(
            'Inconsistent input size in input values and weight '
            'parameters: {} != {}'.format(xs[0].shape[1], ws[0][0].shape[1])))
    for name, h in (('hx', hx), ('cx', cx)):
        if h is not None and h.shape != (n, batch, out):
            raise ValueError(
                '{}: {} must have the shape (n_layers * {}, len(xs[0]), '
                'out_size) = {}, got {}'.format(
                    func_name, name, directions, (n, batch, out), h.shape))
    for k, (w, b) in enumerate(zip(ws, bs)):
        if len(w) != n_w or len(b) != n_w:
            raise ValueError(
                '{}: ws[{}] and bs[{}] must hold {} arrays each, got {} and '
                '{}'.format(func_name, k, k, n_w, len(w), len(b)))
        in_size = xs[0].shape[1] if k < directions else out * directions
        for j in range(n_w):
            expect = (out, in_size if j < n_w // 2 else out)
            if w[j].shape != expect:
                raise ValueError(
                    '{}: ws[{}][{}] must have the shape {}, got {}'.format(
                        func_name, k, j, expect, w[j].shape))
            if b[j].shape != (out,):
                raise ValueError(
                    '{}: bs[{}][{}] must have the shape {}, got {}'.format(
                        func_name, k, j, (out,), b[j].shape))
    return sizes, out


def _n_step(func_name, n_layers, dropout_ratio, hx, cx, ws, bs, xs,
            use_bi_direction, n_w, prepare, cell):
    """The stacked, optionally bidirectional, recurrent loop.

    ``prepare(w, b)`` turns the weights and biases of one direction of a
    layer into the parameters of ``cell(x_t, h, c, params) -> (h_new,
    c_new)``, one time step on the rows present at that time (``c`` is
    None for cell-less RNNs).  The arithmetic follows Chainer's order (the
    input and hidden projections, each with its bias, are added per step),
    so float results match it bit for bit.
    """
    if not 0 <= dropout_ratio < 1:
        raise ValueError('{}: dropout_ratio must be in [0, 1), got '
                         '{}'.format(func_name, dropout_ratio))
    from chainer.functions.noise.dropout import dropout
    directions = 2 if use_bi_direction else 1
    sizes, out = _check(func_name, n_layers, directions, hx, cx, ws, bs, xs,
                        n_w)
    xp = backend.get_array_module(_array(xs[0]))
    dtype = _array(xs[0]).dtype
    n = n_layers * directions
    if hx is None:
        hx = xp.zeros((n, sizes[0], out), dtype)
    hy, cy = [], []
    xs = list(xs)
    for layer in range(n_layers):
        outs = []
        for d in range(directions):
            k = layer * directions + d
            params = prepare(ws[k], bs[k])
            h, c = hx[k], None if cx is None else cx[k]
            ys_d = []
            xs_d = xs
            if layer > 0:
                # each direction drops its own copy of the input (as
                # Chainer draws its masks, even at ratio 0)
                xs_d = [dropout(x, dropout_ratio) for x in xs]
            for x in (xs_d[::-1] if d else xs_d):
                y, h, c = _time_step(cell, params, x, h, c)
                ys_d.append(y)
            if d:
                ys_d.reverse()
            hy.append(h)
            cy.append(c)
            outs.append(ys_d)
        if directions == 1:
            xs = outs[0]
        else:
            xs = [concat([f, r], axis=1) for f, r in zip(*outs)]
    hy = stack(hy)
    cy = stack(cy) if cx is not None else None
    return hy, cy, tuple(xs)


def _time_step(cell, params, x, h, c):
    """One step on the first ``len(x)`` rows: ``(y, h, c)``, the output and
    the new states; the finished rows keep theirs (split off and joined
    back, as Chainer does)."""
    from chainer.functions.array.split_axis import split_axis
    b = len(x)
    if b == len(h):
        h, c = cell(x, h, c, params)
        return h, h, c
    h, h_rest = split_axis(h, [b], axis=0)
    if c is not None:
        c, c_rest = split_axis(c, [b], axis=0)
    y, c = cell(x, h, c, params)
    h = concat([y, h_rest], axis=0)
    if c is not None:
        c = concat([c, c_rest], axis=0)
    return y, h, c


_ACTIVATIONS = {'tanh': tanh, 'relu': relu}


def n_step_rnn_base(n_layers, dropout_ratio, hx, ws, bs, xs, activation,
                    use_bi_direction, **kwargs):
    """Base function of :func:`n_step_rnn` and :func:`n_step_birnn`.

    Args:
        use_bi_direction (bool): Run each layer in both directions.

    Other arguments and the return value are those of :func:`n_step_rnn`.
    """
    name = 'n_step_birnn' if use_bi_direction else 'n_step_rnn'
    _check_kwargs(name, kwargs)
    if activation not in _ACTIVATIONS:
        raise chainer_text(ValueError(
            'Invalid activation: "{}". Please select from '
            '[tanh,relu]'.format(activation)))
    act = _ACTIVATIONS[activation]

    def cell(x, h, c, params):
        w, b = params
        return act(linear(x, w[0], b[0]) + linear(h, w[1], b[1])), None

    hy, _, ys = _n_step(name, n_layers, dropout_ratio, hx, None, ws, bs, xs,
                        use_bi_direction, 2, lambda w, b: (w, b), cell)
    return hy, ys


@names_bad_arguments
def n_step_rnn(n_layers, dropout_ratio, hx, ws, bs, xs, activation='tanh',
               **kwargs):
    """Stacked Uni-directional RNN function for sequence inputs.

    For each layer, ``h_t = f(W0 x_t + b0 + W1 h_{t-1} + b1)``, with ``f``
    tanh or relu. The input of layer ``k > 0`` is the output of layer
    ``k - 1``, with dropout applied in training mode.

    Args:
        n_layers (int): The number of layers.
        dropout_ratio (float): Dropout ratio of the inputs of the layers
            after the first.
        hx (~chainer.Variable or array): Initial hidden states,
            ``(n_layers, B, out_size)``; None for zeros.
        ws (list of list of ~chainer.Variable): ``ws[k]`` holds the weights
            of layer ``k``: ``[W0 (out_size, in_size), W1 (out_size,
            out_size)]`` (``in_size`` is ``out_size`` for ``k > 0``).
        bs (list of list of ~chainer.Variable): ``bs[k] = [b0, b1]``, each
            ``(out_size,)``.
        xs (list of ~chainer.Variable): Time-major inputs: ``xs[t]`` is
            ``(B_t, in_size)``, ``B_t`` non-increasing in ``t``.
        activation (str): ``'tanh'`` or ``'relu'``.

    Returns:
        tuple: ``(hy, ys)``: the last hidden states ``(n_layers, B,
        out_size)`` (each sequence's own last step) and the tuple of the
        last layer's outputs, ``ys[t]`` of shape ``(B_t, out_size)``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> ws = [[np.ones((1, 1), np.float32), np.zeros((1, 1), np.float32)]]
    >>> bs = [[np.zeros(1, np.float32)] * 2]
    >>> xs = [np.array([[100.], [-100.]], np.float32)]
    >>> hy, ys = F.n_step_rnn(1, 0., None, ws, bs, xs)
    >>> ys[0].array
    array([[ 1.],
           [-1.]], dtype=float32)
    """
    return n_step_rnn_base(n_layers, dropout_ratio, hx, ws, bs, xs,
                           activation, False, **kwargs)


@names_bad_arguments
def n_step_birnn(n_layers, dropout_ratio, hx, ws, bs, xs, activation='tanh',
                 **kwargs):
    """Stacked Bi-directional RNN function for sequence inputs.

    As :func:`n_step_rnn`, with each layer run forwards and backwards in
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
            laid out as in :func:`n_step_rnn`.
        xs (list of ~chainer.Variable): Time-major inputs.
        activation (str): ``'tanh'`` or ``'relu'``.

    Returns:
        tuple: ``(hy, ys)``, ``hy`` of ``hx``'s shape and ``ys[t]`` of
        shape ``(B_t, 2 * out_size)``.
    """
    return n_step_rnn_base(n_layers, dropout_ratio, hx, ws, bs, xs,
                           activation, True, **kwargs)
