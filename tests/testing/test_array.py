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


@pytest.mark.parametrize('x, y, kw, head', [
    (numpy.array(0.5), numpy.array(0.7), {},
     '\nNot equal to tolerance rtol=0.0001, atol=1e-05\n\n'
     'Mismatched elements: 1 / 1 (100%)\nMax absolute difference: 0.2\n'
     'Max relative difference: 0.28571429\n x: array(0.5)\n y: array(0.7)'),
    # the maxima run over all elements, not the violations only
    (numpy.array([1e10, 1.]), numpy.array([1e10 + 100, 2.]), {},
     '\nNot equal to tolerance rtol=0.0001, atol=1e-05\n\n'
     'Mismatched elements: 1 / 2 (50%)\nMax absolute difference: 100.\n'
     'Max relative difference: 0.5\n x: array([1.e+10, 1.e+00])\n'
     ' y: array([1.e+10, 2.e+00])'),
    (numpy.array([1., 2.]), numpy.array([1., 2.5]), {'verbose': False},
     '\nNot equal to tolerance rtol=0.0001, atol=1e-05\n\n'
     'Mismatched elements: 1 / 2 (50%)\nMax absolute difference: 0.5\n'
     'Max relative difference: 0.2'),
    (numpy.array([1., 2.]), numpy.array([1., 2., 3.]), {},
     '\nNot equal to tolerance rtol=0.0001, atol=1e-05\n\n'
     '(shapes (2,), (3,) mismatch)\n x: array([1., 2.])\n'
     ' y: array([1., 2., 3.])'),
    (numpy.array([1., -numpy.inf]), numpy.array([1., numpy.inf]), {},
     '\nNot equal to tolerance rtol=0.0001, atol=1e-05\n\n'
     'x and y +inf location mismatch:\n x: array([  1., -inf])\n'
     ' y: array([ 1., inf])'),
    (numpy.array([[1., numpy.nan], [2., 3.]]),
     numpy.array([[1., numpy.nan], [2., 3.5]]), {},
     '\nNot equal to tolerance rtol=0.0001, atol=1e-05\n\n'
     'Mismatched elements: 1 / 4 (25%)\nMax absolute difference: 0.5\n'
     'Max relative difference: 0.14285714\n x: array([[ 1., nan],\n'
     '       [ 2.,  3.]])\n y: array([[1. , nan],\n       [2. , 3.5]])'),
    (numpy.array([1, 2], numpy.uint8), numpy.array([3, 1], numpy.uint8),
     {'atol': 0, 'rtol': 0},
     '\nNot equal to tolerance rtol=0, atol=0\n\n'
     'Mismatched elements: 2 / 2 (100%)\nMax absolute difference: 2\n'
     'Max relative difference: 1.\n x: array([1, 2], dtype=uint8)\n'
     ' y: array([3, 1], dtype=uint8)'),
    (numpy.arange(30.).reshape(10, 3), numpy.zeros((10, 3)), {},
     '\nNot equal to tolerance rtol=0.0001, atol=1e-05\n\n'
     'Mismatched elements: 29 / 30 (96.7%)\nMax absolute difference: 29.\n'
     'Max relative difference: inf\n x: array([[ 0.,  1.,  2.],\n'
     '       [ 3.,  4.,  5.],\n       [ 6.,  7.,  8.],...\n'
     ' y: array([[0., 0., 0.],\n       [0., 0., 0.],\n'
     '       [0., 0., 0.],...'),
])
def test_assert_allclose_begins_with_numpy_1_message(x, y, kw, head):
    # Chainer 7.8.1 ran on NumPy 1.26, whose message NumPy 2 rewords
    with pytest.raises(AssertionError) as e:
        testing.assert_allclose(x, y, **kw)
    assert str(e.value).split('\n\nassert_allclose failed:\n')[0] == head
