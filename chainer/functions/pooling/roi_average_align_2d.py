"""``F.roi_average_align_2d``: RoI align, averaging bilinear samples."""

from chainer.functions.pooling import _roi
from chainer.functions._errors import names_bad_arguments


class ROIAverageAlign2D(_roi.ROIAlignBase):
    """RoI average align of ``(x, rois, roi_indices)``."""

    _mode = 'avg'


@names_bad_arguments
def roi_average_align_2d(x, rois, roi_indices, outsize, spatial_scale,
                         sampling_ratio=None):
    """Spatial Region of Interest (ROI) average align function.

    RoI align of He et al., "Mask R-CNN" (2017). Each RoI
    ``(y_min, x_min, y_max, x_max)`` is scaled by ``spatial_scale`` without
    rounding; its extent ``max(y_max - y_min, 1)`` (and the same for x) is
    split into ``outsize`` equal bins, and each bin is sampled on a regular
    ``sampling_ratio`` grid (``ceil(extent / outsize)`` points per axis
    when None) at the centres of the grid cells. A sample is the bilinear
    interpolation of ``x`` (coordinates below 0 read the first pixel, above
    ``size - 1`` the last one; a sample farther than one pixel outside the
    map counts as 0). Each output is the mean of its bin's samples.

    Args:
        x (~chainer.Variable or array): Feature map ``(n, c, h, w)``.
        rois (~chainer.Variable or array): RoIs ``(R, 4)`` of ``x``'s dtype.
        roi_indices (~chainer.Variable or array): int32 ``(R,)``: the image
            of each RoI.
        outsize (int or pair of ints): ``(outh, outw)``.
        spatial_scale (float): Scale from image to feature-map coordinates.
        sampling_ratio (int, pair of ints or None): Samples per bin and axis.

    Returns:
        ~chainer.Variable: Output ``(R, c, outh, outw)``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
    >>> rois = np.array([[0, 0, 2, 2]], np.float32)
    >>> F.roi_average_align_2d(x, rois, np.array([0], np.int32), 1,
    ...                        1.).array
    array([[[[5.]]]], dtype=float32)
    """
    return ROIAverageAlign2D(outsize, spatial_scale, sampling_ratio).apply(
        (x, rois, roi_indices))[0]
