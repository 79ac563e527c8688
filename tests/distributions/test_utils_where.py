"""distributions.utils._where: the Variable branch sets the dtype."""

import numpy

import chainer
from chainer.distributions import utils


def test_raw_branch_takes_the_dtype_of_the_variable_branch():
    # Under NumPy 1, raw arithmetic on 0-d float32 arrays may give float64.
    y = chainer.Variable(numpy.array([2., 3.], numpy.float32))
    raw = numpy.array([5., 6.], numpy.float64)
    out = utils._where(numpy.array([True, False]), raw, y)
    assert out.dtype == numpy.float32
    numpy.testing.assert_array_equal(out.array, [5., 3.])
    out = utils._where(numpy.array([True, False]), y, raw)
    assert out.dtype == numpy.float32
    numpy.testing.assert_array_equal(out.array, [2., 6.])
