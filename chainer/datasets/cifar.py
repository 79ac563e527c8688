"""CIFAR-10 and CIFAR-100 (the "python version" tarballs).

The batches inside the tarballs are Python 2 pickles of dicts holding a
NumPy array. They are read with an unpickler that only accepts what those
files contain (NumPy arrays and dtypes, plus plain Python values), so a
tampered tarball cannot run code.
"""

import os
import pickle
import tarfile

import numpy

import chainer
from chainer.dataset import download
from chainer.datasets import tuple_dataset

_URLS = {
    'cifar-10': 'https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz',
    'cifar-100': 'https://www.cs.toronto.edu/~kriz/cifar-100-python.tar.gz',
}


def _reconstruct_function():
    try:
        from numpy._core import multiarray
    except ImportError:  # NumPy < 1.26
        from numpy.core import multiarray
    return multiarray._reconstruct


def _allowed():
    import codecs
    reconstruct = _reconstruct_function()
    return {
        ('numpy.core.multiarray', '_reconstruct'): reconstruct,
        ('numpy._core.multiarray', '_reconstruct'): reconstruct,
        ('numpy', 'ndarray'): numpy.ndarray,
        ('numpy', 'dtype'): numpy.dtype,
        ('_codecs', 'encode'): codecs.encode,
    }


class _ArrayUnpickler(pickle.Unpickler):
    """An unpickler that builds only NumPy arrays and builtin values."""

    _classes = None

    def find_class(self, module, name):
        if _ArrayUnpickler._classes is None:
            _ArrayUnpickler._classes = _allowed()
        try:
            return self._classes[module, name]
        except KeyError:
            raise pickle.UnpicklingError(
                'CIFAR batch: refusing to load {}.{} (only NumPy arrays are '
                'expected)'.format(module, name)) from None


def _load_batch(tar, member):
    f = tar.extractfile(member)
    if f is None:
        raise ValueError('CIFAR archive: {} is not a file'.format(member))
    with f:
        d = _ArrayUnpickler(f, encoding='latin1').load()
    return {k.decode('latin1') if isinstance(k, bytes) else k: v
            for k, v in d.items()}


def _read_archive(path, name):
    if name == 'cifar-10':
        prefix, label_key = 'cifar-10-batches-py/', 'labels'
        train_names = ['data_batch_{}'.format(i) for i in range(1, 6)]
        test_names = ['test_batch']
    else:
        prefix, label_key = 'cifar-100-python/', 'fine_labels'
        train_names, test_names = ['train'], ['test']
    out = {}
    with tarfile.open(path, 'r:gz') as tar:
        for split, names in (('train', train_names), ('test', test_names)):
            xs, ys = [], []
            for member in names:
                d = _load_batch(tar, prefix + member)
                xs.append(numpy.asarray(d['data'], numpy.uint8).reshape(
                    -1, 3072))
                ys.append(numpy.asarray(d[label_key], numpy.uint8))
            out[split + '_x'] = numpy.concatenate(xs)
            out[split + '_y'] = numpy.concatenate(ys)
    return out


def _get_cifar(name, withlabel, ndim, scale, dtype):
    if ndim not in (1, 3):
        raise ValueError('invalid ndim for CIFAR dataset')
    root = download.get_dataset_directory(os.path.join('pfnet', 'chainer',
                                                       'cifar'))
    npz_path = os.path.join(root, '{}.npz'.format(name))

    def creator(path):
        raw = _read_archive(download.cached_download(_URLS[name]), name)
        numpy.savez_compressed(path, **raw)
        return raw

    raw = download.cache_or_load_file(npz_path, creator, numpy.load)
    dtype = chainer.get_dtype(dtype)
    splits = []
    for split in ('train', 'test'):
        x = raw[split + '_x']
        if ndim == 3:
            x = x.reshape(-1, 3, 32, 32)
        x = x.astype(dtype)
        x *= scale / 255.
        if withlabel:
            splits.append(tuple_dataset.TupleDataset(
                x, raw[split + '_y'].astype(numpy.int32)))
        else:
            splits.append(x)
    return tuple(splits)


def get_cifar10(withlabel=True, ndim=3, scale=1.0, dtype=None):
    """Gets the CIFAR-10 dataset (downloaded once, cached under the dataset
    root in ``pfnet/chainer/cifar``).

    Args:
        withlabel (bool): Return (image, int32 label) TupleDatasets;
            otherwise arrays of images.
        ndim (int): 3: images of shape (3, 32, 32); 1: (3072,).
        scale (float): Pixel values are scaled to ``[0, scale]``.
        dtype: Image dtype (default ``chainer.get_dtype()``).

    Returns:
        tuple: ``(train, test)``: 50000 and 10000 examples.
    """
    return _get_cifar('cifar-10', withlabel, ndim, scale, dtype)


def get_cifar100(withlabel=True, ndim=3, scale=1.0, dtype=None):
    """Gets the CIFAR-100 dataset, with its 100 fine labels. The options
    are those of :func:`get_cifar10`.

    Returns:
        tuple: ``(train, test)``.
    """
    return _get_cifar('cifar-100', withlabel, ndim, scale, dtype)
