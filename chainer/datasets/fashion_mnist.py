"""Fashion-MNIST: Zalando's article images in MNIST's format."""

import numpy

from chainer.datasets import _mnist_helper

_BASE_URL = 'http://fashion-mnist.s3-website.eu-central-1.amazonaws.com/'

_LABELS = ['T-shirt/top', 'Trouser', 'Pullover', 'Dress', 'Coat', 'Sandal',
           'Shirt', 'Sneaker', 'Bag', 'Ankle boot']


def get_fashion_mnist_labels():
    """Returns the names of the ten Fashion-MNIST classes, by label."""
    return list(_LABELS)


def get_fashion_mnist(withlabel=True, ndim=1, scale=1.0, dtype=None,
                      label_dtype=numpy.int32, rgb_format=False):
    """Gets the Fashion-MNIST dataset (cached in
    ``pfnet/chainer/fashion-mnist``). The options are those of
    :func:`chainer.datasets.get_mnist`.

    Returns:
        tuple: ``(train, test)``.
    """
    return _mnist_helper.get('Fashion-MNIST', 'pfnet/chainer/fashion-mnist',
                             _BASE_URL, withlabel, ndim, scale, dtype,
                             label_dtype, rgb_format)
