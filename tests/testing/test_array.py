import numpy
import pytest

from chainer import testing


def test_assert_allclose_reports_as_chainer():
    # Chainer 7.8.1's report after NumPy's message: shapes, dtypes, the
    # element furthest beyond its tolerance, and both arrays
    with pytest.raises(AssertionError) as e:
        testing.assert_allclose(numpy.array([1., 2., 3.]),
                                numpy.array([1., 2.5, 3.]))
    tail = str(e.value).split('\n\nassert_allclose failed:\n')[1]
    assert tail == (
        '  shape: (3,) (3,)\n'
        '  dtype: float64 float64\n'
        '  i: (1,)\n'
        '  x[i]: 2.0\n'
        '  y[i]: 2.5\n'
        '  relative error[i]: 0.2\n'
        '  absolute error[i]: 0.5\n'
        '  relative tolerance * |y[i]|: 0.00025\n'
        '  absolute tolerance: 1e-05\n'
        '  total tolerance: 0.00026000000000000003\n'
        'x: [1. 2. 3.]\n'
        'y: [1.  2.5 3. ]\n')


def test_assert_allclose_passes_within_tolerance():
    testing.assert_allclose(numpy.ones(2), numpy.ones(2) + 1e-6)
