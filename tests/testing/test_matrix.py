import numpy
import pytest

from chainer import testing
from chainer.testing import matrix


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64,
                                   numpy.complex64, numpy.complex128])
@pytest.mark.parametrize('shape,s_shape', [
    ((2, 2), (2,)), ((2, 3), (2,)), ((3, 2), (2,)), ((2, 3, 4), (2, 3)),
    ((2, 2), ()), ((2, 3, 4), (2, 1)), ((0, 2, 3), (0, 2))])
def test_generate_matrix_has_the_singular_values(dtype, shape, s_shape):
    real = numpy.dtype(dtype).type(0).real.dtype
    sv = numpy.random.uniform(0.5, 1.5, s_shape).astype(real)
    x = testing.generate_matrix(shape, dtype=dtype, singular_values=sv)
    assert x.shape == shape and x.dtype == dtype
    if x.size == 0:
        return
    s = numpy.linalg.svd(x.astype(numpy.complex128), compute_uv=False)
    expected = numpy.sort(matrix._broadcast_to(sv, s.shape), axis=-1)
    numpy.testing.assert_allclose(s, expected[..., ::-1], rtol=1e-5)


def test_broadcast_to():
    out = matrix._broadcast_to(numpy.arange(3), (2, 3))
    numpy.testing.assert_array_equal(out, [[0, 1, 2], [0, 1, 2]])


def test_generate_matrix_errors():
    with pytest.raises(TypeError, match='not given'):
        testing.generate_matrix((2, 2))
    with pytest.raises(ValueError, match='too few axes'):
        testing.generate_matrix((2,), singular_values=1)
    with pytest.raises(TypeError, match='int32'):
        testing.generate_matrix((2, 2), dtype=numpy.int32, singular_values=1)
    with pytest.raises(TypeError, match='not real'):
        testing.generate_matrix((2, 2), singular_values=1 + 0j)
    with pytest.raises(ValueError, match='negative'):
        testing.generate_matrix((2, 2), singular_values=[1, -1])
    with pytest.raises(ValueError):
        testing.generate_matrix((2, 2), singular_values=numpy.ones(3))
    with pytest.raises(TypeError, match='foo'):
        testing.generate_matrix((2, 2), singular_values=1, foo=3)
