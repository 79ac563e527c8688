"""Speed of chainer-ng against PyTorch and hand-written NumPy, in one run.

    python benchmarks/run.py [case ...] [--repeat 7]

Cases (../shared/ANCHORS.md): poly, chain100, mlp, deep; and lenet, a
LeNet-style CNN training step, resblock (a ResNet basic block), lstm (a
2-layer LSTM language model, bptt 35) and deconv (a DCGAN-style transposed
convolution), against PyTorch only (no NumPy column); deep-static and
chain100-static are deep and chain100 with their forward under
``@static_graph`` (benchmarks/static.py's chains, replayed), against the
same PyTorch eager and NumPy steps.  Each case runs
forward and backward; the median of the repeats is reported, with the
ratios chainer-ng / PyTorch and chainer-ng / NumPy.  Ratios from one run on
one machine are what to compare (the machine is noisy).  PyTorch is
optional: without it its column is empty.
"""

import argparse
import statistics
import sys
import time
import warnings

import numpy

import chainer
import chainer.functions as F

try:
    import torch
    torch.set_num_threads(2)
except ImportError:  # PyTorch is only for comparison
    torch = None


def _time(fn, number, repeat):
    fn()  # warm up
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - start) / number)
    return statistics.median(times)


# --- poly: y = x**2 - 2x + 1 on one element ----------------------------------

def poly_chainer(xp=numpy):
    x = chainer.Variable(xp.array(3.0, xp.float32))

    def step():
        x.cleargrad()
        y = x ** 2 - 2 * x + 1
        y.backward()
    return step


def poly_torch(dev=None):
    x = torch.tensor(3.0, device=dev, requires_grad=True)

    def step():
        x.grad = None
        y = x ** 2 - 2 * x + 1
        y.backward()
    return step


def poly_numpy():
    x = numpy.array(3.0, numpy.float32)

    def step():
        y = x ** 2 - 2 * x + 1  # noqa: F841
        return 2 * x - 2
    return step


# --- chain100: 100 times y = y * 1.0001 + 0.0001 ----------------------------

def chain100_chainer(xp=numpy):
    x = chainer.Variable(xp.ones(10, xp.float32))

    def step():
        x.cleargrad()
        y = x
        for _ in range(100):
            y = y * 1.0001 + 0.0001
        F.sum(y).backward()
    return step


def chain100_torch(dev=None):
    x = torch.ones(10, device=dev, requires_grad=True)

    def step():
        x.grad = None
        y = x
        for _ in range(100):
            y = y * 1.0001 + 0.0001
        y.sum().backward()
    return step


def chain100_numpy():
    x = numpy.ones(10, numpy.float32)

    def step():
        y = x
        for _ in range(100):
            y = y * 1.0001 + 0.0001
        g = numpy.ones_like(x)
        for _ in range(100):
            g = g * 1.0001
        return g
    return step


# --- mlp: 784-1000-1000-10 ReLU MLP, batch 100, softmax cross entropy --------

def _mlp_data():
    rng = numpy.random.RandomState(0)
    x = rng.rand(100, 784).astype(numpy.float32)
    t = rng.randint(0, 10, 100).astype(numpy.int32)
    ws = [(rng.randn(o, i) * numpy.sqrt(1. / i)).astype(numpy.float32)
          for i, o in ((784, 1000), (1000, 1000), (1000, 10))]
    bs = [numpy.zeros(o, numpy.float32) for o in (1000, 1000, 10)]
    return x, t, ws, bs


def mlp_chainer():
    x, t, ws, bs = _mlp_data()
    params = [chainer.Parameter(a) for a in ws + bs]
    W1, W2, W3, b1, b2, b3 = params
    linear = getattr(F, 'linear', None)
    if linear is None:
        def linear(h, W, b):
            return F.matmul(h, W, transb=True) + b

    def step():
        for p in params:
            p.cleargrad()
        h = F.relu(linear(x, W1, b1))
        h = F.relu(linear(h, W2, b2))
        loss = F.softmax_cross_entropy(linear(h, W3, b3), t)
        loss.backward()
    return step


def mlp_torch():
    x, t, ws, bs = _mlp_data()
    x = torch.from_numpy(x)
    t = torch.from_numpy(t.astype(numpy.int64))
    params = [torch.tensor(a, requires_grad=True) for a in ws + bs]
    W1, W2, W3, b1, b2, b3 = params
    fn = torch.nn.functional

    def step():
        for p in params:
            p.grad = None
        h = torch.relu(fn.linear(x, W1, b1))
        h = torch.relu(fn.linear(h, W2, b2))
        loss = fn.cross_entropy(fn.linear(h, W3, b3), t)
        loss.backward()
    return step


