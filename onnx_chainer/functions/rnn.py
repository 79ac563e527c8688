"""Converters of the recurrent units (unrolled: one step, one subgraph)."""

from onnx_chainer.functions._base import converts


@converts('LSTM', inputs=('c_prev', 'x'))
def lstm(p, g):
    """``(c_prev, x) -> (c, h)``. The gates of x are interleaved: unit j's
    a, i, f, o are x[:, 4j:4j + 4]."""
    c_prev, x = p.input_names
    (n_c, units), x_shape = p.in_shapes[0][:2], p.in_shapes[1]
    n = x_shape[0]
    rest = tuple(x_shape[2:])
    gates = g.split(g.reshape(x, (n, units, 4) + rest), [1, 1, 1, 1], 2)
    a, i, f, o = [g.squeeze(t, [2]) for t in gates]
    a = g.emit('Tanh', [a])
    i, f, o = [g.emit('Sigmoid', [t]) for t in (i, f, o)]
    if n < n_c:  # the rows of c past the batch of x pass through
        c_tail = g.slice(c_prev, [n], [n_c], [0])
        c_prev = g.slice(c_prev, [0], [n], [0])
    c = g.emit('Add', [g.emit('Mul', [a, i]), g.emit('Mul', [f, c_prev])])
    c_name, h_name = p.output_names
    g.emit('Mul', [o, g.emit('Tanh', [c])], out=[h_name])
    if n < n_c:
        g.emit('Concat', [c, c_tail], out=[c_name], axis=0)
    else:
        g.emit('Identity', [c], out=[c_name])
