import itertools

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op, on_device

T_LAB = numpy.array([[1, 2], [3, 3]], numpy.int32)


def _brute_nll(x, labels, blank, n_steps):
    """-log p(labels | x) by enumerating every path (tiny cases only)."""
    logp = x - numpy.log(numpy.exp(x).sum(-1, keepdims=True))
    total = 0.0
    for path in itertools.product(range(x.shape[-1]), repeat=n_steps):
        collapsed = [k for k, _ in itertools.groupby(path) if k != blank]
        if collapsed == list(labels):
            total += numpy.exp(sum(logp[i, p] for i, p in enumerate(path)))
    return -numpy.log(total) if total > 0 else 1e10


def _ref(xs, reduce, in_len=None, lab_len=None):
    x = numpy.stack(xs, 1)  # (B, T, V)
    out = []
    for b in range(x.shape[0]):
        n = len(xs) if in_len is None else in_len[b]
        m = T_LAB.shape[1] if lab_len is None else lab_len[b]
        out.append(_brute_nll(x[b], T_LAB[b, :m], 0, n))
    out = numpy.array(out)
    return out if reduce == 'no' else out.mean()


@pytest.mark.parametrize('reduce', ['mean', 'no'])
def test_ctc(reduce):
    def f(*xs):
        return F.connectionist_temporal_classification(
            list(xs), on_device(T_LAB), 0, reduce=reduce)
    check_op(f, lambda rng, dt: tuple(rng.randn(2, 4).astype(dt)
                                      for _ in range(4)),
             lambda *xs: _ref(xs, reduce), double_backward=False)


def test_lengths_and_chainer_values():
    rng = numpy.random.RandomState(0)
    xs = [rng.randn(2, 4).astype(numpy.float32) for _ in range(5)]
    y = F.connectionist_temporal_classification(xs, T_LAB, 0, reduce='no')
    # Chainer 7.8.1 gives these
    numpy.testing.assert_allclose(y.array, [3.80387, 6.08032], rtol=1e-5)
    assert type(y.creator).__name__ == 'ConnectionistTemporalClassification'
    y = F.connectionist_temporal_classification(
        xs, T_LAB, 0, input_length=numpy.array([5, 3], numpy.int32),
        label_length=numpy.array([2, 1], numpy.int32), reduce='no')
    numpy.testing.assert_allclose(y.array, [3.80387, 3.22068], rtol=1e-5)
    small = [x[:, :3] for x in xs[:4]]
    lab = numpy.array([[1, 2], [2, 2]], numpy.int32)
    y = F.connectionist_temporal_classification(
        small, lab, 0, input_length=numpy.array([4, 3], numpy.int32),
        reduce='no')
    numpy.testing.assert_allclose(
        y.array, [_brute_nll(numpy.stack(small, 1)[0], [1, 2], 0, 4),
                  _brute_nll(numpy.stack(small, 1)[1], [2, 2], 0, 3)],
        rtol=1e-5)
    # Too short for the labels: Chainer's 1e10; empty labels: all blanks.
    y = F.connectionist_temporal_classification(xs[:1], T_LAB, 0,
                                                reduce='no')
    assert y.array.tolist() == [1e10, 1e10]
    y = F.connectionist_temporal_classification(
        xs, numpy.zeros((2, 0), numpy.int32), 0, reduce='no')
    numpy.testing.assert_allclose(y.array, [5.79557, 7.45209], rtol=1e-5)


def test_no_double_backprop():
    xs = [chainer.Variable(numpy.ones((2, 4), numpy.float32))
          for _ in range(4)]
    y = F.connectionist_temporal_classification(xs, T_LAB, 0)
    gx, = chainer.grad([y], [xs[0]], enable_double_backprop=True)
    with pytest.raises(RuntimeError, match='double backprop'):
        chainer.grad([F.sum(gx * gx)], [xs[0]])


def test_errors():
    xs = [numpy.zeros((2, 4), numpy.float32)] * 4
    C = F.connectionist_temporal_classification
    with pytest.raises(TypeError, match='list of Variables'):
        C(numpy.stack(xs), T_LAB, 0)
    with pytest.raises(TypeError, match='non-negative integer'):
        C(xs, T_LAB, -1)
    with pytest.raises(ValueError, match='blank_symbol \\(4\\)'):
        C(xs, T_LAB, 4)
    with pytest.raises(ValueError, match="'mean' and 'no'"):
        C(xs, T_LAB, 0, reduce='sum')
    with pytest.raises(InvalidType, match='t.dtype.kind == i'):
        C(xs, T_LAB.astype(numpy.float32), 0)
    with pytest.raises(IndexError, match='label 5'):
        C(xs, numpy.array([[1, 5], [1, 1]], numpy.int32), 0)
    with pytest.raises(ValueError, match='input_length'):
        C(xs, T_LAB, 0, input_length=numpy.array([5, 1]))


def test_label_equal_to_blank_as_chainer():
    # A label equal to the blank (e.g. padding without label_length) is a
    # symbol of the path for Chainer: only a repeat of the same symbol
    # blocks the skip into it.
    numpy.random.seed(0)
    xs = [numpy.random.randn(2, 4).astype(numpy.float32) for _ in range(5)]
    t = numpy.array([[1, 2], [2, 0]], numpy.int32)
    loss = F.connectionist_temporal_classification(xs, t, 0, reduce='no')
    numpy.testing.assert_allclose(loss.array, [3.8038669, 2.102226],
                                  rtol=1e-6)
