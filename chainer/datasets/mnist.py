"""The MNIST handwritten digits."""

import numpy

from chainer.datasets import _mnist_helper

_BASE_URL = 'http://yann.lecun.com/exdb/mnist/'


def get_mnist(withlabel=True, ndim=1, scale=1.0, dtype=None,
              label_dtype=numpy.int32, rgb_format=False):
    """Gets the MNIST dataset (downloaded once, cached under the dataset
    root in ``pfnet/chainer/mnist``).

    Args:
        withlabel (bool): Return (image, label) TupleDatasets; otherwise
            arrays of images.
        ndim (int): 1: images of shape (784,); 2: (28, 28); 3: (1, 28, 28),
            or (3, 28, 28) with ``rgb_format``.
        scale (float): Pixel values are scaled to ``[0, scale]``.
        dtype: Image dtype (default ``chainer.get_dtype()``).
        label_dtype: Label dtype.
        rgb_format (bool): With ``ndim=3``, repeat the gray channel three
            times.

    Returns:
        tuple: ``(train, test)``: 60000 and 10000 examples.
    """
    return _mnist_helper.get('MNIST', 'pfnet/chainer/mnist', _BASE_URL,
                             withlabel, ndim, scale, dtype, label_dtype,
                             rgb_format)
