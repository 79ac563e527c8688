import warnings

import numpy

import chainer.links as L
from link_harness import check_param_grads, check_params, roundtrip_npz


def R(seed, *shape):
    return numpy.random.RandomState(seed).randn(*shape).astype(numpy.float32)


def test_params():
    link = L.Bilinear(2, 3, 4)
    check_params(link, {'/W': (2, 3, 4), '/V1': (2, 4), '/V2': (3, 4),
                        '/b': (4,)})
    assert link.in_sizes == (2, 3) and not link.nobias
    numpy.testing.assert_array_equal(link.b.array, numpy.zeros(4))
    link = L.Bilinear(2, 3, 4, nobias=True,
                      initial_bias=(numpy.ones((2, 4)),))
    check_params(link, {'/W': (2, 3, 4)})


def test_forward_matches_reference():
    # Expected values from Chainer 7.8.1 with the same arrays.
    link = L.Bilinear(2, 3, 2, initialW=R(1, 2, 3, 2),
                      initial_bias=(R(2, 2, 2), R(3, 3, 2), R(4, 2)))
    y = link(R(0, 2, 2), R(5, 2, 3))
    numpy.testing.assert_allclose(y.array.ravel(), [
        5.515025, -10.820279, -0.863089, -7.220863], rtol=1e-5)


def test_gradients_serialize_zero_grads(tmp_path):
    link = L.Bilinear(2, 3, 2, initial_bias=(R(2, 2, 2), R(3, 3, 2), R(4, 2)))
    check_param_grads(link, (R(0, 2, 2), R(5, 2, 3)), R(6, 2, 2))
    link = L.Bilinear(2, 3, 2, nobias=True)
    check_param_grads(link, (R(0, 2, 2), R(5, 2, 3)), R(6, 2, 2))
    roundtrip_npz(link, L.Bilinear(2, 3, 2, nobias=True), tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', DeprecationWarning)
        link.zero_grads()
    numpy.testing.assert_array_equal(link.W.grad, numpy.zeros((2, 3, 2)))
