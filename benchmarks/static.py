"""@static_graph against define-by-run and PyTorch eager, in one run.

    python benchmarks/static.py [case ...] [--repeat 7] [--cpu-time]

The cases are run.py's ``deep`` (50 layers of tanh(h @ W)) and ``chain100``
(100 times y * 1.0001 + 0.0001), each as a Chain whose forward is decorated
with ``@static_graph``; the define-by-run, PyTorch and NumPy columns are
run.py's own steps.  Each step is a forward and a backward; the static
chain is called five times before timing (two recordings, then the
backward's recordings), so the timed calls replay.  The gradients of the
static and the define-by-run steps are checked bit for bit.

``--cpu-time`` times with the process's CPU time (best of the repeats) and
PyTorch on one thread: steadier on a loaded machine; run it with
``OPENBLAS_NUM_THREADS=1`` so that NumPy's BLAS threads do not count.
"""

import argparse
import contextlib
import io
import os
import sys
import time
import warnings

import numpy

import chainer
import chainer.functions as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402  (run.py: its cases and its timer)


class _Deep(chainer.Chain):

    def __init__(self, ws):
        super().__init__()
        self.n = len(ws)
        with self.init_scope():
            for i, w in enumerate(ws):
                setattr(self, 'W{}'.format(i), chainer.Parameter(w))

    @chainer.static_graph
    def forward(self, x):
        h = x
        for i in range(self.n):
            h = F.tanh(h @ getattr(self, 'W{}'.format(i)))
        return F.sum(h)


class _Chain100(chainer.Chain):

    @chainer.static_graph
    def forward(self, x):
        y = x
        for _ in range(100):
            y = y * 1.0001 + 0.0001
        return F.sum(y)


def deep_static():
    x, ws = run._deep_data()
    model = _Deep(ws)

    def step():
        model.cleargrads()
        model(x).backward()
    return step, model


def chain100_static():
    model = _Chain100()
    x = chainer.Variable(numpy.ones(10, numpy.float32))

    def step():
        x.cleargrad()
        model(x).backward()
    return step, x


def _warm(step):
    # (quietly: the recordings print Chainer's 'end of build_schedule()')
    with contextlib.redirect_stdout(io.StringIO()):
        for _ in range(5):
            step()
    return step


def _check(name):
    """The gradients of a replayed step equal define-by-run's, bit for
    bit."""
    if name == 'deep':
        step, model = deep_static()
        _warm(step)()  # replayed, with the backward's recordings in use
        x, ws = run._deep_data()
        params = [chainer.Parameter(w) for w in ws]
        h = x
        for W in params:
            h = F.tanh(h @ W)
        F.sum(h).backward()
        same = all(numpy.array_equal(getattr(model, 'W{}'.format(i)).grad,
                                     p.grad) for i, p in enumerate(params))
    else:
        step, x = chain100_static()
        _warm(step)()
        g = x.grad.copy()
        x.cleargrad()
        y = x
        for _ in range(100):
            y = y * 1.0001 + 0.0001
        F.sum(y).backward()
        same = numpy.array_equal(g, x.grad)
    return same


STATIC = {'deep': deep_static, 'chain100': chain100_static}


def _cpu_time(fn, number, repeat):
    fn()
    best = float('inf')
    for _ in range(repeat):
        start = time.process_time()
        for _ in range(number):
            fn()
        best = min(best, (time.process_time() - start) / number)
    return best


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('cases', nargs='*', default=list(STATIC))
    parser.add_argument('--repeat', type=int, default=7)
    parser.add_argument('--cpu-time', action='store_true')
    args = parser.parse_args(argv)
    warnings.simplefilter('ignore')
    timer = run._time
    if args.cpu_time:
        timer = _cpu_time
        if run.torch:
            run.torch.set_num_threads(1)
    print('{:<10}{:>12}{:>12}{:>12}{:>12}{:>10}{:>10}{:>10}  {}'.format(
        'case', 'static', 'dbr', 'pytorch', 'numpy', 'st/torch',
        'dbr/torch', 'st/numpy', 'grads'))
    for name in args.cases:
        make_ng, make_torch, make_np, number = run.CASES[name]
        t_static = timer(_warm(STATIC[name]()[0]), number, args.repeat)
        t_dbr = timer(make_ng(), number, args.repeat)
        t_torch = timer(make_torch(), number, args.repeat) \
            if run.torch else None
        t_np = timer(make_np(), number, args.repeat)

        def ratio(t):
            return '-' if t is None else '{:.2f}'.format(t_static / t)
        print('{:<10}{:>9.1f} us{:>9.1f} us{:>12}{:>9.1f} us{:>10}{:>10}'
              '{:>10}  {}'.format(
                  name, t_static * 1e6, t_dbr * 1e6,
                  '-' if t_torch is None else '{:.1f} us'.format(
                      t_torch * 1e6),
                  t_np * 1e6, ratio(t_torch),
                  '-' if t_torch is None else '{:.2f}'.format(
                      t_dbr / t_torch),
                  ratio(t_np), 'equal' if _check(name) else 'DIFFER'))
        sys.stdout.flush()


if __name__ == '__main__':
    main()
