import numpy
import pytest

from chainer import utils
from chainer.backends import cuda
from chainer.utils import WalkerAlias


def test_tables():
    w = WalkerAlias([0.1, 0.2, 0.7])
    numpy.testing.assert_allclose(w.threshold, [0.3, 0.6, 1.0], rtol=1e-6)
    assert w.threshold.dtype == numpy.float32
    assert w.values.tolist() == [0, 2, 1, 2, 2, 0]
    assert w.values.dtype == numpy.int32
    assert utils.WalkerAlias is WalkerAlias


def test_sample_shape_dtype_and_distribution():
    numpy.random.seed(0)
    w = WalkerAlias(numpy.array([1, 3, 0, 4], numpy.float32))
    s = w.sample((2, 3))
    assert s.shape == (2, 3) and s.dtype == numpy.int32
    assert w.sample(5).shape == (5,)
    assert w.sample(()).shape == ()
    assert w.sample((0,)).shape == (0,)
    freq = numpy.bincount(w.sample(40000), minlength=4) / 40000.
    numpy.testing.assert_allclose(freq, [1 / 8, 3 / 8, 0, 4 / 8], atol=0.01)


def test_many_outcomes_match_probabilities():
    rng = numpy.random.RandomState(3)
    p = rng.rand(20)
    w = WalkerAlias(p)
    # The exact probability of each outcome from the tables.
    prob = numpy.zeros(20)
    for i, t in enumerate(w.threshold):
        t = min(max(float(t), 0.), 1.)
        prob[w.values[2 * i]] += t / 20
        prob[w.values[2 * i + 1]] += (1 - t) / 20
    numpy.testing.assert_allclose(prob, p / p.sum(), atol=1e-6)


def test_device_methods_on_cpu():
    w = WalkerAlias([0.5, 0.5])
    assert w.use_gpu is False
    assert w.to_cpu() is w
    assert isinstance(w.threshold, numpy.ndarray)


@pytest.mark.gpu
@pytest.mark.skipif(not cuda.available, reason='needs CuPy')
def test_gpu():
    w = WalkerAlias([0.1, 0.9]).to_gpu()
    assert w.use_gpu
    s = w.sample((3,))
    assert isinstance(s, cuda.ndarray)


def test_sample_xp_and_gpu_names():
    from chainer.utils import WalkerAlias
    sampler = WalkerAlias([0.0, 1.0, 0.0])
    numpy.testing.assert_array_equal(sampler.sample_xp(numpy, (2, 3)), numpy.ones((2, 3)))
    assert callable(sampler.sample_gpu)


@pytest.mark.parametrize('probs, threshold, values', [
    # Chainer 7.8.1's tables (float32 thresholds, aliases of zero weights)
    ([1, 1, 2, 0], [0.0, 1.0, 1.0, 1.0], [3, 2, 0, 0, 1, 0, 2, 0]),
    ([3, 0, 0, 1], [0.0, 0.0, 1.0, 1.0], [1, 0, 2, 0, 3, 0, 0, 0]),
    ([1, 2, 3, 4, 0, 5],
     [0.0, 0.40000003576278687, 0.8000000715255737, 0.20000001788139343,
      0.8000001907348633, 1.000000238418579],
     [4, 2, 0, 3, 1, 3, 2, 5, 3, 5, 5, 0]),
])
def test_tables_as_chainer(probs, threshold, values):
    sampler = WalkerAlias(numpy.array(probs))
    assert sampler.threshold.dtype == numpy.float32
    assert sampler.threshold.tolist() == threshold
    assert sampler.values.tolist() == values
