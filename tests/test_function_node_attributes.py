"""The public attributes of function nodes that exporters (onnx-chainer) and
hooks read: ``y.creator`` keeps Chainer's class names, attribute names and
values."""

import numpy
import pytest

import chainer
import chainer.functions as F


def _x(*shape):
    return numpy.random.RandomState(0).uniform(
        -1, 1, shape).astype(numpy.float32)


def _node(y):
    if isinstance(y, (tuple, list)):
        y = y[0]
    return y.creator


# --- pooling ---------------------------------------------------------------

def test_max_pooling_2d():
    f = _node(F.max_pooling_2d(_x(2, 3, 7, 7), 3, 2, 1))
    assert type(f).__name__ == 'MaxPoolingND'
    assert f.ksize == (3, 3) and f.stride == (2, 2) and f.pad == (1, 1)
    assert f.cover_all is True
    assert f.return_indices is False
    assert f.is_cudnn_used is False


def test_average_pooling_2d():
    f = _node(F.average_pooling_2d(_x(2, 3, 7, 7), (3, 2), None, (1, 0)))
    assert type(f).__name__ == 'AveragePooling2D'
    assert (f.kh, f.kw, f.sy, f.sx, f.ph, f.pw) == (3, 2, 3, 2, 1, 0)
    assert f.cover_all is False
    assert f.return_indices is False


def test_average_pooling_2d_constructor():
    from chainer.functions.pooling.average_pooling_2d import AveragePooling2D
    f = AveragePooling2D(3, 2, 1)
    assert (f.kh, f.kw, f.sy, f.sx, f.ph, f.pw) == (3, 3, 2, 2, 1, 1)
    assert f.cover_all is True  # Chainer's default for the class


def test_average_pooling_nd():
    f = _node(F.average_pooling_3d(_x(2, 3, 5, 5, 5), 3, 2, 1))
    assert f.ksize == (3, 3, 3) and f.stride == (2, 2, 2)
    assert f.pad == (1, 1, 1) and f.cover_all is False
    assert f.pad_value == 0 and f.return_indices is False


def test_unpooling_2d():
    f = _node(F.unpooling_2d(_x(2, 3, 7, 7), 2, 2, 0))
    assert type(f).__name__ == 'Unpooling2D'
    assert (f.kh, f.kw, f.sy, f.sx, f.ph, f.pw) == (2, 2, 2, 2, 0, 0)
    assert f.cover_all is True
    assert (f.outh, f.outw) == (13, 13)


def test_unpooling_2d_outsize():
    f = _node(F.unpooling_2d(_x(2, 3, 7, 7), (3, 2), (2, 1), (1, 0),
                             outsize=(14, 8), cover_all=False))
    assert (f.kh, f.kw, f.sy, f.sx, f.ph, f.pw) == (3, 2, 2, 1, 1, 0)
    assert (f.outh, f.outw) == (14, 8)
    assert f.cover_all is False


def test_unpooling_2d_before_forward():
    from chainer.functions.pooling.unpooling_2d import Unpooling2D
    assert (Unpooling2D(3, 2, 1).outh, Unpooling2D(3, 2, 1).outw) == \
        (None, None)
    f = Unpooling2D(3, 2, 1, outsize=(5, 6))
    assert (f.outh, f.outw) == (5, 6)


def test_unpooling_nd():
    f = _node(F.unpooling_1d(_x(2, 3, 7), 2))
    assert f.outs == (13,)
    assert f.ksize == (2,) and f.stride == (2,) and f.pad == (0,)
    assert f.return_indices is False and f.is_cudnn_used is False


# --- convolution -----------------------------------------------------------

def test_convolution_2d():
    f = _node(F.convolution_2d(_x(2, 3, 7, 7), _x(4, 3, 3, 3), stride=(2, 1),
                               pad=(1, 0), cover_all=True, dilate=2))
    assert type(f).__name__ == 'Convolution2DFunction'
    assert (f.sy, f.sx, f.ph, f.pw, f.dy, f.dx) == (2, 1, 1, 0, 2, 2)
    assert f.groups == 1 and f.cover_all is True
    assert f.cudnn_fast is False


