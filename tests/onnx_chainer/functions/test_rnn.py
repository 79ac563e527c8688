import numpy
import pytest

import chainer.functions as F
from onnx_harness import Fn, check, rand


@pytest.mark.parametrize('batch', [3, 2])
def test_lstm(batch):
    # (a smaller batch of x leaves the last rows of c as they are)
    model = Fn(lambda c, x: F.lstm(c, x))
    check(model, (rand(3, 4), rand(batch, 16)), atol=1e-5)


def test_lstm_more_axes():
    check(Fn(lambda c, x: F.lstm(c, x)), (rand(2, 3, 2), rand(2, 12, 2)),
          atol=1e-5)


def test_lstm_zero_state():
    c = numpy.zeros((2, 3), numpy.float32)
    check(Fn(lambda x: F.lstm(c, x)[1]), rand(2, 12), atol=1e-5)
