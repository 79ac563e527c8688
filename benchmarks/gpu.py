"""Speed of chainer-ng on a GPU (CuPy) against PyTorch CUDA, in one run.

    python benchmarks/gpu.py [case ...] [--repeat 5] [--use-cudnn auto]
                             [--autotune]

Cases: poly and chain100 (launch overhead of small ops), and one full
training step, optimizer update (MomentumSGD, lr 0.01, momentum 0.9)
included, of: mlp (784-1000-1000-10 ReLU, batch 1024), lenet (batch 256,
28x28x1), resnet18 (the CIFAR-style ResNet-18 for 32x32x3, batch 128,
batch normalization in training mode) and lstm (a language model: embed,
2 LSTM layers of 650 units, bptt 35, batch 64, vocabulary 10,000; chainer-ng
steps L.LSTM as Chainer's PTB example, PyTorch runs its fused nn.LSTM).

Method: each step is warmed up, then ``number`` steps run back to back and
the device is synchronized (``cupy.cuda.Device().synchronize()``,
``torch.cuda.synchronize()``) before the clock stops; the median over the
repeats is reported.  PyTorch runs eagerly with cuDNN (``--autotune`` sets
``torch.backends.cudnn.benchmark`` and ``chainer.config.autotune``).

Host syncs: one more step of each framework is run under a counter and the
count is printed beside the times.  For chainer-ng the counter wraps what
Python code can reach of CuPy: ``cupy.ndarray`` ``get``, ``item``,
``tolist``, ``__float__``, ``__int__``, ``__bool__``, ``__index__`` and
``__complex__`` (so ``float(x)``, ``if x:`` and ``cupy.asnumpy`` count),
``cupy.cuda.Stream.synchronize`` and the ``cupy.cuda.runtime``
synchronize functions when called from Python; syncs inside CuPy's compiled
code are not seen.  A self-check at start-up prints whether the counter
sees the ways it should.  For PyTorch it counts the warnings of
``torch.cuda.set_sync_debug_mode('warn')``.

Needs CuPy and a GPU: without them it stops with a message saying so.
PyTorch with CUDA is optional (its column is then empty).
"""

import argparse
import contextlib
import functools
import os
import sys
import warnings

import numpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import chainer  # NOQA: E402
import chainer.functions as F  # NOQA: E402
import chainer.links as L  # NOQA: E402
from chainer.backends import cuda  # NOQA: E402
# the timing helper and the small cases of the CPU run (they take xp / dev)
from run import _time  # NOQA: E402
from run import chain100_chainer, chain100_torch  # NOQA: E402
from run import poly_chainer, poly_torch  # NOQA: E402

try:
    import torch
except ImportError:  # PyTorch is only for comparison
    torch = None

LR, MOMENTUM = 0.01, 0.9


def _rng():
    return numpy.random.RandomState(0)


# --- host-sync counters ---------------------------------------------------------

_NDARRAY_SYNCS = ('get', 'item', 'tolist', '__float__', '__int__',
                  '__bool__', '__index__', '__complex__')
_RUNTIME_SYNCS = ('deviceSynchronize', 'streamSynchronize',
                  'eventSynchronize')


@contextlib.contextmanager
def count_cupy_syncs():
    """Counts the host syncs that Python code asks of CuPy in the block;
    yields a dict ``{name: count}``."""
    cupy = cuda.cupy
    counts = {}
    patched = []
    depth = [0]  # a conversion that CuPy makes through another counts once

    def wrap(owner, name):
        original = owner.__dict__.get(name, None)
        method = getattr(owner, name, None)
        if method is None:
            return

        @functools.wraps(method)
        def counted(*args, **kwargs):
            if depth[0] == 0:
                counts[name] = counts.get(name, 0) + 1
            depth[0] += 1
            try:
                return method(*args, **kwargs)
            finally:
                depth[0] -= 1
        try:
            setattr(owner, name, counted)
        except (TypeError, AttributeError):  # an immutable type
            return
        patched.append((owner, name, original))

    for name in _NDARRAY_SYNCS:
        wrap(cupy.ndarray, name)
    wrap(cupy.cuda.Stream, 'synchronize')
    for name in _RUNTIME_SYNCS:
        wrap(cupy.cuda.runtime, name)
    try:
        yield counts
    finally:
        for owner, name, original in reversed(patched):
            if original is None:
                delattr(owner, name)
            else:
                setattr(owner, name, original)


