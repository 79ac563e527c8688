import numpy
import pytest

import chainer
import chainer.links as L
from chainer import gradient_check
from chainer.links.model.vision import _common, resnet


def fill(model):
    # the same deterministic parameters were set on the reference Chainer
    for k, (_, p) in enumerate(sorted(model.namedparams())):
        scale = 1 / numpy.sqrt(numpy.prod(p.shape[1:])) if p.ndim > 1 \
            else 0.1
        p.array[...] = (numpy.cos(numpy.arange(p.size) * 0.7 + k) *
                        scale).reshape(p.shape)


def wave(*shape):
    size = int(numpy.prod(shape))
    return (numpy.sin(numpy.arange(size) * 0.01).reshape(shape) *
            50).astype('f')


@pytest.fixture(scope='module')
def model():
    m = L.ResNet50Layers(pretrained_model=None)
    fill(m)
    return m


def test_structure(model):
    params = dict(model.namedparams())
    assert len(params) == 162
    assert params['/conv1/W'].shape == (64, 3, 7, 7)
    assert params['/conv1/b'].shape == (64,)
    assert params['/res2/a/conv4/W'].shape == (256, 64, 1, 1)
    assert params['/res3/b3/conv2/W'].shape == (128, 128, 3, 3)
    assert params['/res5/b2/bn3/gamma'].shape == (2048,)
    assert params['/fc6/W'].shape == (1000, 2048)
    assert '/res2/a/conv1/b' not in params  # bottleneck convs have no bias
    assert model.res4.b5.bn1.avg_var.shape == (256,)
    assert model.available_layers == ['conv1', 'pool1', 'res2', 'res3',
                                      'res4', 'res5', 'pool5', 'fc6', 'prob']
    assert isinstance(model, resnet.ResNetLayers)
    assert isinstance(model.res3, resnet.BuildingBlock)
    assert isinstance(model.res3.a, resnet.BottleneckA)
    assert isinstance(model.res3.b1, resnet.BottleneckB)


def test_forward_matches_reference(model):
    with chainer.using_config('train', False):
        out = model(wave(2, 3, 32, 32), layers=['pool1', 'res5', 'fc6'])
    assert out['pool1'].shape == (2, 64, 8, 8)
    numpy.testing.assert_allclose(out['pool1'].array[0, :3, 0, 0],
                                  [0., 0.114105, 1.714295], atol=2e-6)
    assert out['res5'].shape == (2, 2048, 1, 1)
    numpy.testing.assert_allclose(out['res5'].array[:, :4, 0, 0], [
        [0.132482, 0.126732, 0.132056, 0.067351],
        [0.132482, 0.126732, 0.132056, 0.067351]], rtol=2e-5)
    numpy.testing.assert_allclose(out['fc6'].array[:, :5], [
        [0.325351, 1.643872, 1.398937, -0.162175, -1.530204],
        [0.325351, 1.643872, 1.398937, -0.162175, -1.530203]], rtol=2e-5,
        atol=2e-6)
    with chainer.using_config('train', False):
        default = model(wave(1, 3, 32, 32))
    assert list(default) == ['prob'] and default['prob'].shape == (1, 1000)


def test_downsample_fb():
    m = L.ResNet50Layers(pretrained_model=None, downsample_fb=True)
    assert m.res3.a.conv1.stride == (1, 1) and m.res3.a.conv2.stride == (2, 2)
    plain = resnet.BottleneckA(8, 4, 16, stride=2)
    assert plain.conv1.stride == (2, 2) and plain.conv2.stride == (1, 1)
    he = m.res4.b1.conv2.W.array  # random init: He normal
    assert abs(he.std() - numpy.sqrt(2. / (256 * 9))) < 0.002
    fill(m)
    with chainer.using_config('train', False):
        y = m(wave(2, 3, 32, 32), layers=['fc6'])['fc6']
    numpy.testing.assert_allclose(y.array[0, :5], [
        0.325354, 1.643862, 1.398924, -0.162179, -1.530194], rtol=2e-5)


