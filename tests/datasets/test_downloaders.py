"""The downloaders against small files in the real formats, served from
127.0.0.1 (fixtures in conftest.py)."""

import os

import numpy
import pytest

import chainer
from chainer import datasets
from chainer.datasets import (cifar, fashion_mnist, kuzushiji_mnist, mnist,
                              ptb, svhn)

MNISTS = [(datasets.get_mnist, mnist, 'pfnet/chainer/mnist'),
          (datasets.get_fashion_mnist, fashion_mnist,
           'pfnet/chainer/fashion-mnist'),
          (datasets.get_kuzushiji_mnist, kuzushiji_mnist,
           'pfnet/chainer/kuzushiji_mnist')]


def _serve_mnist(fmt, folder, rng):
    train = rng.randint(0, 256, (3, 28, 28)).astype(numpy.uint8)
    test = rng.randint(0, 256, (2, 28, 28)).astype(numpy.uint8)
    fmt.write(folder, 'train-images-idx3-ubyte.gz', fmt.idx_images(train))
    fmt.write(folder, 'train-labels-idx1-ubyte.gz', fmt.idx_labels([1, 2, 9]))
    fmt.write(folder, 't10k-images-idx3-ubyte.gz', fmt.idx_images(test))
    fmt.write(folder, 't10k-labels-idx1-ubyte.gz', fmt.idx_labels([4, 0]))
    return train, test


@pytest.mark.parametrize('get, module, subdir', MNISTS)
def test_mnist_family(get, module, subdir, server, dataset_root,
                      monkeypatch, fmt):
    url, folder, hits = server
    monkeypatch.setattr(module, '_BASE_URL', url)
    train_images, test_images = _serve_mnist(fmt, folder, numpy.random.RandomState(0))

    train, test = get()
    assert isinstance(train, datasets.TupleDataset)
    assert len(train) == 3 and len(test) == 2
    x, t = train[1]
    assert x.shape == (784,) and x.dtype == numpy.float32
    numpy.testing.assert_allclose(x, train_images[1].ravel() / 255.,
                                  rtol=1e-6)
    assert t == 2 and t.dtype == numpy.int32
    assert [int(e[1]) for e in test] == [4, 0]
    assert sorted(os.listdir(os.path.join(dataset_root, subdir))) == [
        'test.npz', 'train.npz']
    assert len(hits) == 4

    # Later calls read the cache; the options follow Chainer's conventions.
    x3, _ = get(withlabel=False, ndim=3, scale=2.0, dtype=numpy.float64)
    assert x3.shape == (3, 1, 28, 28) and x3.dtype == numpy.float64
    numpy.testing.assert_allclose(x3[0, 0], train_images[0] * 2. / 255.)
    rgb, _ = get(ndim=3, rgb_format=True, label_dtype=numpy.int64)
    assert rgb[0][0].shape == (3, 28, 28) and rgb[0][1].dtype == numpy.int64
    assert (rgb[0][0][0] == rgb[0][0][2]).all()
    assert get(ndim=2)[0][0][0].shape == (28, 28)
    with chainer.using_config('dtype', numpy.float16):
        assert get()[0][0][0].dtype == numpy.float16
    assert len(hits) == 4
    with pytest.raises(ValueError, match='invalid ndim'):
        get(ndim=4)


def test_mnist_rejects_corrupt_file(server, dataset_root, monkeypatch, fmt):
    url, folder, _ = server
    monkeypatch.setattr(mnist, '_BASE_URL', url)
    _serve_mnist(fmt, folder, numpy.random.RandomState(0))
    import gzip
    fmt.write(folder, 'train-images-idx3-ubyte.gz', gzip.compress(b'\0' * 12))
    with pytest.raises(ValueError, match='idx'):
        datasets.get_mnist()
    # nothing half-made was cached
    assert not os.path.exists(
        os.path.join(dataset_root, 'pfnet/chainer/mnist/train.npz'))


def test_labels():
    assert datasets.get_fashion_mnist_labels()[9] == 'Ankle boot'
    assert len(datasets.get_kuzushiji_mnist_labels()) == 10
    assert datasets.get_kuzushiji_mnist_labels()[0] == ('o', '\u304a')


def _cifar_data(rng, n):
    return rng.randint(0, 256, (n, 3072)).astype(numpy.uint8)


