import numpy
import pytest

from chainer import initializers as I

# Chainer 7.8.1's Orthogonal() (scale 1.1) of a (2, 1, 2) float32 array
# after numpy.random.seed(0)
REFERENCE = [0.9618717432022095, -0.5336691737174988, 0.5336691737174988,
             0.9618717432022095]


def test_matches_reference():
    a = numpy.empty((2, 1, 2), numpy.float32)
    numpy.random.seed(0)
    I.Orthogonal()(a)
    numpy.testing.assert_allclose(a.ravel(), REFERENCE, rtol=1e-6)


@pytest.mark.parametrize('shape', [(3, 2), (2, 3), (3, 3), (4, 2, 3), (5,),
                                   (2, 3, 2, 2)])
@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64])
def test_orthonormal(shape, dtype):
    a = numpy.empty(shape, dtype)
    I.Orthogonal(scale=2.0)(a)
    m = a.reshape(1 if len(shape) == 1 else shape[0], -1).astype(
        numpy.float64) / 2.0
    tol = 1e-2 if dtype == numpy.float16 else 1e-5
    if m.shape[0] <= m.shape[1]:
        numpy.testing.assert_allclose(m @ m.T, numpy.eye(m.shape[0]),
                                      atol=tol)
    else:
        numpy.testing.assert_allclose(m.T @ m, numpy.eye(m.shape[1]),
                                      atol=tol)
    assert a.dtype == dtype


def test_modes():
    a = numpy.empty((3, 2))
    I.Orthogonal(mode='embedding')(a)
    with pytest.raises(ValueError, match='projection.*2-dim input and '
                                         '3-dim output'):
        I.Orthogonal(mode='projection')(a)
    with pytest.raises(ValueError, match='basis'):
        I.Orthogonal(mode='basis')(a)
    with pytest.raises(ValueError, match='embedding'):
        I.Orthogonal(mode='embedding')(numpy.empty((2, 3)))
    I.Orthogonal(mode='basis')(numpy.empty((3, 3)))
    with pytest.raises(ValueError, match='Invalid mode'):
        I.Orthogonal(mode='x')


def test_empty_and_rng():
    with pytest.raises(ValueError, match='non-empty'):
        I.Orthogonal()(numpy.empty((0, 2)))
    a, b = numpy.empty((3, 3)), numpy.empty((3, 3))
    I.Orthogonal(rng=numpy.random.RandomState(1))(a)
    I.Orthogonal(rng=numpy.random.RandomState(1))(b)
    numpy.testing.assert_array_equal(a, b)


def test_vector_is_one_column():
    # as Chainer: shape (3,) is a 1-dim input and a 3-dim output
    a = numpy.empty(3, numpy.float32)
    with pytest.raises(ValueError, match='1-dim input and 3-dim output'):
        I.Orthogonal(mode='projection')(a)
    with pytest.raises(ValueError, match='orthogonal basis'):
        I.Orthogonal(mode='basis')(a)
    I.Orthogonal(mode='embedding', scale=2.)(a)
    numpy.testing.assert_allclose(numpy.linalg.norm(a), 2., rtol=1e-6)


def test_zero_dim_draws_a_sign_as_chainer():
    # Chainer 7.8.1: numpy.random.randint(2) picks the sign (1 after seed 1)
    numpy.random.seed(1)
    a = numpy.empty((), numpy.float32)
    I.Orthogonal()(a)
    assert a == numpy.float32(1.1)
    assert numpy.random.randint(100) == 12   # one draw consumed
    with pytest.raises(ValueError) as info:
        I.Orthogonal()(numpy.empty((0, 3), numpy.float32))
    assert str(info.value) == 'Array to be initialized must be non-empty.'
