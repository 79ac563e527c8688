"""The private names that Chainer's own suite and real programs import live
where Chainer had them, and do what Chainer's did."""

import io
import os
import time
from unittest import mock

import numpy
import pytest

import chainer
from chainer import testing


def test_bound_on_chainer():
    from chainer import _runtime_info, basic_math  # NOQA
    from chainer.functions.math import basic_math as bm
    assert chainer.basic_math is bm
    assert chainer.array is chainer.functions.array
    from chainer.backends import cuda
    assert issubclass(cuda._PerformanceWarning, chainer.warnings.PerformanceWarning)


def test_runtime_info():
    from chainer import _runtime_info
    info = _runtime_info._get_runtime_info()
    text = str(info)
    assert 'Chainer: {}\n'.format(chainer.__version__) in text
    assert 'NumPy: {}\n'.format(numpy.__version__) in text
    assert text.startswith('Platform: ') and text.endswith('iDeep: Not Available\n')
    out = io.StringIO()
    chainer.print_runtime_info(out)
    assert out.getvalue() == text


def test_environment_check_refuses_old_numpy():
    from chainer import _environment_check
    _environment_check.check()
    with mock.patch.object(numpy, '__version__', '1.21.6'):
        with pytest.raises(ImportError, match='NumPy 1.24 or newer'):
            _environment_check.check()


def test_cpu_to_cpu():
    from chainer.backends import _cpu
    a = numpy.arange(3)
    assert _cpu._to_cpu(a) is a
    assert _cpu._to_cpu(None) is None
    s = _cpu._to_cpu(numpy.float32(2))
    assert type(s) is numpy.ndarray and s.shape == () and s == 2


class _Twice(chainer.FunctionNode):

    def forward(self, inputs):
        return inputs[0] * 2,

    def backward(self, indexes, grad_outputs):
        return grad_outputs[0] * 2,


class _Accumulating(chainer.FunctionNode):

    def forward(self, inputs):
        return inputs[0] * 3,

    def backward_accumulate(self, indexes, grad_outputs, grad_inputs):
        gx = grad_outputs[0] * 3
        return (gx if grad_inputs[0] is None else gx + grad_inputs[0]),


@pytest.mark.parametrize('lazy', [False, True])
@pytest.mark.parametrize('cls,factor', [(_Twice, 2), (_Accumulating, 3)])
def test_backprop_step(cls, factor, lazy):
    from chainer import _backprop_utils
    x = chainer.Variable(numpy.array([1., 2.], numpy.float32))
    func = cls()
    func.apply((x,))
    earlier = chainer.Variable(numpy.array([10., 20.], numpy.float32))
    grads = {func.inputs[0]: [earlier]}
    gy = numpy.array([1., -1.], numpy.float32)
    with chainer.using_config('lazy_grad_sum', lazy):
        _backprop_utils.backprop_step(func, (0,), (gy,), grads, False)
    if not lazy or cls is _Accumulating:
        assert len(grads[func.inputs[0]]) == 1
    gx = _backprop_utils._reduce(grads[func.inputs[0]])
    numpy.testing.assert_array_equal(
        gx.array, numpy.array([10 + factor, 20 - factor], numpy.float32))
    assert _backprop_utils._reduce([]) is None


def test_stride_array():
    from chainer.functions.array.as_strided import _stride_array
    x = numpy.arange(8, dtype=numpy.float32)
    numpy.testing.assert_array_equal(
        _stride_array(x, (3, 3), (-1, 2), 3),
        [[3, 5, 7], [2, 4, 6], [1, 3, 5]])
    # a reversed view reads from the storage it views
    y = numpy.arange(12).reshape(3, 4)[::-1]
    numpy.testing.assert_array_equal(
        _stride_array(y, (12,), (1,), 0), numpy.arange(12))
    with pytest.raises(ValueError, match='too small index'):
        _stride_array(x, (3, 3), (-1, 2), 1)


@pytest.mark.parametrize('length,retain', [(5, 2), (2, 5), (3, 3), (0, 1)])
def test_find_stale_snapshots(tmp_path, length, retain):
    from chainer.training.extensions._snapshot import _find_stale_snapshots
    now = time.time()
    for i in range(length):
        path = tmp_path / 'snapshot_iter_{}'.format(i)
        path.write_bytes(b'')
        os.utime(path, (now - 100 + i, now - 100 + i))
    (tmp_path / 'other').write_bytes(b'')
    stale = list(_find_stale_snapshots('snapshot_iter_{}', str(tmp_path), retain))
    assert stale == ['snapshot_iter_{}'.format(i)
                     for i in range(max(length - retain, 0))]


def test_kernel_generator_names():
    from chainer.functions.pooling import (average_pooling_nd_kernel,
                                           max_pooling_nd_kernel,
                                           pooling_nd_kernel)
    from chainer.utils import conv_nd_kernel
    kernels = [conv_nd_kernel.Im2colNDKernel, conv_nd_kernel.Col2imNDKernel,
               pooling_nd_kernel.PoolingNDKernelForward,
               pooling_nd_kernel.PoolingNDKernelBackward,
               max_pooling_nd_kernel.MaxPoolingNDKernelForward,
               average_pooling_nd_kernel.AveragePoolingNDKernelBackward]
    for kernel in kernels:
        with pytest.raises(RuntimeError, match=kernel.__name__):
            kernel.generate(2)
    # generate() is memoized: _generate runs once per ndim
    with testing.patch('chainer.utils.conv_nd_kernel.Col2imNDKernel._generate',
                       return_value='src') as m:
        assert conv_nd_kernel.Col2imNDKernel.generate(5) == 'src'
        assert conv_nd_kernel.Col2imNDKernel.generate(5) == 'src'
        m.assert_called_once_with(5)


def test_pillow_flags():
    import importlib.util
    from chainer.datasets import image_dataset
    from chainer.links.model.vision import googlenet, resnet, vgg
    expected = importlib.util.find_spec('PIL') is not None
    for module in (image_dataset, resnet, vgg, googlenet):
        assert module.available is expected


def test_variable_init_unchecked():
    a = numpy.ones((2, 3), numpy.float32)
    x = chainer.Variable._init_unchecked(a, name='x', is_chainerx_array=False)
    assert x.array is a and x.name == 'x' and x.requires_grad
    assert x._has_chainerx_array is False
    assert isinstance(x.node, chainer.variable.VariableNode)
    y = chainer.functions.sum(x * 2)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, numpy.full((2, 3), 2, numpy.float32))


def test_collections_ordered_dict():
    import collections
    from chainer.utils import _collections
    assert _collections.OrderedDict is collections.OrderedDict


def test_pooling_base_modules():
    import chainer.functions as F
    # Chainer's modules of the pooling bases, for isinstance checks
    from chainer.functions.pooling.pooling_2d import Pooling2D
    from chainer.functions.pooling.pooling_nd import _PoolingND
    x = numpy.ones((1, 1, 4, 4), numpy.float32)
    for y in (F.average_pooling_2d(x, 2), F.unpooling_2d(x, 2),
              F.max_pooling_nd(x, 2), F.max_pooling_2d(x, 2)):
        assert isinstance(y.creator, _PoolingND)
    y = F.average_pooling_2d(x, 2)
    assert isinstance(y.creator, Pooling2D)
    assert (y.creator.kh, y.creator.sy, y.creator.ph) == (2, 2, 0)
    assert not isinstance(F.relu(x).creator, (Pooling2D, _PoolingND))
