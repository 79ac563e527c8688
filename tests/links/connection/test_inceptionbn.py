import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L


def R(seed, *shape):
    return numpy.random.RandomState(seed).randn(*shape).astype(numpy.float32)


def _reference(link, x):
    r = F.relu
    outs = []
    if link.out1 > 0:
        outs.append(r(link.conv1n(link.conv1(x))))
    h = r(link.proj3n(link.proj3(x)))
    outs.append(r(link.conv3n(link.conv3(h))))
    h = r(link.proj33n(link.proj33(x)))
    h = r(link.conv33an(link.conv33a(h)))
    outs.append(r(link.conv33bn(link.conv33b(h))))
    if link.pooltype == 'max':
        p = F.max_pooling_2d(x, 3, stride=link.stride, pad=1, cover_all=False)
    else:
        p = F.average_pooling_2d(x, 3, stride=link.stride, pad=1)
    if link.proj_pool is not None:
        p = r(link.poolpn(link.poolp(p)))
    outs.append(p)
    return F.concat(outs, axis=1)


@pytest.mark.parametrize('args, kwargs, shape', [
    ((3, 2, 2, 3, 2, 3, 'max'), dict(proj_pool=2), (2, 10, 4, 4)),
    ((3, 0, 2, 3, 2, 3, 'avg'), dict(stride=2), (2, 9, 2, 2)),
])
def test_forward_composition(args, kwargs, shape):
    link = L.InceptionBN(*args, **kwargs)
    x = R(0, 2, 3, 4, 4)
    y = link(x)
    assert y.shape == shape
    with chainer.using_config('train', False):
        numpy.testing.assert_allclose(link(x).array,
                                      _reference(link, x).array, rtol=1e-5)


def test_children_and_options():
    link = L.InceptionBN(3, 2, 2, 3, 2, 3, 'max', proj_pool=2,
                         dtype=numpy.float64)
    names = sorted(name for name, _ in link.namedlinks(skipself=True))
    assert names == ['/conv1', '/conv1n', '/conv3', '/conv33a', '/conv33an',
                     '/conv33b', '/conv33bn', '/conv3n', '/poolp', '/poolpn',
                     '/proj3', '/proj33', '/proj33n', '/proj3n']
    assert link.proj3.b is None
    assert link.proj3n.gamma.dtype == numpy.float64
    assert link.proj3.W.dtype == numpy.float32
    assert '/conv1' not in dict(L.InceptionBN(
        3, 0, 2, 3, 2, 3, 'avg').namedlinks(skipself=True))
    with pytest.raises(NotImplementedError):
        L.InceptionBN(3, 0, 2, 3, 2, 3, 'foo')
    with pytest.raises(ValueError, match='out1'):
        L.InceptionBN(3, 2, 2, 3, 2, 3, 'max', stride=2)
