"""``F.spatial_pyramid_pooling_2d``: max pooling over a pyramid of grids,
concatenated into one fixed-length vector per image."""

import math

from chainer.functions._errors import (chainer_text, invalid_type,
                                       names_bad_arguments)


@names_bad_arguments
def spatial_pyramid_pooling_2d(x, pyramid_height, pooling=None):
    """Spatial pyramid pooling function.

    The pooling of He et al., "Spatial Pyramid Pooling in Deep Convolutional
    Networks for Visual Recognition" (2014). Level ``l`` (``0 <= l <
    pyramid_height``) splits the map into about ``2**l x 2**l`` bins: max
    pooling with the window and stride ``ceil(h / 2**l)`` (and the same for
    the width), padded by ``(window * 2**l - h) // 2`` (with Chainer's
    ``cover_all=True`` rounding). The pooled levels are flattened and
    concatenated along the channel axis.

    Args:
        x (~chainer.Variable or array): Input ``(n, c, h, w)``.
        pyramid_height (int): Number of pyramid levels (positive).
        pooling (str): Pooling operation; only ``'max'`` is supported (it
            must be given, as in Chainer 7).

    Returns:
        ~chainer.Variable: Output ``(n, c * b, 1, 1)`` with ``b`` the total
        number of bins (``(4 ** pyramid_height - 1) // 3`` when ``h`` and
        ``w`` are divisible by ``2 ** (pyramid_height - 1)``).

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.ones((2, 3, 8, 8), np.float32)
    >>> F.spatial_pyramid_pooling_2d(x, 3, 'max').shape
    (2, 63, 1, 1)
    """
    from chainer.functions.array.concat import concat
    from chainer.functions.array.reshape import reshape
    from chainer.functions.pooling.max_pooling_nd import max_pooling_2d
    if pooling != 'max':
        raise chainer_text(
            ValueError('Unsupported pooling operation: ', pooling))
    if len(x.shape) != 4:
        raise invalid_type('spatial_pyramid_pooling_2d', 'x.ndim == 4',
                           '{} != 4'.format(len(x.shape)))
    if int(pyramid_height) < 1:
        raise invalid_type('spatial_pyramid_pooling_2d',
                           'pyramid_height >= 1', '{} < 1'.format(
                               pyramid_height))
    n, _, h, w = x.shape
    levels = []
    for level in range(int(pyramid_height)):
        bins = 2 ** level
        kh, kw = math.ceil(h / bins), math.ceil(w / bins)
        pad = ((kh * bins - h) // 2, (kw * bins - w) // 2)
        y = max_pooling_2d(x, (kh, kw), None, pad)
        levels.append(reshape(y, (n, -1, 1, 1)))
    return concat(levels, axis=1)
