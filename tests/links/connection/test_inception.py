import numpy

import chainer.functions as F
import chainer.links as L
from link_harness import check_params


def R(seed, *shape):
    return numpy.random.RandomState(seed).randn(*shape).astype(numpy.float32)


def test_params_and_printable():
    link = L.Inception(3, 2, 2, 3, 2, 3, 2)
    check_params(link, {
        '/conv1/W': (2, 3, 1, 1), '/conv1/b': (2,),
        '/proj3/W': (2, 3, 1, 1), '/proj3/b': (2,),
        '/conv3/W': (3, 2, 3, 3), '/conv3/b': (3,),
        '/proj5/W': (2, 3, 1, 1), '/proj5/b': (2,),
        '/conv5/W': (3, 2, 5, 5), '/conv5/b': (3,),
        '/projp/W': (2, 3, 1, 1), '/projp/b': (2,)})
    text = str(link)
    assert text.startswith('Inception(\n  (conv1): Convolution2D(')
    assert '(conv5): Convolution2D(in_channels=2, out_channels=3, ksize=5, ' \
        'stride=(1, 1), pad=(2, 2)' in text
    link = L.Inception(3, 2, 2, 3, 2, 3, 2, conv_init=1., bias_init=2.)
    numpy.testing.assert_array_equal(link.conv1.b.array, [2, 2])


def test_forward_composition():
    link = L.Inception(3, 2, 2, 3, 2, 3, 2)
    x = R(0, 1, 3, 4, 4)
    y = link(x)
    assert y.shape == (1, 10, 4, 4)
    out3 = link.conv3(F.relu(link.proj3(x)))
    out5 = link.conv5(F.relu(link.proj5(x)))
    pool = link.projp(F.max_pooling_2d(x, 3, stride=1, pad=1))
    expected = F.relu(F.concat((link.conv1(x), out3, out5, pool), axis=1))
    numpy.testing.assert_allclose(y.array, expected.array, rtol=1e-6)
    link.cleargrads()
    F.sum(y).backward()
    assert all(p.grad is not None for p in link.params())
