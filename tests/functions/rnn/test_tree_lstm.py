import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils.type_check import InvalidType
from op_harness import check_op

# Computed with Chainer 7.8.1: c1, c2 (2, 2) and x (2, 10), drawn in this
# order from RandomState(3).
TREE_CN = [[0.80562066, -0.20187072], [0.14817165, -1.26077716]]
TREE_H = [[0.47175085, -0.16865546], [0.1199573, -0.47578303]]


def _sigmoid(x):
    return 1 / (1 + numpy.exp(-x))


def _tree_ref(*inputs):
    cs, x = inputs[:-1], inputs[-1]
    n = len(cs) + 3
    r = x.reshape((len(x), n, x.shape[1] // n) + x.shape[2:])
    a, i, o = numpy.tanh(r[:, 0]), _sigmoid(r[:, 1]), _sigmoid(r[:, 2])
    c = a * i
    for k, c_k in enumerate(cs):
        c = c + _sigmoid(r[:, 3 + k]) * c_k
    return c, o * numpy.tanh(c)


@pytest.mark.parametrize('n_children,c_shape', [(2, (3, 2)), (1, (2, 2, 2)),
                                                (3, (2, 1))])
def test_tree_lstm(n_children, c_shape):
    x_shape = (c_shape[0], (3 + n_children) * c_shape[1]) + c_shape[2:]

    def make(rng, dt):
        return tuple(rng.randn(*c_shape).astype(dt)
                     for _ in range(n_children)) + (
            rng.randn(*x_shape).astype(dt),)

    check_op(F.tree_lstm, make, _tree_ref,
             bwd_tol={numpy.float16: dict(atol=1e-1, rtol=1e-1)})


def test_reference_values():
    rng = numpy.random.RandomState(3)
    c1, c2, x = rng.randn(2, 2), rng.randn(2, 2), rng.randn(2, 10)
    c, h = F.tree_lstm(c1, c2, x)
    testing.assert_allclose(c.array, TREE_CN, atol=1e-8)
    testing.assert_allclose(h.array, TREE_H, atol=1e-8)
    assert c.creator.label == 'TreeLSTM'


def test_errors():
    c = numpy.ones((2, 2), 'f')
    x = numpy.ones((2, 10), 'f')
    with pytest.raises(InvalidType, match='x.shape\\[1\\] == 5'):
        F.tree_lstm(c, c, x[:, :9])
    with pytest.raises(InvalidType, match='in_types.size >= 2'):
        F.tree_lstm(x)
    with pytest.raises(InvalidType, match='shape\\[0\\] == x.shape\\[0\\]'):
        F.tree_lstm(c, numpy.ones((3, 2), 'f'), x)


def test_mixed_dtypes_without_type_check():
    # as Chainer: with type_check off the dtypes promote, the forget terms
    # summed before a * i is added (Chainer's rounding)
    import chainer
    c1 = numpy.array([[0.3]], numpy.float16)
    c2 = numpy.array([[1.1]], numpy.float32)
    x = numpy.concatenate([c2, [[0.4, -0.35]]], 1).astype(numpy.float32)
    x = numpy.concatenate([x, [[0.9, -0.2]]], 1)
    with pytest.raises(InvalidType, match='x.dtype == c_1.dtype'):
        F.tree_lstm(c1, c2, x)
    with chainer.using_config('type_check', False):
        c, h = F.tree_lstm(c1, c2, x)
    assert c.dtype == h.dtype == numpy.float64
    assert c.array.tolist() == [[1.1877510713414745]]
    assert h.array.tolist() == [[0.343057839755602]]
    c1 = numpy.array([[0.3, -0.6]], numpy.float16)
    c2 = numpy.array([[1.1, 0.7]], numpy.float32)
    x = numpy.array([[1.3, -0.8, 0.6, 2.1, -1.4, 0.2, 0.5, -0.3, 1.7, 0.1]],
                    numpy.float16)
    with chainer.using_config('type_check', False):
        c, h = F.tree_lstm(c1, c2, x)
    assert c.dtype == numpy.float32
    assert c.array.tolist() == [[1.6731934547424316, -0.479248046875]]
    assert h.array.tolist() == [[0.1843012273311615, -0.24501562118530273]]
