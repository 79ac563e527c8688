import numpy

import chainer
import chainer.links as L
from link_harness import check_params, roundtrip_npz


def R(seed, *shape):
    return numpy.random.RandomState(seed).randn(*shape).astype(numpy.float32)


def test_params_and_printable():
    link = L.BatchRenormalization(3, rmax=2, dmax=1)
    check_params(link, {'/gamma': (3,), '/beta': (3,)})
    assert (link.rmax, link.dmax, link.r, link.d) == (2, 1, None, None)
    assert link._persistent == {'N', 'avg_mean', 'avg_var'}
    assert str(link) == (
        'BatchRenormalization(size=3, decay=0.9, eps=2e-05, dtype=float32, '
        'use_gamma=True, use_beta=True)')


def test_train_matches_reference():
    # Expected values from Chainer 7.8.1 with the same arrays.
    link = L.BatchRenormalization(2, rmax=1.5, dmax=0.5)
    y = link(R(0, 3, 2, 2))
    assert type(y.creator).__name__ == 'BatchRenormalizationFunction'
    numpy.testing.assert_allclose(y.array.ravel(), [
        1.703729, 0.339847, 0.542624, 1.804767, 1.807233, -1.037574,
        0.513975, -0.58746, -0.163524, 0.350288, -0.292062, 1.018155],
        rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(link.avg_var, [1.020208, 0.975658],
                                  rtol=1e-5)


def test_clipping_and_test_mode():
    x = numpy.arange(24, dtype=numpy.float32).reshape(2, 3, 4) / 10
    link = L.BatchRenormalization(3, rmax=2, dmax=1)
    y = link(x)
    # r is within bounds and d is clipped only for the last channels.
    numpy.testing.assert_allclose(y.array[0, 0], x[0, 0], atol=1e-5)
    numpy.testing.assert_allclose(y.array[0, 1], x[0, 1] - 0.15, atol=1e-5)
    with chainer.using_config('train', False):
        y = link(x)
    assert type(y.creator).__name__ == 'FixedBatchNormalization'
    numpy.testing.assert_allclose(
        y.array[0, 0], [-0.07725, 0.02575, 0.12875, 0.23175], atol=1e-5)
    link(x, finetune=True)
    assert link.N == 1
    numpy.testing.assert_allclose(link.avg_mean, [0.75, 1.15, 1.55],
                                  rtol=1e-5)


def test_without_gamma_gradients_and_serialize(tmp_path):
    link = L.BatchRenormalization(2, use_gamma=False)
    check_params(link, {'/beta': (2,)})
    y = link(R(0, 4, 2))
    link.cleargrads()
    chainer.functions.sum(y * R(1, 4, 2)).backward()
    assert link.beta.grad is not None
    roundtrip_npz(link, L.BatchRenormalization(2, use_gamma=False), tmp_path)
