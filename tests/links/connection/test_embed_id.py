import numpy
import pytest

import chainer.links as L
from chainer import initializers
from link_harness import check_params, roundtrip_npz


def R(seed, *shape):
    return numpy.random.RandomState(seed).randn(*shape).astype(numpy.float32)


def test_params_and_default_initializer():
    link = L.EmbedID(3, 2)
    check_params(link, {'/W': (3, 2)})
    assert isinstance(link.W.initializer, initializers.Normal)
    assert link.ignore_label is None
    assert L.EmbedID(3, 2, initialW=numpy.ones((3, 2))).W.dtype == \
        numpy.float32
    with pytest.raises(ValueError):
        L.EmbedID(3, 2, initialW=numpy.ones((2, 2)))


def test_forward_matches_reference():
    # Expected values from Chainer 7.8.1 with the same arrays.
    link = L.EmbedID(3, 2, initialW=R(1, 3, 2), ignore_label=-1)
    y = link(numpy.array([2, -1, 0], numpy.int32))
    numpy.testing.assert_allclose(y.array.ravel(), [
        0.865408, -2.301539, 0., 0., 1.624345, -0.611756], rtol=1e-5)
    assert link(numpy.zeros((2, 3), numpy.int32)).shape == (2, 3, 2)


def test_gradient_scatters_to_rows():
    link = L.EmbedID(3, 2, initialW=R(1, 3, 2))
    y = link(numpy.array([0, 2, 0], numpy.int32))
    y.grad = numpy.ones_like(y.array)
    link.cleargrads()
    y.backward()
    numpy.testing.assert_array_equal(link.W.grad, [[2, 2], [0, 0], [1, 1]])


def test_from_params_and_serialize(tmp_path):
    link = L.EmbedID.from_params(R(1, 4, 2), ignore_label=-1)
    assert link.ignore_label == -1 and link.W.shape == (4, 2)
    roundtrip_npz(link, L.EmbedID(4, 2), tmp_path)
    assert str(link) == 'EmbedID()'