def test_cifar10(server, dataset_root, monkeypatch, fmt):
    url, folder, hits = server
    monkeypatch.setitem(cifar._URLS, 'cifar-10', url + 'c10.tar.gz')
    rng = numpy.random.RandomState(0)
    batches = {'data_batch_{}'.format(i): (_cifar_data(rng, 2), [i, i + 1])
               for i in range(1, 6)}
    batches['test_batch'] = (_cifar_data(rng, 3), [7, 8, 9])
    fmt.write(folder, 'c10.tar.gz',
          fmt.cifar_tarball(batches, 'cifar-10-batches-py', 'labels'))

    train, test = datasets.get_cifar10()
    assert len(train) == 10 and len(test) == 3
    x, t = train[2]
    assert x.shape == (3, 32, 32) and x.dtype == numpy.float32
    numpy.testing.assert_allclose(
        x, batches['data_batch_2'][0][0].reshape(3, 32, 32) / 255.,
        rtol=1e-6)
    assert t == 2 and t.dtype == numpy.int32
    assert [int(e[1]) for e in test] == [7, 8, 9]
    flat, _ = datasets.get_cifar10(withlabel=False, ndim=1, scale=3.)
    assert flat.shape == (10, 3072) and flat.max() <= 3.
    assert hits == ['/c10.tar.gz']
    assert os.path.exists(os.path.join(dataset_root,
                                       'pfnet/chainer/cifar/cifar-10.npz'))
    with pytest.raises(ValueError, match='invalid ndim'):
        datasets.get_cifar10(ndim=2)


def test_cifar100(server, dataset_root, monkeypatch, fmt):
    url, folder, _ = server
    monkeypatch.setitem(cifar._URLS, 'cifar-100', url + 'c100.tar.gz')
    rng = numpy.random.RandomState(1)
    batches = {'train': (_cifar_data(rng, 3), [50, 60, 99]),
               'test': (_cifar_data(rng, 2), [1, 2])}
    fmt.write(folder, 'c100.tar.gz',
          fmt.cifar_tarball(batches, 'cifar-100-python', 'fine_labels'))
    train, test = datasets.get_cifar100(dtype=numpy.float64)
    assert [int(e[1]) for e in train] == [50, 60, 99]
    assert train[0][0].dtype == numpy.float64 and len(test) == 2


def test_cifar_refuses_code_in_pickles(server, dataset_root, monkeypatch, fmt):
    import io
    import pickle
    import tarfile
    url, folder, _ = server
    monkeypatch.setitem(cifar._URLS, 'cifar-100', url + 'evil.tar.gz')

    class Evil:
        def __reduce__(self):
            return (os.system, ('echo pwned',))

    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode='w:gz') as tar:
        payload = pickle.dumps({'data': Evil()}, protocol=2)
        info = tarfile.TarInfo('cifar-100-python/train')
        info.size = len(payload)
        tar.addfile(info, io.BytesIO(payload))
    fmt.write(folder, 'evil.tar.gz', out.getvalue())
    with pytest.raises(pickle.UnpicklingError, match='refusing'):
        datasets.get_cifar100()


def test_ptb(server, dataset_root, monkeypatch, fmt):
    url, folder, hits = server
    monkeypatch.setattr(ptb, '_BASE_URL', url)
    fmt.write(folder, 'ptb.train.txt', b' the cat sat \n the dog <unk> \n')
    fmt.write(folder, 'ptb.valid.txt', b' sat cat \n')
    fmt.write(folder, 'ptb.test.txt', b' dog the \n')
    train, valid, test = datasets.get_ptb_words()
    assert train.dtype == numpy.int32
    assert train.tolist() == [0, 1, 2, 3, 0, 4, 5, 3]
    assert valid.tolist() == [2, 1, 3] and test.tolist() == [4, 0, 3]
    vocab = datasets.get_ptb_words_vocabulary()
    assert vocab == {'the': 0, 'cat': 1, 'sat': 2, '<eos>': 3, 'dog': 4,
                     '<unk>': 5}
    assert sorted(os.listdir(os.path.join(dataset_root, 'pfnet/chainer/ptb'))
                  ) == ['test.npz', 'train.npz', 'valid.npz', 'vocab.txt']
    assert len(hits) == 3


def test_svhn(server, dataset_root, monkeypatch, fmt):
    pytest.importorskip('scipy')
    url, folder, _ = server
    monkeypatch.setattr(svhn, '_BASE_URL', url)
    rng = numpy.random.RandomState(0)
    images = {}
    for name, labels in [('train', [0, 1, 9]), ('test', [5, 0]),
                         ('extra', [3, 4])]:
        images[name] = rng.randint(0, 256, (len(labels), 3, 32, 32)).astype(
            numpy.uint8)
        fmt.svhn_mat(os.path.join(str(folder), name + '_32x32.mat'),
                 images[name], labels)
    train, test = datasets.get_svhn()
    assert [int(e[1]) for e in train] == [0, 1, 9]
    assert [int(e[1]) for e in test] == [5, 0]
    x, t = train[1]
    assert x.shape == (3, 32, 32) and x.dtype == numpy.float32
    assert t.dtype == numpy.int32
    numpy.testing.assert_allclose(x, images['train'][1] / 255., rtol=1e-6)
    out = datasets.get_svhn(withlabel=False, add_extra=True, scale=2.,
                            dtype=numpy.float64)
    assert len(out) == 3 and out[2].shape == (2, 3, 32, 32)
    assert out[0].dtype == numpy.float64 and out[0].max() <= 2.
