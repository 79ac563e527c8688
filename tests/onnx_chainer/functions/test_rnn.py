import numpy
import pytest

import chainer.functions as F
from onnx_harness import LATEST, Fn, check, rand


@pytest.mark.parametrize('batch', [3, 2])
def test_lstm(batch):
    # (a smaller batch of x leaves the last rows of c as they are)
    model = Fn(lambda c, x: F.lstm(c, x))
    check(model, (rand(3, 4), rand(batch, 16)), atol=1e-5)


def test_lstm_more_axes():
    check(Fn(lambda c, x: F.lstm(c, x)), (rand(2, 3, 2), rand(2, 12, 2)),
          atol=1e-5)


def test_lstm_zero_state():
    c = numpy.zeros((2, 3), numpy.float32)
    check(Fn(lambda x: F.lstm(c, x)[1]), rand(2, 12), atol=1e-5)


# --- F.n_step_*: native ONNX LSTM / GRU / RNN nodes ----------------------------

_N_W = {F.n_step_lstm: 8, F.n_step_bilstm: 8, F.n_step_gru: 6,
        F.n_step_bigru: 6, F.n_step_rnn: 2, F.n_step_birnn: 2}
_OP = {8: 'LSTM', 6: 'GRU', 2: 'RNN'}


def _weights(n_layers, dirs, n_w, in_size, out_size):
    ws, bs = [], []
    for k in range(n_layers * dirs):
        n_in = in_size if k < dirs else out_size * dirs
        ws.append([rand(out_size, n_in if j < n_w // 2 else out_size,
                        scale=0.5) for j in range(n_w)])
        bs.append([rand(out_size, scale=0.5) for _ in range(n_w)])
    return ws, bs


@pytest.mark.parametrize('fn', list(_N_W))
@pytest.mark.parametrize('n_layers,sizes,given', [
    (1, (3, 3, 3), False),        # equal lengths, zero states
    (2, (4, 3, 3, 1), True),      # ragged, initial states given
    (2, (2, 1), False),           # ragged, zero states
])
def test_n_step(fn, n_layers, sizes, given):
    n_w = _N_W[fn]
    dirs = 2 if fn.__name__.startswith('n_step_bi') else 1
    lstm = n_w == 8
    ws, bs = _weights(n_layers, dirs, n_w, 3, 4)
    xs = [rand(b, 3) for b in sizes]
    states = [rand(n_layers * dirs, sizes[0], 4) for _ in range(1 + lstm)]

    def forward(*args):
        hs = list(args[:len(states)]) if given else [None] * len(states)
        xs = args[len(states):] if given else args
        out = fn(n_layers, 0.0, *hs, ws, bs, list(xs))
        return out[:-1] + tuple(out[-1])

    args = tuple(states) + tuple(xs) if given else tuple(xs)
    onnx_model = check(Fn(forward), args, opsets=(7, 14, LATEST), atol=1e-5)
    ops = [n.op_type for n in onnx_model.graph.node]
    assert ops.count(_OP[n_w]) == n_layers
    # The weights are the function's (given as arrays): one initializer each.
    assert len(onnx_model.graph.initializer) == 2 * n_w * n_layers * dirs


def test_n_step_lstm_hx_only():
    # hx given, cx absent (ONNX's zero initial_c).
    ws, bs = _weights(1, 1, 8, 3, 4)

    def forward(hx, *xs):
        hy, cy, ys = F.n_step_lstm(1, 0.0, hx, None, ws, bs, list(xs))
        return (hy, cy) + ys

    check(Fn(forward), (rand(1, 2, 4), rand(2, 3), rand(1, 3)),
          opsets=(7, LATEST), atol=1e-5)


def test_n_step_unrolled_where_onnx_cannot():
    # float64: onnxruntime has no float64 LSTM kernel: exported unrolled.
    ws, bs = _weights(1, 1, 8, 3, 4)
    ws = [[w.astype(numpy.float64) for w in k] for k in ws]
    bs = [[b.astype(numpy.float64) for b in k] for k in bs]

    def forward(*xs):
        hy, cy, ys = F.n_step_lstm(1, 0.0, None, None, ws, bs, list(xs))
        return (hy,) + ys

    xs = (rand(2, 3, dtype=numpy.float64), rand(1, 3, dtype=numpy.float64))
    onnx_model = check(Fn(forward), xs, opsets=(LATEST,), atol=1e-5)
    assert 'LSTM' not in {n.op_type for n in onnx_model.graph.node}
    # The patch is gone after the export.
    from chainer.functions.rnn import n_step_lstm
    assert not hasattr(n_step_lstm.n_step_lstm_base, '__wrapped__')


def test_n_step_other_threads_run_the_original():
    # While one thread exports, another's n_step_lstm records the unrolled
    # graph; after both, the module holds the original again.
    import threading
    import onnx_chainer
    from chainer.functions.rnn import n_step_lstm as module
    ws, bs = _weights(1, 1, 8, 3, 4)
    inside, done = threading.Event(), threading.Event()
    seen = []

    def forward(*xs):
        inside.set()
        done.wait(10)
        return F.n_step_lstm(1, 0.0, None, None, ws, bs, list(xs))[0]

    def other():
        inside.wait(10)
        hy = F.n_step_lstm(1, 0.0, None, None, ws, bs, [rand(2, 3)])[0]
        seen.append(type(hy.creator).__name__)
        done.set()

    thread = threading.Thread(target=other)
    thread.start()
    onnx_model = onnx_chainer.export(Fn(forward), (rand(2, 3),))
    thread.join()
    assert seen == ['Stack']
    assert 'LSTM' in {n.op_type for n in onnx_model.graph.node}
    assert not hasattr(module.n_step_lstm_base, '__wrapped__')
