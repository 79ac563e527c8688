import numpy

import chainer
import chainer.links as L


def test_holds_and_returns_parameter(tmp_path):
    array = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    link = L.Parameter(array)
    assert [name for name, _ in link.namedparams()] == ['/W']
    # a new Variable through two identity nodes (as Chainer), sharing W's
    # values; W's gradient starts NaN-filled, as an initialized parameter's
    y = link()
    assert y is not link.W and y.creator.label == 'Identity'
    assert y.creator.inputs[0].creator.label == 'Identity'
    numpy.testing.assert_array_equal(y.array, array)
    assert link(volatile='on').shape == (2, 3)
    assert link.W.array is array
    assert numpy.isnan(link.W.grad).all()
    y = chainer.functions.sum(link() * 2)
    link.cleargrads()
    y.backward()
    numpy.testing.assert_array_equal(link.W.grad, numpy.full((2, 3), 2.))
    path = str(tmp_path / 'p.npz')
    chainer.serializers.save_npz(path, link)
    other = L.Parameter(numpy.zeros((2, 3), numpy.float32))
    chainer.serializers.load_npz(path, other)
    numpy.testing.assert_array_equal(other.W.array, array)
