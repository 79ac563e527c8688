"""convert_caffemodel_to_npz of the vision models, on caffemodel files
written here with the layer names of the published models (full size for
ResNet-50 and GoogLeNet, tiny for VGG, whose fc6 alone is 100M weights)."""

import numpy
import pytest

import chainer.links as L
from chainer.exporters.caffe import _write_blob
from chainer.links.caffe import _caffe_pb
from chainer.links.connection import linear
from chainer.links.model.vision import _common
from chainer.links.model.vision import resnet

pytest.importorskip('google.protobuf')


def _write(path, layers):
    """layers: (name, type, arrays); convolutions without a bias say so."""
    net = _caffe_pb.NetParameter()
    for name, kind, arrays in layers:
        layer = net.layer.add(name=name, type=kind, bottom=['x'], top=[name])
        if kind == 'Convolution' and len(arrays) == 1:
            layer.convolution_param.bias_term = False
        if kind == 'Scale':
            layer.scale_param.bias_term = True
        for a in arrays:
            _write_blob(layer.blobs.add(), a)
    with open(path, 'wb') as f:
        f.write(net.SerializeToString())


def _randomize(model):
    for p in model.params():
        p.array[...] = numpy.random.uniform(-1, 1, p.shape)
    return model


def _assert_same_params(a, b):
    pa = dict(a.namedparams())
    pb = dict(b.namedparams())
    assert sorted(pa) == sorted(pb)
    for name in pa:
        numpy.testing.assert_array_equal(pa[name].array, pb[name].array,
                                         err_msg=name)


def _vgg_v1_file(path, blocks):
    # the VGG team's files are in the V1 format, with 4-d blob shapes
    net = _caffe_pb.NetParameter()
    V = _caffe_pb.V1LayerParameter
    arrays = {}

    def layer(name, kind, shapes=()):
        layer = net.layers.add(name=name, type=kind, bottom=['x'],
                               top=[name])
        for shape in shapes:
            a = numpy.random.uniform(-1, 1, shape).astype(numpy.float32)
            arrays.setdefault(name, []).append(a)
            blob = layer.blobs.add()
            blob.num, blob.channels, blob.height, blob.width = \
                (1,) * (4 - len(shape)) + shape
            blob.data.extend(a.ravel().tolist())

    layer('data', V.DATA)
    for b, n_conv in enumerate(blocks, 1):
        for k in range(1, n_conv + 1):
            layer('conv{}_{}'.format(b, k), V.CONVOLUTION, [(2, 2, 1, 1),
                                                            (2,)])
            layer('relu{}_{}'.format(b, k), V.RELU)
        layer('pool{}'.format(b), V.POOLING)
    for name in ('fc6', 'fc7', 'fc8'):
        layer(name, V.INNER_PRODUCT, [(2, 2), (2,)])
        layer(name.replace('fc', 'relu'), V.RELU)
    layer('prob', V.SOFTMAX)
    with open(path, 'wb') as f:
        f.write(net.SerializeToString())
    return arrays


@pytest.mark.parametrize('cls,blocks', [(L.VGG16Layers, (2, 2, 3, 3, 3)),
                                        (L.VGG19Layers, (2, 2, 4, 4, 4))])
def test_vgg_names(tmp_path, monkeypatch, cls, blocks):
    arrays = _vgg_v1_file(str(tmp_path / 'vgg.caffemodel'), blocks)
    cls.convert_caffemodel_to_npz(str(tmp_path / 'vgg.caffemodel'),
                                  str(tmp_path / 'vgg.npz'))
    with numpy.load(str(tmp_path / 'vgg.npz')) as npz:
        stored = dict(npz)
    expected = {'{}/{}'.format(name, p): a for name, (W, b) in arrays.items()
                for p, a in (('W', W), ('b', b))}
    assert sorted(stored) == sorted(expected)
    for key, a in expected.items():
        numpy.testing.assert_array_equal(stored[key].ravel(), a.ravel())
    # the keys are the model's parameters (built with no weights loaded
    # and fc6, 100M weights, left uninitialized)
    monkeypatch.setattr(_common, 'load_pretrained', lambda *args: None)
    real = linear.Linear
    monkeypatch.setattr(linear, 'Linear', lambda n_in, n_out, **kwargs: real(
        None if n_in == 512 * 7 * 7 else n_in, n_out, **kwargs))
    model = cls('weights.npz')
    assert sorted(name.lstrip('/') for name, _ in model.namedparams()) == \
        sorted(stored)