def mlp_numpy():
    x, t, ws, bs = _mlp_data()
    W1, W2, W3 = ws
    b1, b2, b3 = bs
    n = len(t)

    def step():
        a1 = x @ W1.T + b1
        h1 = numpy.maximum(a1, 0)
        a2 = h1 @ W2.T + b2
        h2 = numpy.maximum(a2, 0)
        y = h2 @ W3.T + b3
        m = y.max(axis=1, keepdims=True)
        e = numpy.exp(y - m)
        s = e.sum(axis=1, keepdims=True)
        p = e / s
        loss = -(numpy.log(p[numpy.arange(n), t])).mean()  # noqa: F841
        gy = p
        gy[numpy.arange(n), t] -= 1
        gy /= n
        gW3 = gy.T @ h2
        gb3 = gy.sum(0)
        gh2 = gy @ W3
        ga2 = gh2 * (a2 > 0)
        gW2 = ga2.T @ h1
        gb2 = ga2.sum(0)
        gh1 = ga2 @ W2
        ga1 = gh1 * (a1 > 0)
        gW1 = ga1.T @ x
        gb1 = ga1.sum(0)
        return gW1, gb1, gW2, gb2, gW3, gb3
    return step


# --- deep: 50 layers of tanh(h @ W), 64 wide, batch 32 -----------------------

def _deep_data():
    rng = numpy.random.RandomState(0)
    x = rng.randn(32, 64).astype(numpy.float32)
    ws = [(rng.randn(64, 64) / 8).astype(numpy.float32) for _ in range(50)]
    return x, ws


def deep_chainer():
    x, ws = _deep_data()
    params = [chainer.Parameter(w) for w in ws]

    def step():
        for p in params:
            p.cleargrad()
        h = x
        for W in params:
            h = F.tanh(h @ W) if hasattr(F, 'tanh') else h @ W
        F.sum(h).backward()
    return step


def deep_torch():
    x, ws = _deep_data()
    x = torch.from_numpy(x)
    params = [torch.tensor(w, requires_grad=True) for w in ws]

    def step():
        for p in params:
            p.grad = None
        h = x
        for W in params:
            h = torch.tanh(h @ W)
        h.sum().backward()
    return step


def deep_numpy():
    x, ws = _deep_data()

    def step():
        hs = [x]
        h = x
        for W in ws:
            h = numpy.tanh(h @ W)
            hs.append(h)
        g = numpy.ones_like(h)
        grads = []
        for W, h_in, h_out in zip(reversed(ws), reversed(hs[:-1]),
                                  reversed(hs[1:])):
            ga = g * (1 - h_out * h_out)
            grads.append(h_in.T @ ga)
            g = ga @ W.T
        return grads
    return step


# --- lenet: two 5x5 convolutions (20, 50 channels), max pooling, two linear
# layers, batch 64 on 28x28x1: one training step (forward and backward) ----

def _lenet_data():
    rng = numpy.random.RandomState(0)
    x = rng.rand(64, 1, 28, 28).astype(numpy.float32)
    t = rng.randint(0, 10, 64).astype(numpy.int32)
    shapes = [(20, 1, 5, 5), (20,), (50, 20, 5, 5), (50,), (500, 800),
              (500,), (10, 500), (10,)]
    params = [(rng.randn(*s) * 0.05).astype(numpy.float32) for s in shapes]
    return x, t, params


def lenet_chainer():
    x, t, arrays = _lenet_data()
    params = [chainer.Parameter(a) for a in arrays]
    W1, b1, W2, b2, W3, b3, W4, b4 = params

    def step():
        for p in params:
            p.cleargrad()
        h = F.max_pooling_2d(F.relu(F.convolution_2d(x, W1, b1)), 2)
        h = F.max_pooling_2d(F.relu(F.convolution_2d(h, W2, b2)), 2)
        h = F.relu(F.linear(h, W3, b3))
        F.softmax_cross_entropy(F.linear(h, W4, b4), t).backward()
    return step


def lenet_torch():
    x, t, arrays = _lenet_data()
    x = torch.from_numpy(x)
    t = torch.from_numpy(t.astype(numpy.int64))
    params = [torch.tensor(a, requires_grad=True) for a in arrays]
    W1, b1, W2, b2, W3, b3, W4, b4 = params
    fn = torch.nn.functional

    def step():
        for p in params:
            p.grad = None
        h = fn.max_pool2d(torch.relu(fn.conv2d(x, W1, b1)), 2)
        h = fn.max_pool2d(torch.relu(fn.conv2d(h, W2, b2)), 2)
        h = torch.relu(fn.linear(h.reshape(64, -1), W3, b3))
        fn.cross_entropy(fn.linear(h, W4, b4), t).backward()
    return step