def test_convolution_2d_groups():
    f = _node(F.convolution_2d(_x(2, 4, 7, 7), _x(4, 2, 3, 3), groups=2))
    assert f.groups == 2


def test_deconvolution_2d():
    f = _node(F.deconvolution_2d(_x(2, 3, 7, 7), _x(3, 4, 3, 3), stride=2,
                                 pad=1))
    assert type(f).__name__ == 'Deconvolution2DFunction'
    assert (f.sy, f.sx, f.ph, f.pw, f.dy, f.dx) == (2, 2, 1, 1, 1, 1)
    assert (f.outh, f.outw) == (13, 13)
    assert f.groups == 1


def test_deconvolution_2d_outsize_and_groups():
    from chainer.functions.connection.deconvolution_2d import \
        Deconvolution2DFunction
    f = Deconvolution2DFunction(2, 1, outsize=(14, 14))
    assert (f.outh, f.outw) == (14, 14)
    f = _node(F.deconvolution_2d(_x(2, 4, 5, 5), _x(4, 2, 3, 3), groups=2))
    assert (f.outh, f.outw) == (7, 7) and f.groups == 2


def test_deconvolution_nd():
    f = _node(F.deconvolution_3d(_x(2, 3, 4, 4, 4), _x(3, 4, 3, 3, 3),
                                 stride=2, pad=1))
    assert f.outs == (7, 7, 7)
    assert f.stride == (2, 2, 2) and f.pad == (1, 1, 1) and f.groups == 1


# --- normalization ---------------------------------------------------------

def test_batch_normalization():
    x = _x(2, 3, 7, 7)
    f = _node(F.batch_normalization(
        x, _x(3), _x(3), eps=1e-4, running_mean=numpy.zeros(3, 'f'),
        running_var=numpy.ones(3, 'f'), decay=0.8))
    assert type(f).__name__ == 'BatchNormalization'
    assert f.eps == 1e-4 and f.decay == 0.8
    assert f.axis == (0, 2, 3)
    assert f.key_axis == (1,)
    assert f.expander == (None, slice(None), None, None)
    assert f.mean.shape == f.inv_std.shape == f.var.shape == (3,)
    numpy.testing.assert_allclose(f.mean, x.mean(axis=(0, 2, 3)), rtol=1e-5)
    numpy.testing.assert_allclose(f.var, x.var(axis=(0, 2, 3)), rtol=1e-5)
    numpy.testing.assert_allclose(
        f.inv_std, 1 / numpy.sqrt(x.var(axis=(0, 2, 3)) + 1e-4), rtol=1e-5)


def test_batch_normalization_axis():
    f = _node(F.batch_normalization(_x(3, 4), _x(4), _x(4), axis=0))
    assert f.axis == (0,) and f.key_axis == (1,)
    assert f.mean.shape == (4,)


def test_batch_normalization_double_backprop_still_works():
    x = chainer.Variable(_x(4, 3))
    gamma = chainer.Variable(_x(3))
    y = F.batch_normalization(x, gamma, _x(3))
    gx, = chainer.grad([F.sum(y * y)], [x], enable_double_backprop=True)
    F.sum(gx * gx).backward()
    assert x.grad is not None and gamma.grad is not None


def test_fixed_batch_normalization():
    var = numpy.full(3, 3, 'f')
    f = _node(F.fixed_batch_normalization(_x(2, 3, 4), _x(3), _x(3), _x(3),
                                          var, eps=1.))
    assert type(f).__name__ == 'FixedBatchNormalization'
    assert f.eps == 1. and f.axis == (0, 2) and f.key_axis == (1,)
    assert f.expander == (None, slice(None), None)
    numpy.testing.assert_allclose(f.inv_var, numpy.full(3, .25))
    numpy.testing.assert_allclose(f.inv_std, numpy.full(3, .5))


def test_normalize_axis_is_tuple():
    f = _node(F.normalize(_x(3, 4), eps=1e-4, axis=1))
    assert f.axis == (1,) and f.eps == 1e-4


# --- reductions ------------------------------------------------------------

