import sys

import numpy
import pytest

import chainer
import chainer.links as L
from chainer.links.connection import linear
from chainer.links.model.vision import _common, vgg


def fill(model, skip=()):
    # the same deterministic parameters were set on the reference Chainer
    for k, (n, p) in enumerate(sorted(model.namedparams())):
        if any(n.startswith(s) for s in skip):
            continue
        scale = 1 / numpy.sqrt(numpy.prod(p.shape[1:])) if p.ndim > 1 \
            else 0.1
        p.array[...] = (numpy.cos(numpy.arange(p.size) * 0.7 + k) *
                        scale).reshape(p.shape)


def inputs():
    size = 2 * 3 * 32 * 32
    return (numpy.sin(numpy.arange(size) * 0.01).reshape(2, 3, 32, 32) *
            50).astype('f')


@pytest.fixture
def light(monkeypatch):
    """Builds the models fast: zero weights (as with a pretrained file) and
    a lazily initialized fc6 (its 100M weights are not allocated)."""
    monkeypatch.setattr(_common, 'load_pretrained', lambda *args: None)
    real = linear.Linear

    def lazy_fc6(in_size, out_size, **kwargs):
        return real(None if in_size == 512 * 7 * 7 else in_size, out_size,
                    **kwargs)

    monkeypatch.setattr(linear, 'Linear', lazy_fc6)


IMAGE = (numpy.arange(4 * 5 * 3) * 7 % 256).reshape(4, 5, 3).astype('B')


def test_prepare_matches_reference():
    x = vgg.prepare(IMAGE, size=(3, 2))
    assert x.shape == (3, 2, 3) and x.dtype == numpy.float32
    numpy.testing.assert_allclose(x, [
        [[-10.939003, -0.939003, 26.060997], [57.060997, -4.939003, 2.060997]],
        [[-30.779, -20.779, 6.221001], [37.221, -24.779, -17.779]],
        [[-44.68, -16.68, -7.68], [23.32, 29.32, -31.68]]], atol=1e-5)


def test_prepare_returns_chainers_view():
    # a BGR-flipped, transposed view of an (H, W, 3) array, as Chainer's:
    # NumPy's sums of it round as they do there
    x = vgg.prepare(IMAGE, size=(3, 2))
    assert x.strides == (-4, 36, 12) and x.base is not None
    image = (numpy.arange(30 * 40 * 3) % 255).astype('B').reshape(30, 40, 3)
    assert float(vgg.prepare(image).sum()) == 1692209.0   # Chainer's print


def test_prepare_inputs():
    from PIL import Image
    pil = vgg.prepare(Image.fromarray(IMAGE), size=None)
    assert pil.shape == (3, 4, 5)
    numpy.testing.assert_array_equal(pil, vgg.prepare(IMAGE, size=None))
    chw = vgg.prepare(IMAGE.transpose(2, 0, 1), size=None)
    numpy.testing.assert_array_equal(chw, pil)
    gray = vgg.prepare(IMAGE[:, :, 0], size=None)
    numpy.testing.assert_allclose(gray[0] + 103.939, gray[2] + 123.68,
                                  rtol=1e-6)
    assert vgg.prepare(IMAGE).shape == (3, 224, 224)
    with chainer.using_config('dtype', numpy.float64):
        assert vgg.prepare(IMAGE, size=None).dtype == numpy.float64


def test_prepare_without_pillow(monkeypatch):
    monkeypatch.setitem(sys.modules, 'PIL', None)
    with pytest.raises(ImportError, match='Pillow'):
        vgg.prepare(IMAGE)