@contextlib.contextmanager
def count_torch_syncs():
    counts = {}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        torch.cuda.set_sync_debug_mode('warn')
        try:
            yield counts
        finally:
            torch.cuda.set_sync_debug_mode('default')
    counts['synchronizing ops'] = sum(
        'synchroniz' in str(w.message) for w in caught)


def self_check():
    """Prints which conversions the CuPy counter sees (each should be 1)."""
    cupy = cuda.cupy
    x = cupy.arange(3, dtype=cupy.float32)
    seen = {}
    for label, f in [('float(x)', lambda: float(x.sum())),
                     ('x.item()', lambda: x[0].item()),
                     ('cupy.asnumpy(x)', lambda: cupy.asnumpy(x)),
                     ('bool(x)', lambda: bool(x[1])),
                     ('int(x)', lambda: int(x[2]))]:
        with count_cupy_syncs() as counts:
            f()
        seen[label] = sum(counts.values())
    print('sync counter self-check (1 each): ' + ', '.join(
        '{} {}'.format(k, v) for k, v in seen.items()))


# --- the training steps --------------------------------------------------------------

def _chainer_step(model, xp, loss, *data):
    model.to_device(chainer.get_device('@cupy:0'))
    opt = chainer.optimizers.MomentumSGD(LR, MOMENTUM).setup(model)
    data = [xp.asarray(a) for a in data]

    def step():
        opt.update(loss, *data)
    return step


def _torch_step(model, dev, loss, *data):
    model.to(dev)
    opt = torch.optim.SGD(model.parameters(), lr=LR, momentum=MOMENTUM)
    data = [torch.from_numpy(a).to(dev) for a in data]

    def step():
        opt.zero_grad(set_to_none=True)
        loss(*data).backward()
        opt.step()
    return step


def _classification_data(shape, n_class=10):
    rng = _rng()
    x = rng.standard_normal(shape).astype(numpy.float32)
    t = rng.randint(0, n_class, shape[0])
    return x, t


def mlp_chainer(xp):
    model = chainer.Sequential(L.Linear(784, 1000), F.relu,
                               L.Linear(1000, 1000), F.relu,
                               L.Linear(1000, 10))
    x, t = _classification_data((1024, 784))
    return _chainer_step(
        model, xp, lambda x, t: F.softmax_cross_entropy(model(x), t),
        x, t.astype(numpy.int32))


def mlp_torch(dev):
    nn = torch.nn
    model = nn.Sequential(nn.Linear(784, 1000), nn.ReLU(),
                          nn.Linear(1000, 1000), nn.ReLU(),
                          nn.Linear(1000, 10))
    x, t = _classification_data((1024, 784))
    return _torch_step(
        model, dev, lambda x, t: nn.functional.cross_entropy(model(x), t),
        x, t)


