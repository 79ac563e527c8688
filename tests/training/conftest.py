"""Fixtures of the training tests: a fake trainer for triggers and
extensions, and a tiny real training setup."""

import numpy
import pytest

import chainer
import chainer.links as L
from chainer import training


class FakeUpdater:
    """An updater whose position is set by the test (iteration count;
    ``ipe`` iterations per epoch)."""

    def __init__(self, ipe=4, optimizers=None):
        self.iteration = 0
        self.ipe = ipe
        self.optimizers = optimizers or {}

    @property
    def epoch(self):
        return self.iteration // self.ipe

    @property
    def epoch_detail(self):
        return self.iteration / self.ipe

    @property
    def previous_epoch_detail(self):
        return None if self.iteration == 0 else \
            (self.iteration - 1) / self.ipe

    @property
    def is_new_epoch(self):
        return self.iteration % self.ipe == 0

    def get_optimizer(self, name):
        return self.optimizers[name]

    def get_all_optimizers(self):
        return dict(self.optimizers)


class FakeTrainer:

    def __init__(self, ipe=4, out='.', optimizers=None):
        self.updater = FakeUpdater(ipe, optimizers)
        self.observation = {}
        self.elapsed_time = 0.0
        self.out = out


@pytest.fixture
def fake_trainer(tmp_path):
    # Its out is a temporary folder: extensions that write files (a
    # LogReport's 'log') must not write into the working directory.
    def make(*args, **kwargs):
        kwargs.setdefault('out', str(tmp_path))
        return FakeTrainer(*args, **kwargs)
    return make


def fire_sequence(trigger, n=12, ipe=4, obs=None, times=None):
    """Calls ``trigger`` before training and after each of ``n``
    iterations; returns the list of 0/1 results."""
    t = FakeTrainer(ipe)
    out = [int(bool(trigger(t)))]
    for i in range(n):
        t.updater.iteration += 1
        if obs is not None:
            t.observation = {'main/loss': obs[i], 'main/accuracy': obs[i]}
        if times is not None:
            t.elapsed_time = times[i]
        out.append(int(bool(trigger(t))))
    return out


@pytest.fixture
def fires():
    return fire_sequence


def _data(n=20):
    rs = numpy.random.RandomState(0)
    x = rs.rand(n, 3).astype(numpy.float32)
    t = (x.sum(1) > 1.5).astype(numpy.int32)
    return chainer.datasets.TupleDataset(x, t)


def make_trainer(out, stop=(3, 'epoch'), batch=5, n=20, shuffle=False,
                 lr=0.1):
    """A linear classifier on fixed data with SGD: 4 iterations per epoch
    (n=20, batch=5)."""
    model = L.Classifier(L.Linear(
        3, 2, initialW=numpy.full((2, 3), 0.1, numpy.float32)))
    optimizer = chainer.optimizers.SGD(lr).setup(model)
    it = chainer.iterators.SerialIterator(_data(n), batch, shuffle=shuffle)
    updater = training.StandardUpdater(it, optimizer)
    return training.Trainer(updater, stop, out=str(out))


@pytest.fixture
def tiny_trainer(tmp_path):
    def make(**kwargs):
        kwargs.setdefault('out', tmp_path / 'result')
        return make_trainer(**kwargs)
    return make


@pytest.fixture
def tiny_data():
    return _data
