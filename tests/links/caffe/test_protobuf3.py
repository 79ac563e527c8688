"""chainer.links.caffe.protobuf3.caffe_pb2: Chainer's import path of Caffe's
messages, as programs written for Chainer use it."""

import doctest

import numpy
import pytest

pytest.importorskip('google.protobuf')

import chainer.functions as F  # NOQA: E402
from chainer.links.caffe import _caffe_pb  # NOQA: E402
from chainer.links.caffe import CaffeFunction  # NOQA: E402
from chainer.links.caffe.protobuf3 import caffe_pb2  # NOQA: E402


def test_names_of_a_generated_module():
    for name in ('NetParameter', 'LayerParameter', 'V1LayerParameter',
                 'BlobProto', 'BlobShape', 'ConvolutionParameter',
                 'PoolingParameter', 'InnerProductParameter'):
        assert getattr(caffe_pb2, name) is getattr(_caffe_pb, name)
    assert caffe_pb2.Phase.Name(caffe_pb2.TEST) == 'TEST'
    assert caffe_pb2.TRAIN == 0 and caffe_pb2.TEST == 1
    assert caffe_pb2.V1LayerParameter.CONVOLUTION == 4
    assert caffe_pb2.PoolingParameter.MAX == 0
    assert caffe_pb2.DESCRIPTOR.package == 'caffe'


def test_a_net_written_with_it_loads(tmp_path):
    # A program of Chainer's time writing a caffemodel by hand.
    net = caffe_pb2.NetParameter(name='net')
    net.layer.add(name='data', type='Input', top=['data'])
    layer = net.layer.add(name='pool', type='Pooling', bottom=['data'],
                          top=['pool'])
    layer.pooling_param.pool = caffe_pb2.PoolingParameter.AVE
    layer.pooling_param.kernel_size = 2
    layer.pooling_param.stride = 2
    path = tmp_path / 'm.caffemodel'
    path.write_bytes(net.SerializeToString())
    func = CaffeFunction(str(path))
    x = numpy.random.rand(1, 2, 4, 4).astype(numpy.float32)
    y, = func(inputs={'data': x}, outputs=['pool'])
    numpy.testing.assert_allclose(y.array,
                                  F.average_pooling_2d(x, 2).array,
                                  rtol=1e-6)
    parsed = caffe_pb2.NetParameter()
    parsed.ParseFromString(path.read_bytes())
    assert parsed.layer[1].pooling_param.pool == \
        caffe_pb2.PoolingParameter.AVE


def test_doctest():
    assert doctest.testmod(caffe_pb2).failed == 0
