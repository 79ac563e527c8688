import numpy
import pytest

import chainer
import chainer.functions as F
from op_harness import check_op


def test_matches_softmax_of_gumbel_noise():
    log_pi = numpy.log(numpy.array([[0.2, 0.3, 0.5], [0.1, 0.1, 0.8]],
                                   numpy.float32))
    numpy.random.seed(0)
    y = F.gumbel_softmax(log_pi, tau=0.5)
    assert y.dtype == numpy.float32 and y.creator.label == 'Softmax'
    numpy.random.seed(0)
    z = (log_pi + numpy.random.gumbel(size=(2, 3))) / 0.5
    e = numpy.exp(z - z.max(axis=1, keepdims=True))
    numpy.testing.assert_allclose(y.array, e / e.sum(axis=1, keepdims=True),
                                  rtol=1e-5)
    numpy.testing.assert_allclose(y.array.sum(axis=1), [1, 1], rtol=1e-6)


def test_axis_and_low_temperature():
    log_pi = numpy.log(numpy.full((3, 2), 0.5, numpy.float64))
    y = F.gumbel_softmax(log_pi, tau=1e-4, axis=0)
    assert y.shape == (3, 2) and y.dtype == numpy.float64
    # Nearly one-hot along axis 0.
    numpy.testing.assert_allclose(y.array.max(axis=0), [1, 1], atol=1e-6)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32])
def test_gradient(dtype):
    def f(log_pi):
        # the same noise for every evaluation, from the input's generator
        chainer.backend.get_array_module(log_pi).random.seed(3)
        return F.gumbel_softmax(log_pi, tau=2.0)
    check_op(f, lambda rng, dt: (numpy.asarray(rng.randn(2, 3), dt),),
             dtypes=(dtype,))


def test_variable_input_and_test_mode():
    v = chainer.Variable(numpy.zeros((2, 3), numpy.float32))
    with chainer.using_config('train', False):
        y = F.gumbel_softmax(v)
    F.sum(y * y).backward()
    assert v.grad.shape == (2, 3)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32])
def test_zero_dimensional_log_pi_gives_one(dtype):
    y = F.gumbel_softmax(numpy.array(0.5, dtype))
    assert y.shape == () and y.dtype == dtype
    assert float(y.array) == 1.0