def test_building_block_and_gradients():
    block = resnet.BuildingBlock(3, 4, 2, 6, 2)
    assert sorted(n for n, _ in block.namedlinks(skipself=True)
                  if n.count('/') == 1) == ['/a', '/b1', '/b2']
    x = numpy.random.RandomState(0).uniform(-1, 1, (2, 4, 5, 5)).astype('f')
    assert block(x).shape == (2, 6, 3, 3)
    b = resnet.BottleneckB(4, 2)
    params = tuple(p for _, p in sorted(b.namedparams()))
    for p in params:
        p.array = p.array.astype(numpy.float64)
    for _, link in b.namedlinks():
        if isinstance(link, L.BatchNormalization):
            link.avg_mean = link.avg_mean.astype(numpy.float64)
            link.avg_var = link.avg_var.astype(numpy.float64)
    rng = numpy.random.RandomState(1)
    with chainer.using_config('train', False):
        gradient_check.check_backward(
            b, rng.uniform(-1, 1, (2, 4, 3, 3)),
            rng.uniform(-1, 1, (2, 4, 3, 3)), params=params, eps=1e-3,
            atol=1e-4, rtol=1e-3)


@pytest.mark.parametrize('cls,n_params,last', [
    (L.ResNet101Layers, 315, 'b22'), (L.ResNet152Layers, 468, 'b35')])
def test_deeper_structures(monkeypatch, cls, n_params, last):
    monkeypatch.setattr(_common, 'load_pretrained', lambda *args: None)
    m = cls('weights.npz')  # zero weights, as before loading a file
    assert len(list(m.namedparams())) == n_params
    assert hasattr(m.res4, last)
    assert not hasattr(m.res4, 'b{}'.format(int(last[1:]) + 1))


def test_errors(model):
    with pytest.raises(ValueError, match='50, 101, or 152'):
        resnet.ResNetLayers(None, 34)
    with pytest.raises(ValueError, match='test argument'):
        model(wave(1, 3, 32, 32), test=True)
    with pytest.raises(TypeError, match='foo'):
        model(wave(1, 3, 32, 32), foo=True)


def test_prepare_matches_reference():
    image = (numpy.arange(4 * 5 * 3) * 7 % 256).reshape(4, 5, 3)
    x = resnet.prepare(image.astype('B'), size=(3, 2))
    numpy.testing.assert_allclose(x, [
        [[-10.063004, -0.063004, 26.936996], [57.936996, -4.063004, 2.936996]],
        [[-29.903, -19.903, 7.097], [38.097, -23.903, -16.903]],
        [[-44.152, -16.152, -7.152], [23.848, 29.848, -31.152]]], atol=1e-5)


@pytest.mark.parametrize('n_layers,names', [
    (50, ['res2c_branch2c', 'res4f_branch2a', 'res5c_branch2b']),
    (101, ['res3b3_branch2c', 'res4b22_branch2a', 'res5c_branch2b'])])
def test_transfer_from_caffe_names(monkeypatch, n_layers, names):
    monkeypatch.setattr(_common, 'load_pretrained', lambda *args: None)
    seen = []

    class Value:
        def __init__(self, v):
            self.array = numpy.float32(v)

    class Fake:
        def __init__(self, name):
            seen.append(name)
            self.W = Value(2.)
            self.b = Value(3.)
            self.bias = type('Bias', (), {'b': Value(4.)})()
            self.avg_mean = numpy.float32(5.)
            self.avg_var = numpy.float32(6.)

    class FakeCaffe:
        def __getattr__(self, name):
            return Fake(name)

    m = resnet.ResNetLayers('weights.npz', n_layers)
    resnet._transfer_resnet(FakeCaffe(), m, n_layers)
    for name in names + ['conv1', 'bn_conv1', 'scale_conv1', 'fc1000',
                         'res2a_branch1', 'bn2a_branch1', 'scale5a_branch1']:
        assert name in seen
    assert all((p.array != 0).all() for p in m.params())
    assert (m.res3.b2.bn1.avg_var == 6).all()


def test_building_block_keywords():
    # Chainer's signature: n_layers=..., with n_layer kept as the old name.
    block = resnet.BuildingBlock(n_layers=2, in_channels=4, mid_channels=2,
                                 out_channels=6, stride=1)
    assert [name for name, _ in block.namedlinks(skipself=True)
            if name.count('/') == 1] == ['/a', '/b1']
    old = resnet.BuildingBlock(n_layer=3, in_channels=4, mid_channels=2,
                               out_channels=6, stride=1)
    assert hasattr(old, 'b2') and not hasattr(old, 'b3')
    with pytest.raises(TypeError, match='missing'):
        resnet.BuildingBlock(2, 4, 2, 6)
    with pytest.raises(TypeError, match='foo'):
        resnet.BuildingBlock(2, 4, 2, 6, 1, foo=1)


def test_convert_caffemodel_signature():
    import inspect
    params = inspect.signature(L.ResNet101Layers.convert_caffemodel_to_npz).parameters
    assert list(params) == ['path_caffemodel', 'path_npz', 'n_layers']
