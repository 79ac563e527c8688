"""Argument checks that Chainer makes (types, counts, orders), each with
the error type Chainer gives, and a clear message."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType

X4 = numpy.ones((2, 3, 10, 10), numpy.float32)
W4 = numpy.ones((2, 3, 3, 3), numpy.float32)


@pytest.mark.parametrize('dilate', [0, -1, (1, 0)])
def test_convolution_dilation_must_be_positive(dilate):
    with pytest.raises(ValueError, match='dilate must be positive'):
        F.convolution_2d(X4, W4, dilate=dilate)
    with pytest.raises(ValueError, match='dilate must be positive'):
        F.deconvolution_2d(X4, numpy.ones((3, 2, 3, 3), numpy.float32),
                           dilate=dilate)


def test_convolution_stride_must_be_positive():
    with pytest.raises(ValueError, match='stride must be positive'):
        F.convolution_2d(X4, W4, stride=0)


def test_deconvolution_nd_counts_inputs_and_checks_the_estimated_size():
    from chainer.functions.connection.deconvolution_nd import DeconvolutionND
    x = numpy.ones((2, 3, 4), numpy.float32)
    W = numpy.ones((3, 2, 2), numpy.float32)
    with pytest.raises(InvalidType, match=r'in_types.size in \[2, 3\]'):
        DeconvolutionND(1).apply((x,))
    with pytest.raises(InvalidType, match=r'in_types.size in \[2, 3\]'):
        DeconvolutionND(1).apply((x, W, numpy.ones(2, numpy.float32), x))
    # Chainer asserts a positive size, in these words
    with pytest.raises(AssertionError,
                       match=r'^Output sizes should be positive\.$'):
        F.deconvolution_nd(x, W, stride=1, pad=10)


def test_split_axis_needs_sorted_indices_in_debug_mode():
    x = numpy.zeros((2, 3, 4), numpy.float32)
    # as numpy.split outside debug mode
    assert [y.shape for y in F.split_axis(x, [2, 1], 1)] == \
        [(2, 2, 4), (2, 0, 4), (2, 2, 4)]
    with chainer.using_config('debug', True):
        with pytest.raises(ValueError, match='must be sorted'):
            F.split_axis(x, [2, 1], 1)


def test_repeat_axis_cannot_be_a_bool():
    with pytest.raises(TypeError, match='axis must be int or None'):
        F.repeat(numpy.zeros(2, numpy.float32), 1, True)


def test_tensordot_float_axes_is_a_type_error():
    a = numpy.zeros((4, 3, 2), numpy.float32)
    b = numpy.zeros((3, 2, 5), numpy.float32)
    with pytest.raises(TypeError, match='axes must be'):
        F.tensordot(a, b, axes=1.0)


@pytest.mark.parametrize('f', [F.scale, F.bias])
def test_scale_and_bias_shape_mismatch_is_asserted(f):
    # Chainer 7.8.1: an empty AssertionError in debug mode, else
    # broadcast_to's InvalidType
    x = numpy.zeros((3, 2, 3), numpy.float32)
    y = numpy.zeros(2, numpy.float32)
    with chainer.using_config('debug', True):
        with pytest.raises(AssertionError) as e:
            f(x, y, 0)
        assert str(e.value) == ''
    with pytest.raises(InvalidType, match='BroadcastTo'):
        f(x, y, 0)


def test_cudnn_fast_cannot_run_on_the_cpu():
    with pytest.raises(RuntimeError, match="'cudnn_fast' can't be used"):
        F.convolution_2d(X4, W4, cudnn_fast=True)
    with chainer.using_config('compute_mode', 'cudnn_fast'):
        link = chainer.links.Convolution2D(3, 2, 3)
    with pytest.raises(RuntimeError, match="'cudnn_fast'"):
        link(X4)


def test_mlp_convolution_wscale():
    L = chainer.links
    with pytest.raises(ValueError, match='wscale is not supported'):
        L.MLPConvolution2D(3, (4, 5), wscale=1)
    with pytest.raises(TypeError, match='wscale is not supported'):
        L.MLPConvolution2D(3, (4, 5), 3, 1, 0, F.relu, 1)


def test_copy_to_cuda_dummy_device_is_the_cpu():
    from chainer.backends import cuda
    y = F.copy(numpy.zeros((2, 3), numpy.float32), cuda.DummyDevice)
    assert isinstance(y.array, numpy.ndarray)
    assert y.device == chainer.backend.CpuDevice()


def test_batch_normalization_size_type():
    with pytest.raises(TypeError, match='size must be an int'):
        chainer.links.BatchNormalization({})


def test_bias_must_have_the_input_dtype():
    # W may differ (it is cast); b may not, as in Chainer
    x = numpy.zeros((1, 1, 3, 3))
    W = numpy.zeros((1, 1, 2, 2), numpy.float32)
    assert F.convolution_2d(x, W).dtype == numpy.float64
    with pytest.raises(InvalidType, match=r'in_types\[2\].dtype == '
                                          r'in_types\[0\].dtype'):
        F.convolution_2d(x, W, numpy.zeros(1, numpy.float32))
    with pytest.raises(InvalidType, match='b.dtype == x.dtype'):
        chainer.links.Linear(3, 2)(numpy.zeros((1, 3)))


@pytest.mark.parametrize('call,err,text', [
    (lambda x: x[3], IndexError,
     'index 3 is out of bounds for axis 0 with size 2'),
    (lambda x: F.get_item(x, (0, 5)), IndexError,
     'index 5 is out of bounds for axis 1 with size 3'),
    (lambda x: F.swapaxes(x, 0, 4), IndexError,
     'axis2: axis 4 is out of bounds for array of dimension 2'),
    (lambda x: F.cast(x, 'foo'), TypeError,
     "data type 'foo' not understood"),
    (lambda x: F.max_pooling_2d(x, 2), ValueError,
     "The number of dimensions under channel dimension of the input 'x' "
     'should be 2. But the actual ndim was 0.'),
])
def test_numpy_and_chainer_texts_word_for_word(call, err, text):
    # Chainer 7.8.1's messages, without the function's name in front
    x = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    with pytest.raises(err) as e:
        call(x)
    assert str(e.value) == text


X24 = numpy.ones((2, 4), numpy.float32)


@pytest.mark.parametrize('call,err,text', [
    (lambda: F.spatial_pyramid_pooling_2d(X4, 2, pooling='foo'), ValueError,
     "('Unsupported pooling operation: ', 'foo')"),
    (lambda: F.maxout(X24, 0), ValueError,
     'pool_size must be a positive integer.'),
    (lambda: F.rrelu(X24, l=0.5, u=0.2), ValueError,
     'lower must be less than upper'),
    (lambda: F.repeat(X24, 2, axis=1.5), TypeError,
     'axis must be int or None'),
    (lambda: F.permutate(X24, numpy.array([[0, 1]], numpy.int32)),
     ValueError, 'indices should be a one-dimensional int array'),
    (lambda: F.logsumexp(X24, axis=1.5), TypeError,
     'None, int or tuple of int are required'),
    (lambda: F.average(X24, axis=(0, 0)), ValueError,
     'duplicate value in axis: (0, 0)'),
    (lambda: F.tile(X24, 'a'), TypeError,
     "reps must be int or tuple of ints.\nActual: <class 'str'>"),
    (lambda: F.cumsum(X24, axis=5), InvalidType,
     '\nInvalid operation is performed in: Cumsum (Forward)\n\n'
     'Expect: x.ndim > 5\nActual: 2 <= 5'),
])
def test_chainer_texts_without_the_function_name(call, err, text):
    # Chainer 7.8.1's words, as they are
    with pytest.raises(err) as e:
        call()
    assert str(e.value) == text