@pytest.mark.parametrize('name', ['sum', 'max', 'min', 'prod', 'mean'])
def test_reduction_axis_int_becomes_tuple(name):
    f = _node(getattr(F, name)(_x(2, 3, 4), axis=-1, keepdims=True))
    assert f.axis == (-1,)  # as given, not made non-negative
    assert f.keepdims is True


@pytest.mark.parametrize('name', ['sum', 'max', 'min', 'prod', 'mean'])
def test_reduction_axis_tuple_and_none(name):
    f = _node(getattr(F, name)(_x(2, 3, 4), axis=(0, -1)))
    assert f.axis == (0, -1) and f.keepdims is False
    assert _node(getattr(F, name)(_x(2, 3, 4))).axis is None


def test_logsumexp_axis():
    assert _node(F.logsumexp(_x(2, 3), axis=1)).axis == (1,)
    assert _node(F.logsumexp(_x(2, 3))).axis is None


# --- indexing --------------------------------------------------------------

@pytest.mark.parametrize('index,expected', [
    (1, (1,)),
    (slice(0, 2), (slice(0, 2),)),
    (None, (None,)),
    ((Ellipsis, 1), (Ellipsis, 1)),
    ([0, 1], ([0, 1],)),
    ([[0, 1], [1, 2]], ([0, 1], [1, 2])),
])
def test_get_item_slices_tuple(index, expected):
    f = _node(F.get_item(_x(3, 4, 5), index))
    assert type(f).__name__ == 'GetItem'
    assert f.slices == expected


def test_get_item_array_index_and_gradient():
    index = numpy.array([0, 0, 2])
    x = chainer.Variable(_x(3, 4))
    y = x[index]
    f = y.creator
    assert isinstance(f.slices, tuple) and len(f.slices) == 1
    assert f.slices[0] is index
    y.grad = numpy.ones_like(y.array)
    y.backward()
    numpy.testing.assert_array_equal(x.grad[:, 0], [2, 0, 1])


def test_variable_getitem_slices():
    f = _node(chainer.Variable(_x(3, 4))[0, 1:3])
    assert f.slices == (0, slice(1, 3))


def test_scatter_add_slices():
    f = _node(F.scatter_add(_x(3, 4), [0, 1], _x(2, 4)))
    assert f.slices == ([0, 1],)


# --- array -----------------------------------------------------------------

@pytest.mark.parametrize('pad_width,expected', [
    (1, [1, 1]),
    ((1, 2), [1, 2]),
    (((1, 2), (0, 1)), [[1, 2], [0, 1]]),
])
def test_pad(pad_width, expected):
    f = _node(F.pad(_x(3, 4), pad_width, 'constant', constant_values=3.))
    assert type(f).__name__ == 'Pad'
    assert f.mode == 'constant'
    assert f.keywords == {'constant_values': 3.}
    numpy.testing.assert_array_equal(f.pad_bw, expected)


def test_permutate_indices_attribute():
    indices = numpy.array([2, 0, 1], numpy.int32)
    x = chainer.Variable(_x(3, 4))
    y = F.permutate(x, chainer.Variable(indices), axis=0, inv=True)
    f = y.creator
    assert f.axis == 0 and f.inv is True
    numpy.testing.assert_array_equal(f.indices, indices)
    assert len(f.inputs) == 1  # the indices are no input, as in Chainer
    gy = _x(3, 4)
    y.grad = gy
    y.backward()
    numpy.testing.assert_array_equal(x.grad, gy[indices])


def test_where_condition_attribute():
    c = numpy.array([[True, False], [False, True]])
    x = chainer.Variable(_x(2, 2))
    z = chainer.Variable(_x(2, 2))
    y = F.where(chainer.Variable(c), x, z)
    f = y.creator
    numpy.testing.assert_array_equal(f.condition, c)
    assert len(f.inputs) == 2  # x and y; the condition is an attribute
    F.sum(y).backward()
    numpy.testing.assert_array_equal(x.grad, c.astype('f'))
    numpy.testing.assert_array_equal(z.grad, (~c).astype('f'))


@pytest.mark.parametrize('ios,indices,sections', [
    (2, None, 2), ([1, 3], [1, 3], None)])
def test_split_axis(ios, indices, sections):
    f = _node(F.split_axis(_x(3, 4), ios, 1))
    assert f.indices_or_sections == ios
    assert f.indices == indices and f.sections == sections
    assert f.axis == 1


