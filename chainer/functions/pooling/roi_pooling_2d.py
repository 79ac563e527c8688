"""``F.roi_pooling_2d``: the Fast R-CNN RoI max pooling (RoIs with their
batch index in the first column)."""

from chainer import backend
from chainer.functions.pooling import _roi


class ROIPooling2D(_roi.ROIFunctionBase):
    """RoI max pooling of ``(x, rois)`` with ``rois`` rows
    ``(batch_index, x_min, y_min, x_max, y_max)``."""

    def __init__(self, outh, outw, spatial_scale):
        super().__init__((outh, outw), spatial_scale)

    def forward(self, inputs):
        x, rois = inputs
        _roi.check_inputs(self, x, rois, None, roi_width=5)
        xp = backend.get_array_module(x)
        self._x_shape = x.shape
        roi_indices = rois[:, 0].astype(xp.int32)
        _roi.check_inputs(self, x, rois[:, 1:], roi_indices)
        boxes = rois[:, [2, 1, 4, 3]]
        bins = _roi.pooling_bins(x, boxes, self.outsize, self.spatial_scale,
                                 1)
        y, self.plan = _roi.bin_pool(x, roi_indices, *bins, 'max', 0)
        return y,


def roi_pooling_2d(x, rois, outh, outw, spatial_scale):
    """Spatial Region of Interest (ROI) pooling function.

    The RoI max pooling of Girshick, "Fast R-CNN" (2015). Each row of
    ``rois`` is ``(batch_index, x_min, y_min, x_max, y_max)``; the corners
    are scaled by ``spatial_scale`` and rounded (half to even), the RoI
    includes both corners (extent ``max(max - min + 1, 1)``), and it is
    split into ``outh x outw`` bins as in
    :func:`~chainer.functions.roi_max_pooling_2d`. Each output is the
    maximum of its bin; an empty bin gives 0.

    Args:
        x (~chainer.Variable or array): Feature map ``(n, c, h, w)``.
        rois (~chainer.Variable or array): RoIs ``(R, 5)`` of ``x``'s dtype.
        outh (int): Output height.
        outw (int): Output width.
        spatial_scale (float): Scale from image to feature-map coordinates.

    Returns:
        ~chainer.Variable: Output ``(R, c, outh, outw)``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
    >>> rois = np.array([[0, 0, 0, 3, 3]], np.float32)
    >>> F.roi_pooling_2d(x, rois, 2, 2, 1.).array
    array([[[[ 5.,  7.],
             [13., 15.]]]], dtype=float32)
    """
    return ROIPooling2D(outh, outw, spatial_scale).apply((x, rois))[0]
