import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import gradient_check
from chainer import memory_layouts as ml

X = ml.CUDNN_CHANNEL_LAST_X
W = ml.CUDNN_CHANNEL_LAST_W


def _x(shape=(2, 3, 4, 5)):
    return numpy.arange(numpy.prod(shape), dtype=numpy.float32).reshape(shape)


def test_constants():
    assert ml.CUDNN_CHANNEL_FIRST_X is None
    assert ml.CUDNN_CHANNEL_FIRST_W is None
    assert ml.CUDNN_CHANNEL_LAST_X == 'CUDNN_CHANNEL_LAST_X'
    assert ml.CUDNN_CHANNEL_LAST_W == 'CUDNN_CHANNEL_LAST_W'


@pytest.mark.parametrize('ndim, src, dst, axes', [
    (4, None, X, (0, 2, 3, 1)),
    (4, None, W, (0, 2, 3, 1)),
    (4, X, None, (0, 3, 1, 2)),
    (4, W, None, (0, 3, 1, 2)),
    (3, None, X, (0, 2, 1)),
    (5, None, X, (0, 2, 3, 4, 1)),
    (6, X, None, (0, 5, 1, 2, 3, 4)),
    (4, None, None, None),
    (4, X, X, None),
    (2, None, None, None),
])
def test_transpose_axes(ndim, src, dst, axes):
    assert ml._get_layout_transpose_axes(ndim, src, dst) == axes


@pytest.mark.parametrize('ndim, src, dst, match', [
    (4, 'foo', None, "from 'foo' to None"),
    (4, None, 'foo', "from None to 'foo'"),
    (4, X, W, 'Unknown layout conversion'),
    (2, None, X, 'at least 3'),
])
def test_transpose_axes_errors(ndim, src, dst, match):
    with pytest.raises(ValueError, match=match):
        ml._get_layout_transpose_axes(ndim, src, dst)


def test_shapes_of_arrays():
    x = _x()
    assert ml.get_raw_shape(x) == (2, 3, 4, 5)
    assert ml.get_semantic_shape(x) == (2, 3, 4, 5)
    assert ml.get_semantic_shape(x, assumed_layout=None) == (2, 3, 4, 5)
    assert ml.get_semantic_shape(x, assumed_layout=X) == (2, 5, 3, 4)
    assert ml.get_semantic_shape(x[0], assumed_layout=W) == (3, 5, 4)
    assert ml.get_raw_shape(numpy.float32(3)) == ()
    with pytest.raises(ValueError):
        ml.get_semantic_shape(x[0, 0], assumed_layout=X)


def test_shapes_of_standard_variable():
    v = chainer.Variable(_x())
    assert ml.get_raw_shape(v) == (2, 3, 4, 5)
    assert ml.get_semantic_shape(v) == (2, 3, 4, 5)
    assert ml.get_semantic_shape(v, assumed_layout=None) == (2, 3, 4, 5)
    with pytest.raises(ValueError, match='assumed_layout'):
        ml.get_semantic_shape(v, assumed_layout=X)


def test_semantic_shape_is_keyword_only():
    with pytest.raises(TypeError):
        ml.get_semantic_shape(_x(), X)


def test_as_layout_standard_is_identity():
    v = chainer.Variable(_x())
    assert v.layout is None
    assert v.as_layout(None) is v
    assert chainer.Variable().as_layout(None).array is None


def test_as_layout_channel_last():
    x = _x()
    v = chainer.Variable(x)
    w = v.as_layout(X)
    assert isinstance(w, chainer.Variable)
    assert w.layout == X
    assert w.shape == (2, 3, 4, 5)
    assert w.raw_array.shape == (2, 4, 5, 3)
    numpy.testing.assert_array_equal(w.raw_array, x.transpose(0, 2, 3, 1))
    assert ml.get_raw_shape(w) == (2, 4, 5, 3)
    assert ml.get_semantic_shape(w) == (2, 3, 4, 5)
    assert w.as_layout(X) is w
    with pytest.raises(RuntimeError, match='non-standard layout'):
        w.array
    with pytest.raises(RuntimeError, match='non-standard layout'):
        w.data
    node = w.creator
    assert isinstance(node, ml.AsLayout)
    assert (node.in_layout, node.out_layout, node.axes) == (None, X, (0, 2, 3, 1))


