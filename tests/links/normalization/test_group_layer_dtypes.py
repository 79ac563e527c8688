"""Parameter dtypes of group and layer normalization, as Chainer makes
them; layer normalization of an empty batch."""

import numpy

import chainer
import chainer.links as L


def test_group_normalization_params_take_the_default_dtype():
    gamma = numpy.ones(4, numpy.float32)
    beta = numpy.zeros(4, numpy.float32)
    with chainer.using_config('dtype', numpy.float16):
        link = L.GroupNormalization(2, initial_gamma=gamma,
                                    initial_beta=beta)
    assert link.gamma.dtype == numpy.float16
    assert link.beta.dtype == numpy.float16
    y = link(numpy.random.RandomState(0).randn(2, 4, 3).astype(
        numpy.float16))
    assert y.dtype == numpy.float16
    with chainer.using_config('dtype', chainer.mixed16):
        link = L.GroupNormalization(2, 4)
    assert link.gamma.dtype == numpy.float32


def test_layer_normalization_params_are_float32_by_default():
    # the default dtype, even from a float64 array (Chainer 7.8.1 cannot
    # take an array here: TypeError)
    link = L.LayerNormalization(3, initial_gamma=numpy.ones(3, numpy.float64))
    assert link.gamma.dtype == numpy.float32


def test_layer_normalization_of_an_empty_batch():
    link = L.LayerNormalization()
    y = link(numpy.zeros((0, 3), numpy.float32))
    assert y.shape == (0, 3)
    assert link.gamma.shape == (3,)


def test_batch_normalization_of_a_channel_last_input():
    from chainer import memory_layouts
    raw = numpy.random.RandomState(0).rand(2, 5, 4, 3).astype(numpy.float32)
    x = chainer.Variable(raw, layout=memory_layouts.CUDNN_CHANNEL_LAST_X)
    y = L.BatchNormalization(3)(x)
    assert y.layout == memory_layouts.CUDNN_CHANNEL_LAST_X
    assert y.shape == (2, 3, 5, 4)
    want = L.BatchNormalization(3)(x.as_layout(None))
    numpy.testing.assert_allclose(y.as_layout(None).array, want.array,
                                  rtol=1e-6)
