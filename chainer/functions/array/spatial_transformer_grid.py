"""``F.spatial_transformer_grid``: sampling points of an affine transform."""

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import invalid_type


def _reject_kwargs(func, kwargs):
    """Chainer's errors for the removed ``use_cudnn`` and unknown
    keyword arguments."""
    if 'use_cudnn' in kwargs:
        raise ValueError(
            'The argument "use_cudnn" is not supported anymore. Use '
            "chainer.using_config('use_cudnn', value) context where value "
            'can be `always`, `never`, or `auto`.')
    if kwargs:
        raise TypeError('{}() got unexpected keyword argument(s) {}'.format(
            func, ', '.join("'{}'".format(k) for k in kwargs)))


def _base_grid(xp, dtype, H, W):
    """``(3, H*W)``: the target points (x, y, 1), x and y in [-1, 1]."""
    ys, xs = xp.meshgrid(xp.linspace(-1, 1, H, dtype=dtype),
                         xp.linspace(-1, 1, W, dtype=dtype), indexing='ij')
    return xp.stack([xs.ravel(), ys.ravel(), xp.ones(H * W, dtype)])


class SpatialTransformerGrid(FunctionNode):
    """Maps a regular grid through affine transforms ``theta``."""

    def __init__(self, output_shape):
        self.output_shape = tuple(output_shape)

    def forward(self, inputs):
        theta, = inputs
        if theta.dtype.kind != 'f':
            raise invalid_type(self, 'theta.dtype.kind == f',
                               '{} != f'.format(theta.dtype.kind))
        if theta.ndim != 3 or theta.shape[1:] != (2, 3):
            raise invalid_type(self, 'theta.shape[1:] == (2, 3)',
                               'theta.shape = {}'.format(theta.shape))
        xp = backend.get_array_module(theta)
        H, W = self.output_shape
        base = _base_grid(xp, theta.dtype, H, W)
        return xp.matmul(theta, base).reshape(len(theta), 2, H, W),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.array.reshape import reshape
        from chainer.functions.math.matmul import matmul
        gy, = grad_outputs
        H, W = self.output_shape
        base = _base_grid(gy.xp, gy.dtype, H, W)
        # grid = theta @ base, so gtheta = gy @ base.T.
        return matmul(reshape(gy, (len(gy), 2, H * W)), base.T.copy()),


def spatial_transformer_grid(theta, output_shape, **kwargs):
    """2D Spatial Transformer grid.

    Makes the sampling points of :func:`spatial_transformer_sampler`: for
    each target pixel ``(h, w)`` with normalized coordinates ``x_t, y_t``
    in ``[-1, 1]`` (``x_t`` along the width),
    ``grid[n, :, h, w] = theta[n] @ (x_t, y_t, 1)``.

    Args:
        theta (~chainer.Variable or array): Affine transforms ``(N, 2, 3)``.
        output_shape (tuple of 2 ints): ``(H, W)`` of the target grid.

    Returns:
        ~chainer.Variable: The grid ``(N, 2, H, W)``; channel 0 holds the
        x (width) coordinates, channel 1 the y (height) coordinates.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> theta = np.array([[[1., 0., 0.], [0., 1., 0.]]], np.float32)
    >>> F.spatial_transformer_grid(theta, (2, 3)).array[0, 0]
    array([[-1.,  0.,  1.],
           [-1.,  0.,  1.]], dtype=float32)
    """
    _reject_kwargs('spatial_transformer_grid', kwargs)
    return SpatialTransformerGrid(output_shape).apply((theta,))[0]
