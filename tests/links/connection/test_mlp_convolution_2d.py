import numpy
import pytest

import chainer.functions as F
import chainer.links as L
from link_harness import check_param_grads, check_params


def R(seed, *shape):
    return numpy.random.RandomState(seed).randn(*shape).astype(numpy.float32)


def test_params_and_printable():
    link = L.MLPConvolution2D(3, (4, 5, 6), 3, stride=2, pad=1)
    check_params(link, {'/0/W': (4, 3, 3, 3), '/0/b': (4,),
                        '/1/W': (5, 4, 1, 1), '/1/b': (5,),
                        '/2/W': (6, 5, 1, 1), '/2/b': (6,)})
    assert link[0].stride == (2, 2) and link[1].stride == (1, 1)
    assert str(link).splitlines()[1] == (
        '  (0): Convolution2D(in_channels=3, out_channels=4, ksize=3, '
        'stride=(2, 2), pad=(1, 1), nobias=False, dilate=(1, 1), '
        'groups=1),')
    link = L.MLPConvolution2D((4, 5), 3, conv_init=1., bias_init=2.)
    check_params(link, {'/0/W': None, '/0/b': (4,), '/1/W': (5, 4, 1, 1),
                        '/1/b': (5,)})
    numpy.testing.assert_array_equal(link[1].b.array, numpy.full(5, 2.))


def test_forward_no_activation_after_last():
    link = L.MLPConvolution2D(3, (4, 5, 2), 3, activation=F.tanh)
    x = R(0, 1, 3, 4, 4)
    expected = link[2](F.tanh(link[1](F.tanh(link[0](x)))))
    numpy.testing.assert_allclose(link(x).array, expected.array, rtol=1e-6)
    link = L.MLPConvolution2D(2, (2, 2), 2)
    check_param_grads(link, (R(0, 1, 2, 3, 3),), R(1, 1, 2, 2, 2))


def test_errors():
    with pytest.raises(TypeError, match='wscale'):
        L.MLPConvolution2D(3, (4, 5), 3, 1, 0, F.relu, 7)
    with pytest.raises(ValueError, match='wscale'):
        L.MLPConvolution2D(3, (4, 5), 3, wscale=2)
    with pytest.raises(TypeError, match='foo'):
        L.MLPConvolution2D(3, (4,), 3, foo=1)
    with pytest.raises(ValueError, match='empty'):
        L.MLPConvolution2D(3, (), 3)
