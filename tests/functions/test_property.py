"""Property tests: for random shapes and values, the analytic gradient of
elementwise and reduction functions equals the numerical one."""

import numpy
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import chainer.functions as F
from chainer import gradient_check

_shapes = hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=4)


def _arrays(low, high):
    return _shapes.flatmap(lambda shape: hnp.arrays(
        numpy.float64, shape,
        elements=st.floats(low, high, allow_nan=False, width=64)))


# (function, low, high): inputs are drawn in [low, high], away from the
# points where a function is not differentiable.
ELEMENTWISE = [
    (F.exp, -3, 3), (F.log, 0.2, 5), (F.tanh, -3, 3), (F.sigmoid, -5, 5),
    (F.sin, -3, 3), (F.cos, -3, 3), (F.square, -3, 3), (F.sqrt, 0.2, 5),
    (F.softplus, -5, 5), (F.log1p, -0.5, 3), (F.expm1, -2, 2),
    (F.arctan, -3, 3), (F.sinh, -2, 2), (F.cosh, -2, 2), (F.elu, 0.1, 3),
    (F.rsqrt, 0.3, 4), (F.selu, 0.1, 3), (F.arcsin, -0.8, 0.8),
]

REDUCTIONS = [
    lambda x: F.sum(x), lambda x: F.mean(x), lambda x: F.logsumexp(x),
    lambda x: F.sum(x, axis=-1) if x.ndim else F.sum(x),
    lambda x: F.max(x), lambda x: F.prod(x),
    lambda x: F.cumsum(x, axis=0) if x.ndim else F.identity(x),
]


@pytest.mark.parametrize('func,low,high', ELEMENTWISE,
                         ids=[f.__name__ for f, _, _ in ELEMENTWISE])
@settings(max_examples=12, deadline=None)
@given(data=st.data())
def test_elementwise_gradient(func, low, high, data):
    x = numpy.asarray(data.draw(_arrays(low, high)))
    gy = numpy.ones_like(x) * 0.7
    gradient_check.check_backward(func, x, gy, atol=1e-5, rtol=1e-4)


@pytest.mark.parametrize('index', range(len(REDUCTIONS)))
@settings(max_examples=12, deadline=None)
@given(data=st.data())
def test_reduction_gradient(index, data):
    func = REDUCTIONS[index]
    x = numpy.asarray(data.draw(_arrays(0.5, 2.0)))
    if index == 4:
        # max: ties (and near-ties, within the numerical step) are not
        # differentiable; keep the drawn order with values 0.1 apart.
        ranks = numpy.argsort(numpy.argsort(x, axis=None, kind='stable'))
        x = numpy.asarray(0.5 + 0.1 * ranks.reshape(x.shape))
    y = func(x)
    gy = numpy.full(y.shape, 0.7)
    gradient_check.check_backward(func, x, gy, atol=1e-5, rtol=1e-4)
