import numpy

import chainer.functions as F
import chainer.links as L
from link_harness import check_param_grads, check_params


def R(seed, *shape):
    return numpy.random.RandomState(seed).randn(*shape).astype(numpy.float32)


def test_params():
    link = L.Highway(3)
    check_params(link, {'/plain/W': (3, 3), '/plain/b': (3,),
                        '/transform/W': (3, 3), '/transform/b': (3,)})
    numpy.testing.assert_array_equal(link.transform.b.array, [-1, -1, -1])
    check_params(L.Highway(2, nobias=True),
                 {'/plain/W': (2, 2), '/transform/W': (2, 2)})


def test_forward_matches_reference():
    # Expected values from Chainer 7.8.1 with the same arrays.
    link = L.Highway(2, init_Wh=R(1, 2, 2), init_Wt=R(2, 2, 2))
    y = link(R(0, 3, 2))
    numpy.testing.assert_allclose(y.array.ravel(), [
        1.890037, 0.39371, 0.843939, 0.801807, 2.134681, -0.975855],
        rtol=1e-5)


def test_activation_and_gradients():
    link = L.Highway(2, activate=F.tanh, init_bh=R(3, 2))
    x = R(0, 3, 2)
    t = F.sigmoid(link.transform(x))
    expected = F.tanh(link.plain(x)) * t + x * (1 - t)
    numpy.testing.assert_allclose(link(x).array, expected.array, rtol=1e-6)
    check_param_grads(link, (x,), R(4, 3, 2))
