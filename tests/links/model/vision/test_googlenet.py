import os

import numpy
import pytest

import chainer
import chainer.links as L
from chainer import serializers
from chainer.links.model.vision import googlenet


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
    m = L.GoogLeNet(pretrained_model=None)
    fill(m)
    return m


def test_structure(model):
    params = dict(model.namedparams())
    assert len(params) == 128
    assert params['/conv1/W'].shape == (64, 3, 7, 7)
    assert params['/inc4e/conv5/W'].shape == (128, 32, 5, 5)
    assert params['/inc5b/projp/b'].shape == (128,)
    assert params['/loss1_fc1/W'].shape == (1024, 2048)
    assert params['/loss3_fc/W'].shape == (1000, 1024)
    assert model.available_layers == [
        'conv1', 'pool1', 'conv2_reduce', 'conv2', 'pool2', 'inception_3a',
        'inception_3b', 'pool3', 'inception_4a', 'inception_4b',
        'inception_4c', 'inception_4d', 'inception_4e', 'pool4',
        'inception_5a', 'inception_5b', 'pool5', 'loss3_fc', 'prob',
        'loss1_fc2', 'loss2_fc2']


def test_random_init_is_lecun_uniform():
    m = L.GoogLeNet(pretrained_model=None)
    w = m.conv1.W.array
    bound = numpy.sqrt(3. / (3 * 7 * 7))
    assert numpy.abs(w).max() <= bound and numpy.abs(w).max() > 0.9 * bound
    assert (m.conv1.b.array == 0).all()


def test_forward_small_matches_reference(model):
    with chainer.using_config('train', False):
        out = model(wave(2, 3, 32, 32), layers=[
            'pool1', 'conv2', 'inception_3a', 'inception_5b'])
    numpy.testing.assert_allclose(out['pool1'].array[0, :3, 0, :3], [
        [12.734319, 10.602683, 10.603345], [5.853939, 0., 0.],
        [17.974207, 13.815574, 13.664574]], rtol=1e-5, atol=1e-5)
    numpy.testing.assert_allclose(out['conv2'].array[0, :3, 0, :3], [
        [3.960614, 6.309652, 5.511261], [0., 2.384571, 2.659008],
        [0., 0., 0.]], rtol=1e-5, atol=1e-5)
    numpy.testing.assert_allclose(out['inception_3a'].array[:, :4, 0, 0], [
        [0.117892, 0., 0.091484, 0.], [0., 0.061261, 0.121632, 0.]],
        rtol=2e-5, atol=2e-6)
    numpy.testing.assert_allclose(out['inception_5b'].array[:, :4, 0, 0], [
        [0.084022, 0., 0., 0.229754], [0.084022, 0., 0., 0.229753]],
        rtol=2e-5, atol=2e-6)


def test_classifiers_match_reference(model):
    with chainer.using_config('train', False):
        out = model(wave(1, 3, 224, 224),
                    layers=['loss3_fc', 'prob', 'loss1_fc2', 'loss2_fc2'])
    numpy.testing.assert_allclose(out['prob'].array.sum(), 1, rtol=1e-5)
    numpy.testing.assert_allclose(out['loss3_fc'].array[0, :4], [
        0.073464, 0.080007, 0.07503, 0.069662], rtol=2e-5)
    numpy.testing.assert_allclose(out['loss1_fc2'].array[0, :4], [
        0.523946, 0.137309, -0.305049, -0.678659], rtol=2e-5)
    numpy.testing.assert_allclose(out['loss2_fc2'].array[0, :4], [
        0.507002, 0.139391, -0.28553, -0.651341], rtol=2e-5)


def test_extract(model):
    with chainer.using_config('train', False):
        out = model.extract([wave(20, 30, 3) + 50], layers=['pool2'],
                            size=(32, 32))
    assert out['pool2'].shape == (1, 192, 4, 4)


def test_predict_without_oversampling(model):
    image = (numpy.arange(64 * 48 * 3) % 256).reshape(64, 48, 3)
    prob = model.predict([image], oversample=False)
    assert prob.shape == (1, 1000)
    numpy.testing.assert_allclose(prob.array.sum(), 1, rtol=1e-5)


def test_pretrained_file_and_cache(model, tmp_path, monkeypatch):
    path = str(tmp_path / 'googlenet.npz')
    serializers.save_npz(path, model, compression=False)
    loaded = L.GoogLeNet(pretrained_model=path)
    numpy.testing.assert_array_equal(loaded.inc4a.conv3.W.array,
                                     model.inc4a.conv3.W.array)
    from chainer.dataset import download
    monkeypatch.setattr(download, '_dataset_root', str(tmp_path))
    with pytest.raises(FileNotFoundError, match='pretrained_model'):
        L.GoogLeNet()
    cache = tmp_path / 'pfnet' / 'chainer' / 'models'
    cache.mkdir(parents=True)
    os.rename(path, str(cache / 'bvlc_googlenet.npz'))
    cached = L.GoogLeNet()  # 'auto' finds the converted file
    numpy.testing.assert_array_equal(cached.loss2_fc1.b.array,
                                     model.loss2_fc1.b.array)


def test_transfer_from_caffe_names():
    copied = []

    class Fake:
        def __init__(self, name):
            copied.append(name)
            self.W = type('P', (), {'array': numpy.float32(len(copied))})()
            self.b = type('P', (), {'array': numpy.float32(-1)})()

    class FakeCaffe:
        def __getattr__(self, name):
            return Fake(name)

    m = L.GoogLeNet(pretrained_model=None)
    googlenet._transfer_googlenet(FakeCaffe(), m)
    assert 'conv1/7x7_s2' in copied and 'inception_5b/pool_proj' in copied
    assert 'loss2/classifier' in copied and len(copied) == 3 + 9 * 6 + 7
    assert all((p.array != 0).all() for p in m.params())
