"""Converters of the recurrent units: ``F.lstm`` unrolled (one step, one
subgraph), and the ``F.n_step_*`` functions as ONNX's LSTM, GRU and RNN."""

import contextlib
import threading

import numpy

import chainer
from onnx_chainer.functions._base import converts
from onnx_chainer.replace_func import WrappedFunctionNode, _leaves, _map


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


# --- F.n_step_* as ONNX LSTM / GRU / RNN nodes --------------------------------
#
# chainer-ng composes F.n_step_lstm and its siblings from small functions, so
# the trace holds the unrolled loop. During an export, native_rnns() replaces
# the functions they share (n_step_*_base, looked up by module name at each
# call) with ones that run the same code inside one WrappedFunctionNode, so
# the trace holds one node per call, which the converters below write as
# ONNX's own recurrent nodes, one per layer. A call that ONNX cannot express
# (dropout in training mode, a dtype onnxruntime has no kernel for) runs the
# original function and is exported unrolled.

# function -> (its module, converter name, the ONNX op, weight order)
_NATIVE = {
    'n_step_lstm_base': ('chainer.functions.rnn.n_step_lstm', 'NStepLSTM'),
    'n_step_gru_base': ('chainer.functions.rnn.n_step_gru', 'NStepGRU'),
    'n_step_rnn_base': ('chainer.functions.rnn.n_step_rnn', 'NStepRNN'),
}
_N_WEIGHTS = {'NStepLSTM': 8, 'NStepGRU': 6, 'NStepRNN': 2}


_exporting = threading.local()  # .input_ids while this thread exports
_lock = threading.Lock()
_installed = []                  # (module, name, original) while in use
_blocks = [0]                    # the blocks in flight, in all threads


@contextlib.contextmanager
def native_rnns(graph_inputs=()):
    """Within the block, each call of ``F.n_step_lstm``, ``n_step_gru``,
    ``n_step_rnn`` (and the ``bi`` ones, and the ``NStep*`` links) in this
    thread applies one FunctionNode (``NStepLSTM``, ``NStepGRU``,
    ``NStepRNN``). The functions are replaced while any thread is in such
    a block; other threads' calls run the originals.

    Args:
        graph_inputs: The Variables that are inputs of the exported graph
            (an all-zero initial state that is not one of them is a
            constant, exported as ONNX's default zero state).
    """
    with _lock:
        if not _installed:
            import importlib
            for attr, (module_name, key) in _NATIVE.items():
                module = importlib.import_module(module_name)
                original = getattr(module, attr)
                _installed.append((module, attr, original))
                setattr(module, attr, _native(original, key))
        _blocks[0] += 1
    outer = getattr(_exporting, 'input_ids', None)
    _exporting.input_ids = {id(v) for v in graph_inputs}
    try:
        yield
    finally:
        _exporting.input_ids = outer
        with _lock:
            _blocks[0] -= 1
            if not _blocks[0]:
                for module, attr, original in _installed:
                    setattr(module, attr, original)
                del _installed[:]


def _native(original, key):
    import inspect
    signature = inspect.signature(original)

    def call(*args, **kwargs):
        input_ids = getattr(_exporting, 'input_ids', None)
        try:
            a = signature.bind(*args, **kwargs).arguments
        except TypeError:
            a = None
        if input_ids is None or a is None or a.get('kwargs') or \
                not _expressible(a):
            return original(*args, **kwargs)
        a = dict(a)
        for s in ('hx', 'cx'):
            if s in a:
                a[s] = None if _zero_constant(a[s], input_ids) else \
                    chainer.as_variable(a[s])
        a['ws'] = [[chainer.as_variable(w) for w in ws] for ws in a['ws']]
        a['bs'] = [[chainer.as_variable(b) for b in bs] for bs in a['bs']]
        a['xs'] = [chainer.as_variable(x) for x in a['xs']]
        attributes = {
            'n_layers': a['n_layers'], 'n_weights': _N_WEIGHTS[key],
            'use_bi_direction': bool(a['use_bi_direction']),
            'activation': a.get('activation', 'tanh'),
            'has_hx': a.get('hx') is not None,
            'has_cx': a.get('cx') is not None}
        node = WrappedFunctionNode(key, original, (), a, attributes)
        inputs = [v for v in _leaves(a) if isinstance(v, chainer.Variable)]
        outputs = iter(node.apply(inputs))
        return _map(node.skeleton, lambda _: next(outputs))

    call.__wrapped__ = original
    return call


def _expressible(a):
    xs = a.get('xs')
    if not xs or not isinstance(xs, (list, tuple)):
        return False  # (the original says what is wrong)
    # onnxruntime has no float64 LSTM, GRU or RNN kernel (1.32), and its
    # float16 ones round differently from the unrolled float16 ops; the
    # unrolled graph runs in any dtype.
    if chainer.as_array(xs[0]).dtype != numpy.float32:
        return False
    # Dropout between layers draws a mask at random: unrolled, it is the
    # Dropout converter's business.
    return not (chainer.config.train and a['dropout_ratio'] > 0)


