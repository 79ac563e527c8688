import itertools

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op

K = 3
SIZES = [3, 3, 2, 1]
YS = [numpy.array([0, 1, 2], numpy.int32), numpy.array([2, 2, 0], numpy.int32),
      numpy.array([1, 0], numpy.int32), numpy.array([2], numpy.int32)]


def _seqs(xs):
    """Per-sequence lists of score rows (batch-major)."""
    return [[x[b] for x in xs if x.shape[0] > b] for b in range(SIZES[0])]


def _path_score(cost, rows, path):
    return sum(r[p] for r, p in zip(rows, path)) + \
        sum(cost[a, b] for a, b in zip(path, path[1:]))


def _ref(cost, *xs, reduce='mean'):
    out = []
    for b, rows in enumerate(_seqs(xs)):
        scores = [_path_score(cost, rows, p)
                  for p in itertools.product(range(K), repeat=len(rows))]
        y = [yy[b] for yy in YS if yy.shape[0] > b]
        out.append(numpy.log(numpy.exp(scores).sum()) -
                   _path_score(cost, rows, y))
    out = numpy.array(out)
    return out if reduce == 'no' else out.mean()


def _make(rng, dt):
    return (rng.randn(K, K).astype(dt),) + tuple(
        rng.randn(n, K).astype(dt) for n in SIZES)


@pytest.mark.parametrize('reduce', ['mean', 'no'])
def test_crf1d(reduce):
    check_op(lambda cost, *xs: F.crf1d(cost, list(xs), YS, reduce), _make,
             lambda cost, *xs: _ref(cost, *xs, reduce=reduce),
             fwd_tol={numpy.float16: dict(atol=2e-2, rtol=1e-2)},
             bwd_tol={numpy.float16: dict(atol=1e-1, rtol=1e-1)})


def test_argmax_crf1d():
    rng = numpy.random.RandomState(0)
    cost, *xs = _make(rng, numpy.float64)
    score, path = F.argmax_crf1d(cost, xs)
    assert [p.shape for p in path] == [(n,) for n in SIZES]
    assert all(p.dtype == numpy.int32 for p in path)
    for b, rows in enumerate(_seqs(xs)):
        cands = list(itertools.product(range(K), repeat=len(rows)))
        best = max(cands, key=lambda p: _path_score(cost, rows, p))
        assert [p[b] for p in path if p.shape[0] > b] == list(best)
        numpy.testing.assert_allclose(score.array[b],
                                      _path_score(cost, rows, best))
    # The score is differentiable: d score / d cost counts transitions.
    c = chainer.Variable(cost)
    score, path = F.argmax_crf1d(c, xs)
    F.sum(score).backward()
    assert c.grad.sum() == sum(SIZES[1:])


def test_chainer_values_and_errors():
    rng = numpy.random.RandomState(0)
    cost = rng.randn(K, K).astype(numpy.float32)
    xs = [rng.randn(n, K).astype(numpy.float32) for n in SIZES]
    y = F.crf1d(cost, xs, YS, reduce='no')  # Chainer 7.8.1's values
    numpy.testing.assert_allclose(y.array, [9.15391, 7.51517, 3.236],
                                  rtol=1e-5)
    with pytest.raises(ValueError, match="'mean' and 'no'"):
        F.crf1d(cost, xs, YS, reduce='sum')
    with pytest.raises(InvalidType, match='ys\\[0\\].dtype.kind == i'):
        F.crf1d(cost, xs, [y.astype(numpy.float32) for y in YS])
    with pytest.raises(InvalidType, match='not increasing'):
        F.crf1d(cost, xs[::-1], YS[::-1])
    with pytest.raises(IndexError, match='label 3'):
        F.crf1d(cost, xs, [YS[0] + 1] + YS[1:])