class LeNet(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.c1 = L.Convolution2D(1, 20, 5)
            self.c2 = L.Convolution2D(20, 50, 5)
            self.l1 = L.Linear(800, 500)
            self.l2 = L.Linear(500, 10)

    def forward(self, x):
        h = F.max_pooling_2d(F.relu(self.c1(x)), 2)
        h = F.max_pooling_2d(F.relu(self.c2(h)), 2)
        return self.l2(F.relu(self.l1(h)))


def lenet_chainer(xp):
    model = LeNet()
    x, t = _classification_data((256, 1, 28, 28))
    return _chainer_step(
        model, xp, lambda x, t: F.softmax_cross_entropy(model(x), t),
        x, t.astype(numpy.int32))


def lenet_torch(dev):
    nn = torch.nn
    model = nn.Sequential(nn.Conv2d(1, 20, 5), nn.ReLU(), nn.MaxPool2d(2),
                          nn.Conv2d(20, 50, 5), nn.ReLU(), nn.MaxPool2d(2),
                          nn.Flatten(), nn.Linear(800, 500), nn.ReLU(),
                          nn.Linear(500, 10))
    x, t = _classification_data((256, 1, 28, 28))
    return _torch_step(
        model, dev, lambda x, t: nn.functional.cross_entropy(model(x), t),
        x, t)


# ResNet-18 for 32x32 images: a 3x3 stem of 64 channels, four stages of two
# basic blocks (64, 128, 256, 512 channels; stride 2 from the second stage,
# with a 1x1 projection there), global average pooling, a linear layer.
STAGES = [(64, 1), (128, 2), (256, 2), (512, 2)]


class BasicBlock(chainer.Chain):

    def __init__(self, cin, cout, stride):
        super().__init__()
        self.project = stride != 1 or cin != cout
        with self.init_scope():
            self.c1 = L.Convolution2D(cin, cout, 3, stride, 1, nobias=True)
            self.b1 = L.BatchNormalization(cout)
            self.c2 = L.Convolution2D(cout, cout, 3, 1, 1, nobias=True)
            self.b2 = L.BatchNormalization(cout)
            if self.project:
                self.pc = L.Convolution2D(cin, cout, 1, stride, 0,
                                          nobias=True)
                self.pb = L.BatchNormalization(cout)

    def forward(self, x):
        h = F.relu(self.b1(self.c1(x)))
        h = self.b2(self.c2(h))
        return F.relu(h + (self.pb(self.pc(x)) if self.project else x))


class ResNet18(chainer.Chain):

    def __init__(self):
        super().__init__()
        blocks, cin = [], 64
        for cout, stride in STAGES:
            blocks += [BasicBlock(cin, cout, stride),
                       BasicBlock(cout, cout, 1)]
            cin = cout
        with self.init_scope():
            self.c0 = L.Convolution2D(3, 64, 3, 1, 1, nobias=True)
            self.b0 = L.BatchNormalization(64)
            self.blocks = chainer.ChainList(*blocks)
            self.fc = L.Linear(512, 10)

    def forward(self, x):
        h = F.relu(self.b0(self.c0(x)))
        for block in self.blocks:
            h = block(h)
        return self.fc(F.mean(h, axis=(2, 3)))


def resnet18_chainer(xp):
    model = ResNet18()
    x, t = _classification_data((128, 3, 32, 32))
    return _chainer_step(
        model, xp, lambda x, t: F.softmax_cross_entropy(model(x), t),
        x, t.astype(numpy.int32))


def _torch_resnet18():
    nn = torch.nn

    class Block(nn.Module):
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.body = nn.Sequential(
                nn.Conv2d(cin, cout, 3, stride, 1, bias=False),
                nn.BatchNorm2d(cout), nn.ReLU(),
                nn.Conv2d(cout, cout, 3, 1, 1, bias=False),
                nn.BatchNorm2d(cout))
            self.shortcut = nn.Identity()
            if stride != 1 or cin != cout:
                self.shortcut = nn.Sequential(
                    nn.Conv2d(cin, cout, 1, stride, 0, bias=False),
                    nn.BatchNorm2d(cout))

        def forward(self, x):
            return torch.relu(self.body(x) + self.shortcut(x))

    layers, cin = [nn.Conv2d(3, 64, 3, 1, 1, bias=False), nn.BatchNorm2d(64),
                   nn.ReLU()], 64
    for cout, stride in STAGES:
        layers += [Block(cin, cout, stride), Block(cout, cout, 1)]
        cin = cout
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(512, 10)]
    return nn.Sequential(*layers)


def resnet18_torch(dev):
    model = _torch_resnet18()
    x, t = _classification_data((128, 3, 32, 32))
    return _torch_step(
        model, dev,
        lambda x, t: torch.nn.functional.cross_entropy(model(x), t), x, t)


# The LSTM language model: vocabulary 10,000, 650 units, 2 layers, bptt 35,
# batch 64; the mean cross entropy over every position.
V, H, T, B = 10000, 650, 35, 64


def _tokens():
    return _rng().randint(0, V, (T + 1, B))


