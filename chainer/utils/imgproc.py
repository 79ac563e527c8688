"""Image cropping for test-time augmentation."""

import numpy


def oversample(images, crop_dims):
    """Crops an image into center, corners, and mirror images.

    Each image gives ten crops of size ``crop_dims``: the four corners
    (top-left, top-right, bottom-left, bottom-right) and the center, then
    the same five mirrored horizontally.

    Args:
        images (numpy.ndarray): Images of shape ``(N, C, H, W)``.
        crop_dims (tuple of ints): ``(h, w)``, the size of the crops.

    Returns:
        numpy.ndarray: The crops, shape ``(10 N, C, h, w)``, the ten crops
        of each image together, in the images' dtype.

    >>> x = numpy.zeros((2, 3, 8, 8), numpy.float32)
    >>> oversample(x, (4, 4)).shape
    (20, 3, 4, 4)
    """
    images = numpy.asarray(images)
    if images.ndim != 4:
        raise ValueError('oversample: images must have shape (N, C, H, W), '
                         'got {}'.format(images.shape))
    n, channels, src_h, src_w = images.shape
    h, w = crop_dims
    if not (0 < h <= src_h and 0 < w <= src_w):
        raise ValueError('oversample: crop_dims {} do not fit in images of '
                         'size {}'.format(tuple(crop_dims), (src_h, src_w)))
    cy, cx = (src_h - h) // 2, (src_w - w) // 2
    corners = ((0, 0), (0, src_w - w), (src_h - h, 0),
               (src_h - h, src_w - w), (cy, cx))
    crops = numpy.empty((n, 10, channels, h, w), dtype=images.dtype)
    for i, (y, x) in enumerate(corners):
        crop = images[:, :, y:y + h, x:x + w]
        crops[:, i] = crop
        crops[:, i + 5] = crop[..., ::-1]
    return crops.reshape(n * 10, channels, h, w)
