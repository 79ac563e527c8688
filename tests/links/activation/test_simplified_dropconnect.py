import numpy

import chainer

import chainer.links as L
from link_harness import check_param_grads, check_params


def R(seed, *shape):
    return numpy.random.RandomState(seed).randn(*shape).astype(numpy.float32)


class _WithMask(chainer.Chain):

    def __init__(self, link):
        super().__init__()
        with self.init_scope():
            self.link = link

    def forward(self, x, mask):
        return self.link(x, mask=mask.array)


def test_params_and_lazy():
    link = L.SimplifiedDropconnect(3, 2)
    check_params(link, {'/W': (2, 3), '/b': (2,)})
    assert link.ratio == 0.5 and link.out_size == 2
    link = L.SimplifiedDropconnect(None, 2, nobias=True)
    check_params(link, {'/W': None})
    assert link(numpy.ones((2, 3, 2), numpy.float32)).shape == (2, 2)
    assert link.W.shape == (2, 6)


def test_forward_matches_reference():
    # Expected values from Chainer 7.8.1 with the same arrays (test mode:
    # a plain linear layer).
    link = L.SimplifiedDropconnect(3, 2, initialW=R(1, 2, 3),
                                   initial_bias=R(2, 2))
    y = link(R(0, 2, 3), train=False)
    numpy.testing.assert_allclose(y.array.ravel(), [
        1.686932, -3.855344, 2.596907, 1.404767], rtol=1e-5)


def test_mask_and_gradients():
    link = L.SimplifiedDropconnect(3, 2, ratio=0.5, initialW=1.)
    mask = numpy.zeros((2, 2, 3), numpy.float32)
    mask[:, :, 0] = 1
    y = link(numpy.ones((2, 3), numpy.float32), mask=mask)
    numpy.testing.assert_allclose(y.array, numpy.full((2, 2), 2.))
    link = _WithMask(L.SimplifiedDropconnect(3, 2, initial_bias=R(2, 2)))
    mask = (R(4, 2, 2, 3) > 0).astype(numpy.float32)
    check_param_grads(link, (R(0, 2, 3), mask), R(3, 2, 2),
                      no_grads=[False, True])
