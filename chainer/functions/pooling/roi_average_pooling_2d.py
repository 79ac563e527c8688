"""``F.roi_average_pooling_2d``: the mean of each bin of each RoI."""

from chainer.functions.pooling import _roi


class ROIAveragePooling2D(_roi.ROIPoolingBase):
    """RoI average pooling of ``(x, rois, roi_indices)``."""

    _mode = 'avg'


def roi_average_pooling_2d(x, rois, roi_indices, outsize, spatial_scale):
    """Spatial Region of Interest (ROI) average pooling function.

    The bins are those of :func:`~chainer.functions.roi_max_pooling_2d`
    (RoIs ``(y_min, x_min, y_max, x_max)`` scaled and rounded to the
    feature map, clipped to it); each output is the mean of its bin, and an
    empty bin gives 0.

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
    >>> F.roi_average_pooling_2d(x, rois, np.array([0], np.int32), 2,
    ...                          1.).array
    array([[[[ 2.5,  4.5],
             [10.5, 12.5]]]], dtype=float32)
    """
    return ROIAveragePooling2D(outsize, spatial_scale).apply(
        (x, rois, roi_indices))[0]
