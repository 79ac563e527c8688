"""Kuzushiji-MNIST: cursive Japanese characters in MNIST's format."""

import numpy

from chainer.datasets import _mnist_helper

_BASE_URL = 'http://codh.rois.ac.jp/kmnist/dataset/kmnist/'

_LABELS = [('o', '\u304a'), ('ki', '\u304d'), ('su', '\u3059'),
           ('tsu', '\u3064'), ('na', '\u306a'), ('ha', '\u306f'),
           ('ma', '\u307e'), ('ya', '\u3084'), ('re', '\u308c'),
           ('wo', '\u3092')]


def get_kuzushiji_mnist_labels():
    """Returns the ten Kuzushiji-MNIST classes, by label, as
    ``(romanization, hiragana)`` pairs."""
    return list(_LABELS)


def get_kuzushiji_mnist(withlabel=True, ndim=1, scale=1.0, dtype=None,
                        label_dtype=numpy.int32, rgb_format=False):
    """Gets the Kuzushiji-MNIST dataset (cached in
    ``pfnet/chainer/kuzushiji_mnist``). The options are those of
    :func:`chainer.datasets.get_mnist`.

    Returns:
        tuple: ``(train, test)``.
    """
    return _mnist_helper.get('Kuzushiji-MNIST',
                             'pfnet/chainer/kuzushiji_mnist', _BASE_URL,
                             withlabel, ndim, scale, dtype, label_dtype,
                             rgb_format)
