"""chainer.exporters.caffe: round trips through CaffeFunction, the files
written, and the errors."""

import os

import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L
from chainer.exporters import caffe
from chainer.links.caffe import _caffe_pb
from chainer.links.caffe import CaffeFunction

pytest.importorskip('google.protobuf')


def _randomize(model):
    for p in model.params():
        p.array[...] = numpy.random.uniform(-1, 1, p.shape)
    for link in model.links():
        if isinstance(link, L.BatchNormalization):
            link.avg_mean[...] = numpy.random.uniform(-1, 1, link.avg_mean.shape)
            link.avg_var[...] = numpy.random.uniform(0.5, 2, link.avg_var.shape)
    return model


class MLP(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(6, 8)
            self.l2 = L.Linear(8, 8, nobias=True)
            self.l3 = L.Linear(8, 3)

    def forward(self, x):
        h = F.relu(self.l1(x))
        h = F.dropout(F.leaky_relu(self.l2(h), 0.2))
        return F.softmax(self.l3(F.tanh(h) - F.sigmoid(h)))


class CNN(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.c1 = L.Convolution2D(3, 4, 3, pad=1)
            self.bn1 = L.BatchNormalization(4)
            self.c2 = L.Convolution2D(4, 4, 3, pad=1, groups=2, nobias=True)
            self.c3 = L.Convolution2D(4, 4, (1, 3), pad=(0, 1), dilate=1)
            self.c4 = L.Convolution2D(8, 2, 3, pad=2, dilate=2)
            self.dc = L.Deconvolution2D(2, 3, 2, stride=2)
            self.bn2 = L.BatchNormalization(3, use_gamma=False)
            self.fc = L.Linear(3 * 4 * 4, 5)

    def forward(self, x):
        h = F.relu(self.bn1(self.c1(x)))
        h = F.concat([self.c2(h) + self.c3(h), h * F.sigmoid(h)], axis=1)
        h = F.local_response_normalization(h, n=3)
        h = F.max_pooling_2d(self.c4(h), 3, stride=2)  # 9 -> 4 (rounded up)
        h = self.bn2(self.dc(h))  # 4 -> 8
        h = F.average_pooling_2d(h, 2)  # 8 -> 4
        return self.fc(h)


def _round_trip(tmp_path, model, x):
    _randomize(model)
    caffe.export(model, [x], str(tmp_path))
    with chainer.using_config('train', False):
        expected = model(x).array
    func = CaffeFunction(str(tmp_path / 'chainer_model.caffemodel'))
    top = func.layers[-1][2][0]
    y, = func(inputs={'data': x}, outputs=[top])
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-5, atol=1e-6)
    return func


def test_mlp_round_trip(tmp_path):
    x = numpy.random.uniform(-1, 1, (4, 6)).astype(numpy.float32)
    func = _round_trip(tmp_path, MLP(), x)
    kinds = [name.rsplit('-', 2)[0] for name, _, _ in func.layers]
    assert kinds == ['LinearFunction', 'ReLU', 'LinearFunction', 'LeakyReLU',
                     'Tanh', 'Sigmoid', '_ - _', 'LinearFunction', 'Softmax']
    assert func['LinearFunction-2-1'].b is None  # nobias survives


def test_cnn_round_trip(tmp_path):
    x = numpy.random.uniform(-1, 1, (2, 3, 9, 9)).astype(numpy.float32)
    func = _round_trip(tmp_path, CNN(), x)
    types = {layer.type for layer in _read(tmp_path).layer}
    assert types == {'Input', 'Convolution', 'BatchNorm', 'Scale', 'ReLU',
                     'Eltwise', 'Sigmoid', 'Concat', 'LRN', 'Pooling',
                     'Deconvolution', 'Reshape', 'InnerProduct'}
    # the same graph runs on another batch size (Reshape infers dim 0, as
    # Chainer's own CaffeFunction reads it: not Caffe's 0)
    reshape, = [layer for layer in _read(tmp_path).layer
                if layer.type == 'Reshape']
    assert list(reshape.reshape_param.shape.dim) == [-1, 48]
    x3 = numpy.random.uniform(-1, 1, (3, 3, 9, 9)).astype(numpy.float32)
    y, = func(inputs={'data': x3}, outputs=[func.layers[-1][2][0]])
    assert y.shape == (3, 5)


def _read(tmp_path):
    net = _caffe_pb.NetParameter()
    with open(str(tmp_path / 'chainer_model.caffemodel'), 'rb') as f:
        net.ParseFromString(f.read())
    return net


def test_files_and_names(tmp_path):
    from google.protobuf import text_format
    model = _randomize(CNN())
    x = numpy.zeros((1, 3, 9, 9), numpy.float32)
    caffe.export(model, [x], str(tmp_path), graph_name='tiny')
    assert sorted(os.listdir(str(tmp_path))) == [
        'chainer_model.caffemodel', 'chainer_model.prototxt']
    with open(str(tmp_path / 'chainer_model.prototxt')) as f:
        proto = text_format.Parse(f.read(), _caffe_pb.NetParameter())
    net = _read(tmp_path)
    assert proto.name == net.name == 'tiny'
    data = proto.layer[0]
    assert (data.name, data.type, list(data.top)) == ('data', 'Input',
                                                       ['data'])
    assert list(data.input_param.shape[0].dim) == [1, 3, 9, 9]
    # the prototxt is the model without the blobs
    assert not any(layer.blobs for layer in proto.layer)
    for layer in net.layer:
        del layer.blobs[:]
    assert proto == net
    names = [layer.name for layer in proto.layer]
    assert names[1:4] == ['Convolution2DFunction-0-1',
                          'FixedBatchNormalization-1-1_bn',
                          'FixedBatchNormalization-1-1']
    assert '_ + _-4-1' in names and '_ * _-4-1' in names
    conv = proto.layer[1]
    assert list(conv.bottom) == ['data'] and conv.phase == _caffe_pb.TEST
    p = conv.convolution_param
    assert (p.num_output, list(p.kernel_size), list(p.pad)) == (4, [3], [1])
    p = next(layer for layer in proto.layer
             if layer.name.startswith('Convolution2DFunction-3-2'))
    assert list(p.convolution_param.kernel_size) == [1, 3]
    pool = next(layer for layer in proto.layer if layer.type == 'Pooling')
    p = pool.pooling_param
    assert (p.pool, p.kernel_size, p.stride) == (p.MAX, 3, 2)
    lrn = next(layer for layer in proto.layer if layer.type == 'LRN')
    # Caffe's alpha is divided by the window size: Chainer's times n
    assert lrn.lrn_param.local_size == 3
    numpy.testing.assert_allclose(lrn.lrn_param.alpha, 3e-4, rtol=1e-6)
    blobs = {layer.name: [tuple(b.shape.dim) for b in layer.blobs]
             for layer in _read(tmp_path).layer}
    assert blobs['Convolution2DFunction-0-1'] == [(4, 3, 3, 3), (4,)]
    assert blobs['FixedBatchNormalization-1-1_bn'] == [(4,), (4,), (1,)]
    assert blobs['Convolution2DFunction-3-1'] == [(4, 2, 3, 3)]


def test_export_params_false_and_no_directory(tmp_path):
    model = _randomize(MLP())
    x = numpy.zeros((1, 6), numpy.float32)
    assert caffe.export(model, [x], None) is None
    caffe.export(model, [chainer.Variable(x)], str(tmp_path),
                 export_params=False)
    assert os.listdir(str(tmp_path)) == ['chainer_model.prototxt']


def test_two_inputs(tmp_path):
    def model(a, b):
        return F.relu(a) * b

    a = numpy.random.randn(2, 3).astype(numpy.float32)
    b = numpy.random.randn(2, 3).astype(numpy.float32)
    caffe.export(model, [a, b], str(tmp_path))
    net = _read(tmp_path)
    assert list(net.layer[0].top) == ['data', 'data1']
    func = CaffeFunction(str(tmp_path / 'chainer_model.caffemodel'))
    y, = func(inputs={'data': a, 'data1': b}, outputs=['_ * _-1-1'])
    numpy.testing.assert_allclose(y.array, numpy.maximum(a, 0) * b)


def test_unsupported_op_leaves_no_files(tmp_path):
    def model(x):
        return F.exp(F.relu(x))

    x = numpy.zeros((1, 3), numpy.float32)
    with pytest.raises(NotImplementedError, match=r'Exp.*supported'):
        caffe.export(model, [x], str(tmp_path))
    assert os.listdir(str(tmp_path)) == []


@pytest.mark.parametrize('shapes,model,match', [
    ([(2, 3)], lambda x: x + 1, r'AddConstant \(_ \+ 1\)'),
    ([(2, 3)], lambda x: F.split_axis(x, 3, 1)[0], 'SplitAxis.*supported'),
    ([(2, 3), (1, 3)], lambda x, y: x * y, 'broadcasting'),
    ([(2, 3)], lambda x: x * chainer.Variable(numpy.ones((2, 3), 'f')),
     'neither an argument of the model nor computed'),
    ([(2, 3, 1, 5)], lambda x: F.max_pooling_2d(x, (1, 2), cover_all=False),
     'Caffe rounds up'),
    ([(2, 3, 1, 5)], lambda x: F.convolution_2d(
        x, numpy.ones((1, 3, 1, 2), numpy.float32), stride=2,
        cover_all=True), 'cover_all'),
    ([(2, 3, 4)], lambda x: F.convolution_nd(
        x, numpy.ones((1, 3, 2), numpy.float32)), 'only 2-d'),
    ([(2, 3, 4)], lambda x: F.softmax(x, axis=2) + F.normalize(x),
     'NormalizeL2'),
])
def test_errors_name_the_node(tmp_path, shapes, model, match):
    xs = [numpy.ones(shape, numpy.float32) for shape in shapes]
    with pytest.raises(NotImplementedError, match=match):
        caffe.export(model, xs, str(tmp_path))
    assert os.listdir(str(tmp_path)) == []


def test_model_must_return_variables(tmp_path):
    with pytest.raises(TypeError, match='Variable'):
        caffe.export(lambda x: x.array, [numpy.zeros(2, 'f')], str(tmp_path))
    assert os.listdir(str(tmp_path)) == []


def test_missing_directory(tmp_path):
    x = numpy.zeros((1, 6), numpy.float32)
    with pytest.raises(FileNotFoundError):
        caffe.export(MLP(), [x], str(tmp_path / 'nope'))
    assert not (tmp_path / 'nope').exists()


def test_runs_in_test_mode_without_touching_statistics(tmp_path):
    model = _randomize(CNN())
    before = model.bn1.avg_mean.copy()
    x = numpy.random.randn(2, 3, 9, 9).astype(numpy.float32)
    caffe.export(model, [x], None)
    numpy.testing.assert_array_equal(model.bn1.avg_mean, before)
    assert chainer.config.train
