"""``F.roi_max_pooling_2d``: the maximum of each bin of each RoI."""

from chainer.functions.pooling import _roi


class ROIMaxPooling2D(_roi.ROIPoolingBase):
    """RoI max pooling of ``(x, rois, roi_indices)``."""

    _mode = 'max'


def roi_max_pooling_2d(x, rois, roi_indices, outsize, spatial_scale):
    """Spatial Region of Interest (ROI) max pooling function.

    Each RoI ``(y_min, x_min, y_max, x_max)`` (in input image units) is
    scaled by ``spatial_scale`` and rounded (half to even) to the feature
    map; its extent ``max(y_max - y_min, 1)`` (and the same for x) is split
    into ``outsize`` bins, bin ``k`` of ``n`` covering the pixels
    ``[floor(k * extent / n), ceil((k + 1) * extent / n))`` from the start,
    clipped to the map. Each output is the maximum of its bin; an empty bin
    gives ``-inf``. The gradient goes to the (first) maximum.

    Args:
        x (~chainer.Variable or array): Feature map ``(n, c, h, w)``.
        rois (~chainer.Variable or array): RoIs ``(R, 4)`` of ``x``'s dtype.
        roi_indices (~chainer.Variable or array): int32 ``(R,)``: the image
            of each RoI.
        outsize (int or pair of ints): ``(outh, outw)``.
        spatial_scale (float): Scale from image to feature-map coordinates.

    Returns:
        ~chainer.Variable: Output ``(R, c, outh, outw)``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
    >>> rois = np.array([[0, 0, 4, 4]], np.float32)
    >>> F.roi_max_pooling_2d(x, rois, np.array([0], np.int32), 2, 1.).array
    array([[[[ 5.,  7.],
             [13., 15.]]]], dtype=float32)
    """
    return ROIMaxPooling2D(outsize, spatial_scale).apply(
        (x, rois, roi_indices))[0]
