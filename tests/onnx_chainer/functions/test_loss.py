import numpy
import pytest

import chainer.functions as F
from onnx_harness import Fn, check, rand


@pytest.mark.parametrize('kwargs', [
    {}, {'normalize': False}, {'reduce': 'no'},
    {'class_weight': numpy.array([1, 2, 0.5, 1, 3], numpy.float32)}])
@pytest.mark.parametrize('shape', [(4, 5), (3, 5, 2, 2)])
def test_softmax_cross_entropy(kwargs, shape):
    t = numpy.random.randint(0, 5, (shape[0],) + shape[2:]).astype('i')
    t.flat[1] = -1  # ignore_label
    model = Fn(lambda x, t: F.softmax_cross_entropy(x, t, **kwargs))
    check(model, (rand(*shape), t), atol=1e-5)


@pytest.mark.parametrize('fn', [F.mean_squared_error, F.mean_absolute_error])
def test_mean_error(fn):
    check(Fn(fn), (rand(3, 4), rand(3, 4)))
