import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L
from link_harness import check_params


def R(seed, *shape):
    return numpy.random.RandomState(seed).randn(*shape).astype(numpy.float32)


def test_params_and_sampler():
    link = L.NegativeSampling(3, [1, 2, 3, 4], 2)
    check_params(link, {'/W': (4, 3)})
    numpy.testing.assert_array_equal(link.W.array, numpy.zeros((4, 3)))
    samples = link.sampler.sample((4000, 5))
    assert samples.shape == (4000, 5) and samples.dtype == numpy.int32
    p = numpy.power([1., 2., 3., 4.], 0.75)
    freq = numpy.bincount(samples.ravel(), minlength=4) / samples.size
    numpy.testing.assert_allclose(freq, p / p.sum(), atol=0.02)
    with chainer.using_config('dtype', numpy.float16):
        assert L.NegativeSampling(3, [1, 2], 1).W.dtype == numpy.float16
    # A zero count is never drawn.
    link = L.NegativeSampling(2, [0, 5, 0, 1], 2, power=1.)
    assert set(numpy.unique(link.sampler.sample((1000,)))) <= {1, 3}


def test_forward_against_function():
    link = L.NegativeSampling(3, [1, 2, 3, 4], 2)
    link.W.array[...] = R(1, 4, 3)
    x = R(0, 5, 3)
    t = numpy.array([0, 1, 2, 3, -1], numpy.int32)
    loss, samples = link(x, t, return_samples=True)
    assert samples.shape == (5, 3)
    numpy.testing.assert_array_equal(samples[:4, 0], t[:4])
    # The sampler is asked for (N, sample_size + 1); column 0 is replaced
    # by the labels.
    expected = F.negative_sampling(x, t, link.W,
                                   lambda shape: samples.copy(), 2)
    numpy.testing.assert_allclose(loss.array, expected.array, rtol=1e-6)
    loss = link(x, t, reduce='no')
    assert loss.shape == (5,) and loss.array[4] == 0
    link.cleargrads()
    F.sum(loss).backward()
    assert link.W.grad.shape == (4, 3)
    with pytest.raises(TypeError, match='foo'):
        link(x, t, foo=1)


def test_link_calls_the_module_function_and_moves_its_sampler():
    # the link looks F.negative_sampling up in its module at each call (as
    # Chainer does), and its sampler follows it across devices
    from unittest import mock

    from chainer.functions.loss import negative_sampling as ns_module
    link = L.NegativeSampling(3, [1, 2, 3], 2)
    x = numpy.ones((2, 3), numpy.float32)
    t = numpy.array([0, 1], numpy.int32)
    with mock.patch.object(ns_module, 'negative_sampling',
                           wraps=ns_module.negative_sampling) as m:
        link(x, t)
    assert m.call_count == 1
    link.to_device('@numpy')
    assert link.sampler.device == chainer.get_device('@numpy')