def _zero_constant(h, input_ids):
    if h is None:
        return True
    if isinstance(h, chainer.Variable):
        if h.creator_node is not None or id(h) in input_ids or \
                isinstance(h, chainer.Parameter):
            return False
        h = h.array
    return not h.any()


# ONNX gate orders: LSTM i, o, f, c; GRU z, r, h. Chainer's: LSTM i, f, a,
# o (W0..W3 on the input, W4..W7 on the state); GRU r, z, n (W0..W2, W3..W5).
_ORDERS = {
    'NStepLSTM': ('LSTM', (0, 3, 1, 2), (4, 7, 5, 6)),
    'NStepGRU': ('GRU', (1, 0, 2), (4, 3, 5)),
    'NStepRNN': ('RNN', (0,), (1,)),
}


@converts('NStepLSTM', 'NStepGRU', 'NStepRNN')
def n_step(p, g):
    """``(hx, [cx,] ws..., bs..., xs...) -> (hy, [cy,] ys...)``: one ONNX
    node per layer (both directions in one node). The time-major batches
    ``xs[t]`` (``B_t`` rows, not increasing) are padded into one ``(T, B,
    in)`` tensor with ``sequence_lens``; the outputs are cut back."""
    f = p.func
    op_type, w_order, r_order = _ORDERS[p.key]
    dirs = 2 if f.use_bi_direction else 1
    n = f.n_layers * dirs
    names = list(p.input_names)
    shapes = list(p.in_shapes)
    hx = names.pop(0) if f.has_hx else None
    cx = names.pop(0) if f.has_cx else None
    del shapes[:int(f.has_hx) + int(f.has_cx)]
    m = n * f.n_weights
    ws = [names[k * f.n_weights:(k + 1) * f.n_weights] for k in range(n)]
    bs = [names[m + k * f.n_weights:m + (k + 1) * f.n_weights]
          for k in range(n)]
    xs, sizes = names[2 * m:], [s[0] for s in shapes[2 * m:]]
    hidden = shapes[0][0]
    dtype = p.in_dtypes[-1]
    batch, steps = sizes[0], len(sizes)

    rows = []
    for x, b in zip(xs, sizes):
        if b < batch:
            x = g.pad(x, [0, 0, batch - b, 0], 'constant', 0, dtype)
        rows.append(g.unsqueeze(x, [0]))
    h = g.emit('Concat', rows, axis=0) if steps > 1 else rows[0]
    lens = ''
    if sizes[-1] < batch:
        lens = g.const(numpy.array(
            [sum(s > b for s in sizes) for b in range(batch)], numpy.int32))

    attrs = {'hidden_size': hidden,
             'direction': 'bidirectional' if dirs == 2 else 'forward'}
    if op_type == 'GRU':
        attrs['linear_before_reset'] = 1  # r scales (W5 h + b5), as Chainer
    if op_type == 'RNN':
        attrs['activations'] = [f.activation.capitalize()] * dirs
    n_out = 3 if op_type == 'LSTM' else 2
    finals = [[] for _ in range(n_out - 1)]
    for layer in range(f.n_layers):
        ks = range(layer * dirs, (layer + 1) * dirs)
        w = _directions(g, [[ws[k][j] for j in w_order] for k in ks])
        r = _directions(g, [[ws[k][j] for j in r_order] for k in ks])
        b = _directions(g, [[bs[k][j] for j in w_order + r_order]
                            for k in ks])
        inputs = [h, w, r, b, lens]
        for state in (hx, cx)[:n_out - 1]:
            if state is not None and f.n_layers > 1:
                state = g.slice(state, [ks[0]], [ks[-1] + 1], [0])
            inputs.append(state or '')
        while not inputs[-1]:
            inputs.pop()
        y, *states = g.emit(op_type, inputs, num_outputs=n_out, **attrs)
        for final, state in zip(finals, states):
            final.append(state)
        # (T, dirs, B, H) -> (T, B, dirs * H), the directions side by side
        if dirs == 1:
            h = g.squeeze(y, [1])
        else:
            h = g.reshape(g.transpose(y, (0, 2, 1, 3)),
                          (steps, batch, dirs * hidden))

    outs = list(p.output_names)
    for final in finals:
        name = [outs.pop(0)]
        if len(final) == 1:
            g.emit('Identity', final, out=name)
        else:
            g.emit('Concat', final, out=name, axis=0)
    for t, (name, b) in enumerate(zip(outs, sizes)):
        index = g.scalar(t, numpy.int64)
        if b == batch:
            g.emit('Gather', [h, index], out=[name], axis=0)
        else:
            g.slice(g.emit('Gather', [h, index], axis=0), [0], [b], [0],
                    out=[name])


def _directions(g, pieces):
    """The ``(dirs, ...)`` tensor of each direction's pieces concatenated
    along axis 0."""
    per_dir = [p[0] if len(p) == 1 else g.emit('Concat', p, axis=0)
               for p in pieces]
    per_dir = [g.unsqueeze(t, [0]) for t in per_dir]
    return per_dir[0] if len(per_dir) == 1 else \
        g.emit('Concat', per_dir, axis=0)