class LSTMLM(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.embed = L.EmbedID(V, H)
            self.l1 = L.LSTM(H, H)
            self.l2 = L.LSTM(H, H)
            self.out = L.Linear(H, V)

    def forward(self, tokens):
        self.l1.reset_state()
        self.l2.reset_state()
        loss = 0
        for t in range(T):
            h = self.l2(self.l1(self.embed(tokens[t])))
            loss += F.softmax_cross_entropy(self.out(h), tokens[t + 1])
        return loss / T


def lstm_chainer(xp):
    model = LSTMLM()
    return _chainer_step(model, xp, model, _tokens().astype(numpy.int32))


def lstm_torch(dev):
    nn = torch.nn

    class LM(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(V, H)
            self.lstm = nn.LSTM(H, H, num_layers=2)
            self.out = nn.Linear(H, V)

        def forward(self, tokens):
            h, _ = self.lstm(self.embed(tokens[:-1]))
            return nn.functional.cross_entropy(
                self.out(h).reshape(T * B, V), tokens[1:].reshape(T * B))

    model = LM()
    return _torch_step(model, dev, model, _tokens())


# name: (chainer-ng's step, PyTorch's step, steps per repeat)
CASES = {
    'poly': (poly_chainer, poly_torch, 1000),
    'chain100': (chain100_chainer, chain100_torch, 20),
    'mlp': (mlp_chainer, mlp_torch, 20),
    'lenet': (lenet_chainer, lenet_torch, 20),
    'resnet18': (resnet18_chainer, resnet18_torch, 5),
    'lstm': (lstm_chainer, lstm_torch, 3),
}


# --- the run -------------------------------------------------------------------------

def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('cases', nargs='*', default=list(CASES),
                        metavar='case', help=', '.join(CASES))
    parser.add_argument('--repeat', type=int, default=5)
    parser.add_argument('--use-cudnn', default='auto',
                        choices=['always', 'auto', 'never'],
                        help="chainer.config.use_cudnn (default 'auto')")
    parser.add_argument('--autotune', action='store_true',
                        help='chainer.config.autotune and '
                             'torch.backends.cudnn.benchmark')
    args = parser.parse_args(argv)
    unknown = [c for c in args.cases if c not in CASES]
    if unknown:
        parser.error('unknown case(s) {}; expected some of {}'.format(
            ', '.join(unknown), ', '.join(CASES)))
    return args


def check_devices():
    """Stops with a message when CuPy or a GPU is missing; returns the
    PyTorch device, or None without PyTorch CUDA."""
    if not cuda.available:
        reason = getattr(cuda, '_import_error', None)
        sys.exit('benchmarks/gpu.py needs CuPy and a GPU: '
                 'chainer.backends.cuda.available is False ({}).'.format(
                     reason or 'CuPy imported, but no CUDA device or driver'))
    if torch is None or not torch.cuda.is_available():
        print('(PyTorch with CUDA is not available: its column is empty)')
        return None
    return torch.device('cuda', 0)


def _measure(make, arg, sync, number, repeat):
    step = make(arg)

    def steps():
        for _ in range(number):
            step()
        sync()
    step()  # one more warm-up: autotuning, the optimizer's state
    return _time(steps, 1, repeat) / number, step


def main(argv=None):
    args = parse_args(argv)
    dev = check_devices()
    cupy = cuda.cupy
    props = cupy.cuda.runtime.getDeviceProperties(0)
    name = props['name']
    print('device: {}; CuPy {}; cuDNN for chainer-ng: {} (use_cudnn={})'
          .format(name.decode() if isinstance(name, bytes) else name,
                  cupy.__version__, cuda.cudnn_enabled, args.use_cudnn))
    if dev is not None:
        torch.backends.cudnn.benchmark = args.autotune
        print('PyTorch {} (cuDNN {})'.format(
            torch.__version__, torch.backends.cudnn.version()))
    warnings.simplefilter('ignore')
    self_check()
    print('{:<10}{:>14}{:>14}{:>10}{:>12}{:>12}'.format(
        'case', 'chainer-ng', 'pytorch', 'ng/torch', 'ng syncs',
        'torch syncs'))
    device_sync = cupy.cuda.Device().synchronize
    with chainer.using_config('use_cudnn', args.use_cudnn), \
            chainer.using_config('autotune', args.autotune):
        for case in args.cases:
            make_ng, make_torch, number = CASES[case]
            t_ng, step = _measure(make_ng, cupy, device_sync, number,
                                  args.repeat)
            with count_cupy_syncs() as counts:
                step()
            device_sync()
            ng_syncs = sum(counts.values())
            t_torch = torch_syncs = None
            if dev is not None:
                t_torch, step = _measure(make_torch, dev,
                                         torch.cuda.synchronize, number,
                                         args.repeat)
                with count_torch_syncs() as counts:
                    step()
                torch.cuda.synchronize()
                torch_syncs = sum(counts.values())
            print('{:<10}{:>11.1f} us{:>11} us{:>10}{:>12}{:>12}'.format(
                case, t_ng * 1e6,
                '-' if t_torch is None else '{:.1f}'.format(t_torch * 1e6),
                '-' if t_torch is None else '{:.2f}'.format(t_ng / t_torch),
                ng_syncs, '-' if torch_syncs is None else torch_syncs))
            sys.stdout.flush()


if __name__ == '__main__':
    main()
