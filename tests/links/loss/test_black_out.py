import numpy

import chainer
import chainer.functions as F
import chainer.links as L
from link_harness import check_params


def R(seed, *shape):
    return numpy.random.RandomState(seed).randn(*shape).astype(numpy.float32)


def test_params_and_sampler():
    link = L.BlackOut(3, [1, 2, 3, 4], 2)
    check_params(link, {'/W': (4, 3)})
    # As in Chainer, W starts uninitialized (NaN) and must be set.
    assert numpy.isnan(link.W.array).all()
    assert link.sample_size == 2
    samples = link.sampler.sample((20000,))
    assert samples.dtype == numpy.int32
    freq = numpy.bincount(samples, minlength=4) / samples.size
    numpy.testing.assert_allclose(freq, [0.1, 0.2, 0.3, 0.4], atol=0.02)


def test_forward_matches_reference():
    # Expected value from Chainer 7.8.1 with the same arrays.
    link = L.BlackOut(2, [1, 2, 3, 4], 2)
    link.W.array[...] = R(1, 4, 2)
    link.sample_data = numpy.array([[1, 2], [3, 0], [2, 1]], numpy.int32)
    t = numpy.array([0, 1, 3], numpy.int32)
    x = R(0, 3, 2)
    loss = link(x, t)
    numpy.testing.assert_allclose(loss.array, 2.217238, rtol=1e-5)
    numpy.testing.assert_allclose(
        loss.array, F.black_out(x, t, link.W, link.sample_data).array)
    link.cleargrads()
    loss.backward()
    assert numpy.isfinite(link.W.grad).all()


def test_drawn_samples_shape():
    link = L.BlackOut(2, [1, 1, 1], 4)
    link.W.array[...] = R(1, 3, 2)
    loss = link(R(0, 5, 2), numpy.zeros(5, numpy.int32))
    assert loss.shape == () and numpy.isfinite(loss.array)
    with chainer.using_config('train', False):
        assert numpy.isfinite(link(R(0, 2, 2),
                                   numpy.zeros(2, numpy.int32)).array)


def test_sample_data_class_default():
    from chainer.links import BlackOut
    assert BlackOut.sample_data is None