def _resnet50_layers(src):
    layers = []

    def conv(name, link):
        layers.append((name, 'Convolution', [link.W.array] + (
            [] if link.b is None else [link.b.array])))

    def bn(name, link):
        layers.append(('bn' + name, 'BatchNorm',
                       [link.avg_mean * 3, link.avg_var * 3,
                        numpy.full(1, 3, numpy.float32)]))
        layers.append(('scale' + name, 'Scale',
                       [link.gamma.array, link.beta.array]))

    conv('conv1', src.conv1)
    bn('_conv1', src.bn1)
    for stage, n_blocks in zip(range(2, 6), (3, 4, 6, 3)):
        group = getattr(src, 'res{}'.format(stage))
        for i in range(n_blocks):
            block = group.a if i == 0 else getattr(group, 'b{}'.format(i))
            branches = ['branch2a', 'branch2b', 'branch2c']
            if i == 0:
                branches.append('branch1')
            for k, branch in enumerate(branches, 1):
                name = '{}{}_{}'.format(stage, 'abcdef'[i], branch)
                conv('res' + name, getattr(block, 'conv{}'.format(k)))
                bn(name, getattr(block, 'bn{}'.format(k)))
    layers.append(('fc1000', 'InnerProduct',
                   [src.fc6.W.array, src.fc6.b.array]))
    return layers


def test_resnet50(tmp_path, monkeypatch):
    monkeypatch.setattr(_common, 'load_pretrained', lambda *args: None)
    src = _randomize(L.ResNet50Layers('weights.npz'))
    for link in src.links():
        if isinstance(link, L.BatchNormalization):
            link.avg_mean[...] = numpy.random.uniform(-1, 1, link.avg_mean.shape)
            link.avg_var[...] = numpy.random.uniform(0.5, 2, link.avg_var.shape)
    _write(str(tmp_path / 'r.caffemodel'), _resnet50_layers(src))
    monkeypatch.undo()
    L.ResNet50Layers.convert_caffemodel_to_npz(str(tmp_path / 'r.caffemodel'),
                                               str(tmp_path / 'r.npz'))
    dst = L.ResNet50Layers(str(tmp_path / 'r.npz'))
    _assert_same_params(src, dst)
    for a, b in ((src.bn1, dst.bn1), (src.res4.b5.bn3, dst.res4.b5.bn3)):
        numpy.testing.assert_allclose(b.avg_mean, a.avg_mean, rtol=1e-6)
        numpy.testing.assert_allclose(b.avg_var, a.avg_var, rtol=1e-6)


def test_resnet152_names(monkeypatch):
    # ResNet-101/152 name their blocks a, b1, b2, ... in stages 3 and 4
    monkeypatch.setattr(_common, 'load_pretrained', lambda *args: None)
    requested = []

    class Link:
        def __init__(self):
            one = type('P', (), {'array': numpy.float32(1)})()
            self.W = self.b = one
            self.bias = type('B', (), {'b': one})()
            self.avg_mean = self.avg_var = numpy.float32(1)

    class Caffe:
        def __getattr__(self, name):
            requested.append(name)
            return Link()

    resnet._transfer_resnet(Caffe(), resnet.ResNetLayers('weights.npz', 152),
                            152)
    blocks = (['2a', '2b', '2c'] +
              ['3a'] + ['3b{}'.format(i) for i in range(1, 8)] +
              ['4a'] + ['4b{}'.format(i) for i in range(1, 36)] +
              ['5a', '5b', '5c'])
    expected = {'conv1', 'bn_conv1', 'scale_conv1', 'fc1000'}
    for block in blocks:
        branches = ['2a', '2b', '2c'] + (['1'] if block[1] == 'a' else [])
        for branch in branches:
            for prefix in ('res', 'bn', 'scale'):
                expected.add('{}{}_branch{}'.format(prefix, block, branch))
    assert sorted(requested) == sorted(expected)


def test_googlenet(tmp_path):
    src = _randomize(L.GoogLeNet(pretrained_model=None))
    layers = []

    def add(name, link):
        kind = 'Convolution' if link.W.ndim == 4 else 'InnerProduct'
        layers.append((name, kind, [link.W.array, link.b.array]))

    add('conv1/7x7_s2', src.conv1)
    add('conv2/3x3_reduce', src.conv2_reduce)
    add('conv2/3x3', src.conv2)
    parts = (('conv1', '1x1'), ('proj3', '3x3_reduce'), ('conv3', '3x3'),
             ('proj5', '5x5_reduce'), ('conv5', '5x5'),
             ('projp', 'pool_proj'))
    for stage in ('3a', '3b', '4a', '4b', '4c', '4d', '4e', '5a', '5b'):
        inception = getattr(src, 'inc' + stage)
        for attr, suffix in parts:
            add('inception_{}/{}'.format(stage, suffix),
                getattr(inception, attr))
    for k in (1, 2):
        add('loss{}/conv'.format(k), getattr(src, 'loss{}_conv'.format(k)))
        add('loss{}/fc'.format(k), getattr(src, 'loss{}_fc1'.format(k)))
        add('loss{}/classifier'.format(k),
            getattr(src, 'loss{}_fc2'.format(k)))
    add('loss3/classifier', src.loss3_fc)
    _write(str(tmp_path / 'g.caffemodel'), layers)
    L.GoogLeNet.convert_caffemodel_to_npz(str(tmp_path / 'g.caffemodel'),
                                          str(tmp_path / 'g.npz'))
    _assert_same_params(src, L.GoogLeNet(str(tmp_path / 'g.npz')))
