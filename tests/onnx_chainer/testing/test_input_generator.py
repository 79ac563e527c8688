import numpy

from onnx_chainer.testing import input_generator


def test_increasing():
    x = input_generator.increasing(2, 3)
    assert x.dtype == numpy.float32
    numpy.testing.assert_array_equal(x, [[-1.5, -1, -0.5], [0, 0.5, 1]])
    i = input_generator.increasing(4, dtype=numpy.int32)
    numpy.testing.assert_array_equal(i, [-2, -1, 0, 1])


def test_nonzero_and_positive():
    x = input_generator.nonzero_increasing(3, 4)
    assert (x != 0).all() and (numpy.diff(x.ravel()) > 0).all()
    p = input_generator.positive_increasing(3, 4, dtype=numpy.float64)
    assert p.dtype == numpy.float64 and (p > 0).all()
    assert (numpy.diff(p.ravel()) > 0).all()
