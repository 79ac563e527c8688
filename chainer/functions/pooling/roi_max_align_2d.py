"""``F.roi_max_align_2d``: RoI align, taking the maximum bilinear sample."""

from chainer.functions.pooling import _roi
from chainer.functions._errors import names_bad_arguments


class ROIMaxAlign2D(_roi.ROIAlignBase):
    """RoI max align of ``(x, rois, roi_indices)``."""

    _mode = 'max'


@names_bad_arguments
def roi_max_align_2d(x, rois, roi_indices, outsize, spatial_scale,
                     sampling_ratio=None):
    """Spatial Region of Interest (ROI) max align function.

    The samples are those of :func:`~chainer.functions.roi_average_align_2d`;
    each output is the maximum of its bin's samples that lie within one
    pixel of the map (``-inf`` when there is none). The gradient goes to the
    four neighbours of the (first) maximal sample, with its bilinear weights.

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
    >>> F.roi_max_align_2d(x, rois, np.array([0], np.int32), 1, 1.).array
    array([[[[7.5]]]], dtype=float32)
    """
    return ROIMaxAlign2D(outsize, spatial_scale, sampling_ratio).apply(
        (x, rois, roi_indices))[0]
