import numpy

import chainer
import chainer.links as L


def test_holds_and_returns_parameter(tmp_path):
    array = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    link = L.Parameter(array)
    assert [name for name, _ in link.namedparams()] == ['/W']
    assert link() is link.W and link(volatile='on') is link.W
    assert link.W.array is array
    y = chainer.functions.sum(link() * 2)
    link.cleargrads()
    y.backward()
    numpy.testing.assert_array_equal(link.W.grad, numpy.full((2, 3), 2.))
    path = str(tmp_path / 'p.npz')
    chainer.serializers.save_npz(path, link)
    other = L.Parameter(numpy.zeros((2, 3), numpy.float32))
    chainer.serializers.load_npz(path, other)
    numpy.testing.assert_array_equal(other.W.array, array)