# --- resblock: a ResNet basic block --------------------------------------------
# two 3x3 convolutions 64->64 on 32x32, batch 32, batch normalization
# (training mode), ReLU, the residual add; forward and backward.

def _resblock_data():
    rng = numpy.random.RandomState(0)
    x = rng.standard_normal((32, 64, 32, 32)).astype(numpy.float32)
    ws = [(rng.standard_normal((64, 64, 3, 3)) * 0.05).astype(numpy.float32)
          for _ in range(2)]
    return x, ws


def resblock_chainer():
    x, ws = _resblock_data()
    W1, W2 = [chainer.Parameter(w) for w in ws]
    g1, g2 = [chainer.Parameter(numpy.ones(64, numpy.float32))
              for _ in range(2)]
    b1, b2 = [chainer.Parameter(numpy.zeros(64, numpy.float32))
              for _ in range(2)]
    params = [W1, W2, g1, g2, b1, b2]
    x = chainer.Variable(x, requires_grad=False)  # as torch.tensor(x)

    def step():
        for p in params:
            p.cleargrad()
        h = F.relu(F.batch_normalization(
            F.convolution_2d(x, W1, pad=1), g1, b1))
        h = F.batch_normalization(F.convolution_2d(h, W2, pad=1), g2, b2)
        F.sum(F.relu(h + x)).backward()
    return step


def resblock_torch():
    x, ws = _resblock_data()
    x = torch.tensor(x)
    W1, W2 = [torch.tensor(w, requires_grad=True) for w in ws]
    g1, g2 = [torch.ones(64, requires_grad=True) for _ in range(2)]
    b1, b2 = [torch.zeros(64, requires_grad=True) for _ in range(2)]
    params = [W1, W2, g1, g2, b1, b2]
    fn = torch.nn.functional

    def step():
        for p in params:
            p.grad = None
        h = torch.relu(fn.batch_norm(fn.conv2d(x, W1, padding=1), None, None,
                                     g1, b1, training=True))
        h = fn.batch_norm(fn.conv2d(h, W2, padding=1), None, None, g2, b2,
                          training=True)
        torch.relu(h + x).sum().backward()
    return step


# --- lstm: an LSTM language model -----------------------------------------------
# embed, 2 LSTM layers of 200 units stepped 35 times (bptt), batch 20,
# vocabulary 10,000, softmax cross entropy at each step; forward, backward.

def _lstm_data():
    rng = numpy.random.RandomState(0)
    V, H, B, T = 10000, 200, 20, 35

    def w(*shape):
        return (rng.standard_normal(shape) * 0.05).astype(numpy.float32)
    tokens = rng.randint(0, V, (T + 1, B)).astype(numpy.int32)
    return dict(E=w(V, H), Wx=[w(4 * H, H) for _ in range(2)],
                Wh=[w(4 * H, H) for _ in range(2)],
                b=[numpy.zeros(4 * H, numpy.float32) for _ in range(2)],
                Wo=w(V, H), bo=numpy.zeros(V, numpy.float32),
                tokens=tokens, B=B, H=H, T=T)


def lstm_chainer():
    d = _lstm_data()
    E = chainer.Parameter(d['E'])
    Wx = [chainer.Parameter(w) for w in d['Wx']]
    Wh = [chainer.Parameter(w) for w in d['Wh']]
    b = [chainer.Parameter(v) for v in d['b']]
    Wo, bo = chainer.Parameter(d['Wo']), chainer.Parameter(d['bo'])
    params = [E, Wo, bo] + Wx + Wh + b
    tokens, B, H, T = d['tokens'], d['B'], d['H'], d['T']

    def step():
        for p in params:
            p.cleargrad()
        hs = [numpy.zeros((B, H), numpy.float32)] * 2
        cs = [numpy.zeros((B, H), numpy.float32)] * 2
        loss = 0
        for t in range(T):
            h = F.embed_id(tokens[t], E)
            for i in range(2):
                gates = F.linear(h, Wx[i], b[i]) + F.linear(hs[i], Wh[i])
                cs[i], hs[i] = F.lstm(cs[i], gates)
                h = hs[i]
            loss += F.softmax_cross_entropy(F.linear(h, Wo, bo),
                                            tokens[t + 1])
        loss.backward()
    return step


