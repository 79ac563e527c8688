import numpy

import chainer.functions as F
import chainer.links as L
from link_harness import check_params, roundtrip_npz


def R(seed, *shape):
    return numpy.random.RandomState(seed).randn(*shape).astype(numpy.float32)


def test_params():
    link = L.CRF1d(3)
    check_params(link, {'/cost': (3, 3)})
    numpy.testing.assert_array_equal(link.cost.array, numpy.zeros((3, 3)))
    link = L.CRF1d(3, initial_cost=numpy.ones((3, 3)))
    assert link.cost.dtype == numpy.float32


def _data():
    rng = numpy.random.RandomState(0)
    cost = rng.randn(3, 3)
    xs = [rng.randn(3, 3).astype(numpy.float32),
          rng.randn(2, 3).astype(numpy.float32)]
    ys = [numpy.array([0, 1, 2], numpy.int32),
          numpy.array([2, 1], numpy.int32)]
    return cost, xs, ys


def test_batch_major_matches_reference():
    # Expected values from Chainer 7.8.1 with the same arrays.
    cost, xs, ys = _data()
    link = L.CRF1d(3, initial_cost=cost)
    numpy.testing.assert_allclose(link(xs, ys, transpose=True).array,
                                  6.612404, rtol=1e-5)
    numpy.testing.assert_allclose(
        link(xs, ys, reduce='no', transpose=True).array,
        [7.779139, 5.445668], rtol=1e-5)
    score, path = link.argmax(xs, transpose=True)
    numpy.testing.assert_allclose(score.array, [5.4949136, 2.7307386],
                                  rtol=1e-5)
    assert isinstance(path, list)
    numpy.testing.assert_array_equal(path[0], [1, 1, 1])
    numpy.testing.assert_array_equal(path[1], [0, 0])


def test_time_major_and_gradient(tmp_path):
    cost, xs, ys = _data()
    link = L.CRF1d(3, initial_cost=cost)
    xt = [v.array for v in F.transpose_sequence(xs)]
    yt = [v.array for v in F.transpose_sequence(ys)]
    loss = link(xt, yt)
    numpy.testing.assert_allclose(loss.array, 6.612404, rtol=1e-5)
    score, path = link.argmax(xt)
    assert [p.tolist() for p in path] == [[1, 0], [1, 0], [1]]
    link.cleargrads()
    loss.backward()
    assert link.cost.grad.shape == (3, 3)
    assert numpy.abs(link.cost.grad).sum() > 0
    roundtrip_npz(link, L.CRF1d(3), tmp_path)


def _batch_major(lengths, n_label=3, seed=0):
    rng = numpy.random.RandomState(seed)
    xs = [rng.randn(n, n_label).astype(numpy.float32) for n in lengths]
    ys = [rng.randint(0, n_label, n).astype(numpy.int32) for n in lengths]
    return xs, ys


def _crf(n_label=3, seed=1):
    crf = L.CRF1d(n_label)
    crf.cost.array[...] = numpy.random.RandomState(seed).randn(
        n_label, n_label).astype(numpy.float32)
    return crf


def test_transpose_sorts_the_batch_by_length():
    # Batch-major sequences in any order give the losses of the batch
    # sorted by decreasing length (stable), as Chainer does.
    lengths = (2, 4, 3, 4)
    xs, ys = _batch_major(lengths)
    crf = _crf()
    losses = crf(xs, ys, reduce='no', transpose=True).array
    order = [1, 3, 2, 0]
    for pos, i in enumerate(order):
        single = crf([xs[i]], [ys[i]], reduce='no', transpose=True).array
        numpy.testing.assert_allclose(losses[pos], single[0], rtol=1e-5)
    mean = crf(xs, ys, transpose=True).array
    numpy.testing.assert_allclose(mean, losses.mean(), rtol=1e-5)


def test_transpose_argmax_scores_sorted_paths_in_given_order():
    lengths = (2, 4, 3, 4)
    xs, _ = _batch_major(lengths)
    crf = _crf()
    score, path = crf.argmax(xs, transpose=True)
    assert [len(p) for p in path] == list(lengths)
    for pos, i in enumerate([1, 3, 2, 0]):
        s1, p1 = crf.argmax([xs[i]], transpose=True)
        numpy.testing.assert_allclose(score.array[pos], s1.array[0],
                                      rtol=1e-5)
        numpy.testing.assert_array_equal(path[i], p1[0])