def test_vgg16_structure_and_forward(light):
    model = L.VGG16Layers('weights.npz')
    names = [n for n, _ in model.namedparams()]
    assert len(names) == 32
    assert model.conv1_1.W.shape == (64, 3, 3, 3)
    assert model.conv3_3.W.shape == (256, 256, 3, 3)
    assert model.conv5_3.W.shape == (512, 512, 3, 3)
    assert model.fc7.W.shape == (4096, 4096) and model.fc8.b.shape == (1000,)
    assert model.available_layers == [
        'conv1_1', 'conv1_2', 'pool1', 'conv2_1', 'conv2_2', 'pool2',
        'conv3_1', 'conv3_2', 'conv3_3', 'pool3', 'conv4_1', 'conv4_2',
        'conv4_3', 'pool4', 'conv5_1', 'conv5_2', 'conv5_3', 'pool5', 'fc6',
        'fc7', 'fc8', 'prob']
    assert model.functions['fc6'][0] is model.fc6
    assert isinstance(model, vgg.VGGLayers)
    fill(model, skip=('/fc',))
    with chainer.using_config('train', False):
        out = model(inputs(), layers=['conv1_2', 'pool5'])
    assert set(out) == {'conv1_2', 'pool5'}
    numpy.testing.assert_allclose(out['conv1_2'].array[0, :3, 1, 1:4], [
        [0, 0, 0], [0, 0, 0], [19.79188, 21.395454, 21.604658]], rtol=2e-5,
        atol=1e-5)
    assert out['pool5'].shape == (2, 512, 1, 1)
    numpy.testing.assert_allclose(out['pool5'].array[:, :5, 0, 0], [
        [1353.2466, 9287.085, 9448.844, 2031.4972, 9300.735],
        [776.67145, 5329.988, 5422.8057, 1165.8936, 5337.749]], rtol=1e-5)


def test_vgg19_structure_and_forward(light):
    model = L.VGG19Layers('weights.npz')
    assert len(list(model.namedparams())) == 38
    assert 'conv5_4' in model.available_layers
    assert model.conv3_4.W.shape == (256, 256, 3, 3)
    fill(model, skip=('/fc',))
    with chainer.using_config('train', False):
        out = model(inputs(), layers=['pool5'])
    numpy.testing.assert_allclose(out['pool5'].array[:, :5, 0, 0], [
        [4891.8745, 11873.186, 11600.852, 0., 11872.138],
        [3411.3586, 8279.7295, 8089.8086, 0., 8278.949]], rtol=1e-5)


def test_errors(light, tmp_path):
    with pytest.raises(ValueError, match='either 16 or 19'):
        vgg.VGGLayers('weights.npz', n_layers=17)
    model = L.VGG16Layers('weights.npz')
    with pytest.raises(ValueError, match='test argument'):
        model(inputs(), layers=['conv1_1'], test=True)
    with pytest.raises(ValueError, match='volatile'):
        model.extract([IMAGE], volatile=True)


def test_auto_without_cached_file(monkeypatch, tmp_path):
    from chainer.dataset import download
    monkeypatch.setattr(download, '_dataset_root', str(tmp_path))
    with pytest.raises(FileNotFoundError, match='local .npz'):
        L.VGG16Layers()


def test_convert_caffemodel_needs_caffe_function(monkeypatch):
    monkeypatch.setitem(sys.modules, 'chainer.links.caffe', None)
    with pytest.raises(ImportError, match='CaffeFunction'):
        L.VGG16Layers.convert_caffemodel_to_npz('x.caffemodel', 'x.npz')


def test_extract_small_layers(light):
    model = L.VGG16Layers('weights.npz')
    fill(model, skip=('/fc',))
    out = model.extract([IMAGE, IMAGE], layers=['conv1_1'], size=(8, 6))
    assert out['conv1_1'].shape == (2, 64, 6, 8)


def test_vgg19_makes_its_layers_in_chainers_order(monkeypatch):
    # The order draws the random weights: Chainer makes the 16-layer net's
    # convolutions and fully connected layers first, then conv3_4, conv4_4
    # and conv5_4 (so seeded random weights are its)
    import chainer
    from chainer.links.connection import convolution_2d, linear
    made = []

    class Fake(chainer.Link):
        def __init__(self, *args, **kwargs):
            super().__init__()
            made.append(args[:2])
    monkeypatch.setattr(convolution_2d, 'Convolution2D', Fake)
    monkeypatch.setattr(linear, 'Linear', Fake)
    chainer.links.VGG19Layers(pretrained_model=None)
    assert made[:16] == [(3, 64), (64, 64), (64, 128), (128, 128),
                         (128, 256), (256, 256), (256, 256), (256, 512),
                         (512, 512), (512, 512), (512, 512), (512, 512),
                         (512, 512), (25088, 4096), (4096, 4096),
                         (4096, 1000)]
    assert made[16:] == [(256, 256), (512, 512), (512, 512)]