def lstm_torch():
    d = _lstm_data()

    def t(a):
        return torch.tensor(a, requires_grad=True)
    E, Wo, bo = t(d['E']), t(d['Wo']), t(d['bo'])
    Wx, Wh, b = ([t(w) for w in d['Wx']], [t(w) for w in d['Wh']],
                 [t(v) for v in d['b']])
    params = [E, Wo, bo] + Wx + Wh + b
    tokens = torch.tensor(d['tokens'].astype(numpy.int64))
    B, H, T = d['B'], d['H'], d['T']
    fn = torch.nn.functional

    def step():
        for p in params:
            p.grad = None
        hs = [torch.zeros(B, H)] * 2
        cs = [torch.zeros(B, H)] * 2
        loss = 0
        for s in range(T):
            h = fn.embedding(tokens[s], E)
            for i in range(2):
                # the gate order of Chainer's F.lstm differs; the work not
                gates = fn.linear(h, Wx[i], b[i]) + fn.linear(hs[i], Wh[i])
                a, ig, fg, o = gates.chunk(4, 1)
                cs[i] = torch.tanh(a) * torch.sigmoid(ig) + \
                    torch.sigmoid(fg) * cs[i]
                hs[i] = torch.sigmoid(o) * torch.tanh(cs[i])
                h = hs[i]
            loss = loss + fn.cross_entropy(fn.linear(h, Wo, bo),
                                           tokens[s + 1])
        loss.backward()
    return step


# --- deconv: a DCGAN-style transposed convolution -------------------------------
# 4x4, stride 2, pad 1, 256 -> 128 channels, 16x16 -> 32x32, batch 16.

def _deconv_data():
    rng = numpy.random.RandomState(0)
    x = rng.standard_normal((16, 256, 16, 16)).astype(numpy.float32)
    W = (rng.standard_normal((256, 128, 4, 4)) * 0.02).astype(numpy.float32)
    return x, W


def deconv_chainer():
    x, W = _deconv_data()
    x = chainer.Variable(x)
    W = chainer.Parameter(W)

    def step():
        x.cleargrad()
        W.cleargrad()
        F.sum(F.deconvolution_2d(x, W, stride=2, pad=1)).backward()
    return step


def deconv_torch():
    x, W = _deconv_data()
    x = torch.tensor(x, requires_grad=True)
    W = torch.tensor(W, requires_grad=True)

    def step():
        x.grad = W.grad = None
        torch.nn.functional.conv_transpose2d(
            x, W, stride=2, padding=1).sum().backward()
    return step


# --- deep-static, chain100-static: deep and chain100 under @static_graph ------

def _static(name):
    def make():
        import static  # (benchmarks/static.py: the chains; it imports this)
        return static._warm(static.STATIC[name]()[0])
    return make


CASES = {
    'poly': (poly_chainer, poly_torch, poly_numpy, 2000),
    'chain100': (chain100_chainer, chain100_torch, chain100_numpy, 50),
    'mlp': (mlp_chainer, mlp_torch, mlp_numpy, 5),
    'deep': (deep_chainer, deep_torch, deep_numpy, 20),
    'deep-static': (_static('deep'), deep_torch, deep_numpy, 20),
    'chain100-static': (_static('chain100'), chain100_torch, chain100_numpy,
                        50),
    'lenet': (lenet_chainer, lenet_torch, None, 3),
    'resblock': (resblock_chainer, resblock_torch, None, 1),
    'lstm': (lstm_chainer, lstm_torch, None, 1),
    'deconv': (deconv_chainer, deconv_torch, None, 1),
}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('cases', nargs='*', default=list(CASES))
    parser.add_argument('--repeat', type=int, default=7)
    args = parser.parse_args(argv)
    warnings.simplefilter('ignore')
    if torch is None:
        print('(PyTorch is not installed: its column is empty)')
    print('{:<16}{:>14}{:>14}{:>14}{:>12}{:>12}'.format(
        'case', 'chainer-ng', 'pytorch', 'numpy', 'ng/torch', 'ng/numpy'))
    for name in args.cases:
        make_ng, make_torch, make_np, number = CASES[name]
        try:
            t_ng = _time(make_ng(), number, args.repeat)
        except AttributeError as e:  # an op not written yet
            print('{:<16} skipped: {}'.format(name, e))
            continue
        t_torch = _time(make_torch(), number, args.repeat) if torch else None
        t_np = _time(make_np(), number, args.repeat) if make_np else None
        print('{:<16}{:>11.1f} us{:>11} us{:>11} us{:>12}{:>12}'.format(
            name, t_ng * 1e6,
            '-' if t_torch is None else '{:.1f}'.format(t_torch * 1e6),
            '-' if t_np is None else '{:.1f}'.format(t_np * 1e6),
            '-' if t_torch is None else '{:.2f}'.format(t_ng / t_torch),
            '-' if t_np is None else '{:.2f}'.format(t_ng / t_np)))
        sys.stdout.flush()


if __name__ == '__main__':
    main()