@pytest.mark.parametrize('repeats,expected', [
    (2, (2,)), ((2,), (2,)), ((1, 2, 3, 4), (1, 2, 3, 4))])
def test_repeat_repeats_tuple(repeats, expected):
    f = _node(F.repeat(_x(3, 4), repeats, axis=1))
    assert f.repeats == expected and f.axis == 1


def test_im2col():
    f = _node(F.im2col(_x(2, 3, 7, 7), 3, 2, 1, dilate=2))
    assert (f.kh, f.kw, f.sy, f.sx, f.ph, f.pw, f.dy, f.dx) == \
        (3, 3, 2, 2, 1, 1, 2, 2)
    assert f.cover_all is False


# --- losses, noise, activations, math ---------------------------------------

def test_softmax_cross_entropy():
    w = numpy.ones(4, 'f')
    f = _node(F.softmax_cross_entropy(
        _x(3, 4), numpy.array([0, 1, 2], 'i'), normalize=False,
        cache_score=False, class_weight=w, ignore_label=2, reduce='no'))
    assert type(f).__name__ == 'SoftmaxCrossEntropy'
    assert f.normalize is False and f.cache_score is False
    assert f.class_weight is w and f.ignore_label == 2
    assert f.reduce == 'no' and f.soft_target_loss == 'cross-entropy'
    assert f.soft_target is False
    assert f.eps == 1e-7


def test_softmax_cross_entropy_soft_target():
    f = _node(F.softmax_cross_entropy(
        _x(3, 4), numpy.full((3, 4), .25, 'f'),
        soft_target_loss='kl-divergence'))
    assert f.soft_target is True
    assert f.soft_target_loss == 'kl-divergence'
    assert f.normalize is True and f.reduce == 'mean'


def test_rrelu():
    f = _node(F.rrelu(_x(3, 4), 0.1, 0.2))
    assert (f.lower, f.upper) == (0.1, 0.2)
    assert f.r.shape == (3, 4)
    assert ((0.1 <= f.r) & (f.r < 0.2)).all()


def test_rrelu_node_draws_its_slopes():
    from chainer.functions.activation.rrelu import RReLU
    f = RReLU(0.2, 0.3)
    y, = f.apply((_x(3, 4),))
    assert ((0.2 <= f.r) & (f.r < 0.3)).all()


def test_dropout():
    f = _node(F.dropout(_x(3, 4), 0.3))
    assert f.dropout_ratio == 0.3 and f.return_mask is False
    assert f.mask.shape == (3, 4)


def test_einsum_subscripts_string():
    f = _node(F.einsum('ij,jk->ik', _x(3, 4), _x(4, 2)))
    assert f.in_subs == 'ij,jk' and f.out_sub == 'ik'


def test_sparse_matmul():
    sp = chainer.utils.to_coo(numpy.eye(3, dtype='f'))
    f = _node(F.sparse_matmul(sp, _x(3, 4)))
    numpy.testing.assert_array_equal(f.sp_row, [0, 1, 2])
    numpy.testing.assert_array_equal(f.sp_col, [0, 1, 2])
    assert f.sp_shape == (3, 3)
    assert f.transa is False and f.transb is False


def test_upsampling_2d():
    y, indexes = F.max_pooling_2d(_x(2, 3, 7, 7), 2, 2, 0,
                                  return_indices=True)
    f = _node(F.upsampling_2d(y, indexes, 2, 2, 0, (7, 7)))
    assert type(f).__name__ == 'Upsampling2D'
    assert (f.kh, f.kw, f.sy, f.sx, f.ph, f.pw) == (2, 2, 2, 2, 0, 0)
    assert (f.outh, f.outw) == (7, 7)
    assert f.cover_all is True and f.return_indices is False


@pytest.mark.filterwarnings('ignore::DeprecationWarning')
def test_batch_matmul_class_name():
    f = _node(F.batch_matmul(_x(2, 3, 4), _x(2, 4, 5), transb=False))
    assert type(f).__name__ == 'BatchMatMul' and f.label == 'BatchMatMul'
    assert f.transa is False and f.transb is False
