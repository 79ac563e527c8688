"""Shared by MNIST, Fashion-MNIST and Kuzushiji-MNIST: the idx file
format and Chainer's preprocessing options."""

import gzip
import os
import struct

import numpy

import chainer
from chainer.dataset import download
from chainer.datasets import tuple_dataset

_IMAGES_MAGIC = 2051
_LABELS_MAGIC = 2049


def read_idx(path):
    """Reads a gzipped idx file: images as (n, rows * cols) uint8 (with
    (rows, cols)), or labels as (n,) uint8."""
    with gzip.open(path, 'rb') as f:
        data = f.read()
    if len(data) < 8:
        raise ValueError('{}: not an idx file (too short)'.format(path))
    magic, n = struct.unpack('>ii', data[:8])
    if magic == _IMAGES_MAGIC:
        rows, cols = struct.unpack('>ii', data[8:16])
        offset, size = 16, n * rows * cols
    elif magic == _LABELS_MAGIC:
        rows = cols = None
        offset, size = 8, n
    else:
        raise ValueError('{}: bad idx magic number {}'.format(path, magic))
    if len(data) < offset + size:
        raise ValueError('{}: truncated idx file ({} bytes, expected {})'
                         .format(path, len(data), offset + size))
    array = numpy.frombuffer(data, numpy.uint8, size, offset)
    if rows is None:
        return array.copy()
    return array.reshape(n, rows * cols).copy()


def retrieve(dataset_name, npz_name, base_url, images_file, labels_file):
    """Downloads (once) and converts one split to ``<npz_name>`` holding
    ``x`` (n, rows * cols) and ``y`` (n,), both uint8."""
    path = os.path.join(download.get_dataset_directory(dataset_name),
                        npz_name)

    def creator(path):
        x = read_idx(download.cached_download(base_url + images_file))
        y = read_idx(download.cached_download(base_url + labels_file))
        if len(x) != len(y):
            raise ValueError('{}: {} images but {} labels'.format(
                dataset_name, len(x), len(y)))
        numpy.savez_compressed(path, x=x, y=y)
        return {'x': x, 'y': y}

    return download.cache_or_load_file(path, creator, numpy.load)


def check_ndim(ndim, name):
    if ndim not in (1, 2, 3):
        raise ValueError('invalid ndim for {} dataset'.format(name))


def preprocess(raw, withlabel, ndim, scale, dtype, label_dtype, rgb_format):
    x = raw['x']
    n, size = x.shape
    side = int(round(size ** 0.5))
    if ndim == 2:
        x = x.reshape(n, side, side)
    elif ndim == 3:
        x = x.reshape(n, 1, side, side)
        if rgb_format:
            x = numpy.broadcast_to(x, (n, 3, side, side))
    x = x.astype(chainer.get_dtype(dtype))
    x *= scale / 255.
    if withlabel:
        return tuple_dataset.TupleDataset(x, raw['y'].astype(label_dtype))
    return x


def get(name, dataset_name, base_url, withlabel, ndim, scale, dtype,
        label_dtype, rgb_format):
    check_ndim(ndim, name)
    train = retrieve(dataset_name, 'train.npz', base_url,
                     'train-images-idx3-ubyte.gz',
                     'train-labels-idx1-ubyte.gz')
    test = retrieve(dataset_name, 'test.npz', base_url,
                    't10k-images-idx3-ubyte.gz', 't10k-labels-idx1-ubyte.gz')
    return tuple(preprocess(raw, withlabel, ndim, scale, dtype, label_dtype,
                            rgb_format) for raw in (train, test))
