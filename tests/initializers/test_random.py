"""Normal, Uniform and the fan-scaled LeCun, Glorot and He initializers."""

import numpy
import pytest

from chainer import initializers as I
from chainer.initializers import normal, uniform

# Chainer 7.8.1's output for a (2, 1, 2) float32 array after
# numpy.random.seed(0): drawn the same way, the numbers must agree.
REFERENCE = {
    'Normal': (I.Normal(0.5), [0.882026195526123, 0.20007860660552979,
                               0.4893690049648285, 1.1204465627670288]),
    'LeCunNormal': (I.LeCunNormal(), [1.247373342514038, 0.2829538881778717,
                                      0.6920722723007202, 1.5845507383346558]),
    'GlorotNormal': (I.GlorotNormal(2.0), [
        2.036952257156372, 0.46206173300743103, 1.130149245262146,
        2.5875606536865234]),
    'HeNormal': (I.HeNormal(fan_option='fan_out'), [
        1.247373342514038, 0.2829538881778717, 0.6920722723007202,
        1.5845507383346558]),
    'Uniform': (I.Uniform(0.5), [0.04881350323557854, 0.2151893675327301,
                                 0.10276337713003159, 0.044883184134960175]),
    'LeCunUniform': (I.LeCunUniform(), [
        0.11956817656755447, 0.5271041393280029, 0.25171783566474915,
        0.10994089394807816]),
    'GlorotUniform': (I.GlorotUniform(), [
        0.09762700647115707, 0.4303787350654602, 0.20552675426006317,
        0.08976636826992035]),
    'HeUniform': (I.HeUniform(0.5), [
        0.08454746752977371, 0.3727189302444458, 0.17799139022827148,
        0.07773995399475098]),
}


@pytest.mark.parametrize('name', sorted(REFERENCE))
def test_matches_reference(name):
    init, expected = REFERENCE[name]
    a = numpy.empty((2, 1, 2), numpy.float32)
    numpy.random.seed(0)
    init(a)
    numpy.testing.assert_array_equal(a.ravel(), numpy.float32(expected))


# (class, kind, numerator, fan): std or half width = scale*sqrt(num / fan)
SHAPE = (4, 2, 3, 3)  # a conv kernel: fan_in = 2*9 = 18, fan_out = 4*9 = 36
CASES = [
    (I.LeCunNormal, {}, 'normal', 1.0 / 18),
    (I.GlorotNormal, {}, 'normal', 2.0 / (18 + 36)),
    (I.HeNormal, {}, 'normal', 2.0 / 18),
    (I.HeNormal, {'fan_option': 'fan_out'}, 'normal', 2.0 / 36),
    (I.LeCunUniform, {}, 'uniform', 3.0 / 18),
    (I.GlorotUniform, {}, 'uniform', 6.0 / (18 + 36)),
    (I.HeUniform, {}, 'uniform', 6.0 / 18),
]


@pytest.mark.parametrize('cls,kwargs,kind,ratio', CASES)
@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64])
def test_conv_fans_and_dtypes(cls, kwargs, kind, ratio, dtype):
    scale = 1.5
    a = numpy.empty(SHAPE, dtype)
    numpy.random.seed(1)
    cls(scale, **kwargs)(a)
    s = scale * numpy.sqrt(ratio)
    numpy.random.seed(1)
    if kind == 'normal':
        expected = numpy.random.normal(0, s, SHAPE)
    else:
        expected = numpy.random.uniform(-s, s, SHAPE)
    assert a.dtype == dtype
    numpy.testing.assert_array_equal(a, expected.astype(dtype))


def test_plain_normal_and_uniform_any_shape():
    for init, ref in [(I.Normal(), lambda: numpy.random.normal(0, .05, (3,))),
                      (I.Uniform(), lambda: numpy.random.uniform(
                          -.05, .05, (3,)))]:
        for shape in [(3,), ()]:
            a = numpy.empty(shape, numpy.float32)
            numpy.random.seed(2)
            init(a)
            numpy.random.seed(2)
            numpy.testing.assert_allclose(a, ref()[:a.size].reshape(shape),
                                          rtol=1e-6)


def test_rng_option():
    a = numpy.empty(4)
    I.GlorotUniform(rng=numpy.random.RandomState(7))(a.reshape(2, 2))
    b = numpy.empty(4)
    I.GlorotUniform(rng=numpy.random.RandomState(7))(b.reshape(2, 2))
    numpy.testing.assert_array_equal(a, b)
    c = numpy.empty(3)
    I.Normal(rng=numpy.random.RandomState(0))(c)
    numpy.testing.assert_array_equal(
        c, numpy.random.RandomState(0).normal(0, 0.05, 3))


def test_statistics():
    a = numpy.empty((200, 50))
    I.HeNormal()(a)
    assert abs(a.std() - numpy.sqrt(2 / 50)) < 0.01
    I.Uniform(0.3)(a)
    assert a.min() >= -0.3 and a.max() < 0.3


def test_empty_array():
    for cls in (I.LeCunNormal, I.GlorotUniform, I.Normal):
        a = numpy.empty((3, 0))
        cls()(a)
        assert a.shape == (3, 0)


@pytest.mark.parametrize('cls', [I.LeCunNormal, I.GlorotNormal, I.HeNormal,
                                 I.LeCunUniform, I.GlorotUniform,
                                 I.HeUniform])
def test_needs_two_dims(cls):
    with pytest.raises(ValueError, match='shape'):
        cls()(numpy.empty(3))


@pytest.mark.parametrize('cls', [I.Normal, I.Uniform, I.LeCunNormal,
                                 I.HeUniform, I.Orthogonal])
def test_dtype_mismatch_and_bad_kwargs(cls):
    init = cls(dtype=numpy.float64)
    assert init.dtype == numpy.float64
    with pytest.raises(ValueError, match=r"^float32 != <class 'numpy\.float64'>$"):
        init(numpy.empty((2, 2), numpy.float32))
    with pytest.raises(AssertionError):  # Chainer's error type
        init(numpy.empty((2, 2), numpy.float32))
    with pytest.raises(TypeError, match='foo'):
        cls(foo=1)


def test_he_fan_option():
    with pytest.raises(ValueError, match="^fan_option should be either "
                       "'fan_in' or 'fan_out'.$"):
        I.HeNormal(fan_option='fan_avg')(numpy.empty((2, 2)))
    # attributes in Chainer 7.8.1's order (users print vars())
    assert list(vars(I.HeNormal())) == ['scale', 'fan_option', 'rng',
                                        'dtype']


def test_modules():
    assert normal.Normal is I.Normal and uniform.HeUniform is I.HeUniform
