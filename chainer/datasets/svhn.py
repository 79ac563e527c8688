"""The Street View House Numbers (SVHN) digits, cropped 32x32 format."""

import os

import numpy

import chainer
from chainer.dataset import download
from chainer.datasets import tuple_dataset

_BASE_URL = 'http://ufldl.stanford.edu/housenumbers/'


def _retrieve(split):
    path = os.path.join(download.get_dataset_directory('pfnet/chainer/svhn'),
                        split + '.npz')

    def creator(path):
        try:
            import scipy.io
        except ImportError as e:
            raise RuntimeError('SciPy is not available: {}'.format(e)) \
                from e
        mat = scipy.io.loadmat(download.cached_download(
            '{}{}_32x32.mat'.format(_BASE_URL, split)))
        raw = {'x': mat['X'], 'y': mat['y']}
        numpy.savez_compressed(path, **raw)
        return raw

    return download.cache_or_load_file(path, creator, numpy.load)


def _preprocess(raw, withlabel, scale, dtype, label_dtype):
    x = numpy.asarray(raw['x']).transpose(3, 2, 0, 1)  # HWCN -> NCHW
    x = x.astype(dtype)
    x *= scale / 255.
    if not withlabel:
        return x
    y = numpy.asarray(raw['y']).reshape(-1).astype(label_dtype)
    y[y == 10] = 0  # the digit 0 is stored as 10
    return tuple_dataset.TupleDataset(x, y)


def get_svhn(withlabel=True, scale=1.0, dtype=None, label_dtype=numpy.int32,
             add_extra=False):
    """Gets the SVHN dataset (downloaded once, cached under the dataset root
    in ``pfnet/chainer/svhn``). Needs SciPy to read the ``.mat`` files.

    Args:
        withlabel (bool): Return (image, label) TupleDatasets; otherwise
            arrays of images.
        scale (float): Pixel values are scaled to ``[0, scale]``.
        dtype: Image dtype (default ``chainer.get_dtype()``); images have
            shape (3, 32, 32).
        label_dtype: Label dtype; labels are the digits 0 to 9.
        add_extra (bool): Also return the "extra" split.

    Returns:
        tuple: ``(train, test)``, or ``(train, test, extra)``.
    """
    dtype = chainer.get_dtype(dtype)
    splits = ('train', 'test', 'extra') if add_extra else ('train', 'test')
    return tuple(_preprocess(_retrieve(s), withlabel, scale, dtype,
                             label_dtype) for s in splits)