def test_as_layout_round_trip():
    x = _x((2, 3, 4))
    u = chainer.Variable(x).as_layout(W).as_layout(None)
    assert u.layout is None and u.shape == (2, 3, 4)
    numpy.testing.assert_array_equal(u.array, x)
    node = u.creator
    assert (node.in_layout, node.out_layout, node.axes) == (W, None, (0, 2, 1))


def test_as_layout_errors():
    with pytest.raises(ValueError, match="from None to 'foo'"):
        chainer.Variable(_x()).as_layout('foo')
    with pytest.raises(ValueError, match='at least 3'):
        chainer.Variable(_x((2, 3))).as_layout(X)
    w = chainer.Variable(_x()).as_layout(X)
    with pytest.raises(ValueError, match='Unknown layout conversion'):
        w.as_layout(W)


def test_as_layout_without_backprop_keeps_layout():
    with chainer.no_backprop_mode():
        w = chainer.Variable(_x()).as_layout(X)
    assert w.layout == X and w.creator is None
    assert w.raw_array.shape == (2, 4, 5, 3)


def test_as_layout_on_plain_array():
    y, = ml.AsLayout(X).apply((_x(),))
    assert y.layout == X and y.raw_array.shape == (2, 4, 5, 3)
    z, = ml.AsLayout(None).apply((_x(),))
    assert z.layout is None and z.shape == (2, 3, 4, 5)


def test_backward_through_round_trip():
    x = _x()
    v = chainer.Variable(x)
    w = v.as_layout(X)
    u = w.as_layout(None)
    gy = numpy.random.randn(2, 3, 4, 5).astype(numpy.float32)
    u.grad = gy
    u.backward(retain_grad=True)
    numpy.testing.assert_array_equal(v.grad, gy)
    # The intermediate gradient is stored like its variable: channel last.
    numpy.testing.assert_array_equal(w.grad, gy.transpose(0, 2, 3, 1))
    assert w.grad_var.layout == X


def test_double_backward():
    x = chainer.Variable(_x((2, 3, 2)))
    y = F.sum(x.as_layout(X).as_layout(None) ** 2)
    gx, = chainer.grad([y], [x], enable_double_backprop=True)
    numpy.testing.assert_allclose(gx.array, 2 * x.array)
    ggx, = chainer.grad([F.sum(gx)], [x])
    numpy.testing.assert_allclose(ggx.array, numpy.full((2, 3, 2), 2.0))


def test_gradient_check():
    def round_trip(x):
        return x.as_layout(X).as_layout(None)

    x = numpy.random.randn(2, 3, 4, 2)
    gy = numpy.random.randn(2, 3, 4, 2)
    ggx = numpy.random.randn(2, 3, 4, 2)
    gradient_check.check_backward(round_trip, x, gy, dtype=numpy.float64)
    gradient_check.check_double_backward(round_trip, x, gy, ggx, dtype=numpy.float64)


def test_variable_constructor_takes_a_layout():
    assert chainer.Variable(numpy.zeros((2, 3), numpy.float32),
                            layout=None).layout is None
    raw = numpy.arange(24, dtype=numpy.float32).reshape(1, 2, 3, 4)
    v = chainer.Variable(raw, layout=ml.CUDNN_CHANNEL_LAST_X)
    assert v.layout == ml.CUDNN_CHANNEL_LAST_X
    assert v.shape == (1, 4, 2, 3)
    assert v.raw_array is raw
    numpy.testing.assert_array_equal(v.as_layout(None).array[0, :, 0, 0],
                                     [0., 1., 2., 3.])


def test_variable_layout_needs_four_dimensions():
    with pytest.raises(AssertionError, match='4-dimensional'):
        chainer.Variable(numpy.zeros((2, 3), numpy.float32),
                         layout=ml.CUDNN_CHANNEL_LAST_X)
    with pytest.raises(ValueError, match='unknown memory layout'):
        chainer.Variable(numpy.zeros((1, 2, 3, 4), numpy.float32),
                         layout='NHWC')
