"""``F.spatial_transformer_sampler``: bilinear sampling at given points.

Points outside the image read zeros.  As in Chainer, the gradient cannot be
differentiated again.
"""

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import invalid_type, names_bad_arguments
from chainer.functions.array.spatial_transformer_grid import _reject_kwargs


def _corners(x, grid):
    """The four neighbours of each sampling point: a list of (weight,
    d weight / du, d weight / dv, index into x padded by one pixel)."""
    xp = backend.get_array_module(x)
    H, W = x.shape[2:]
    u = (grid[:, 0] + 1) * ((W - 1) / 2)
    v = (grid[:, 1] + 1) * ((H - 1) / 2)
    u0 = xp.floor(u)
    v0 = xp.floor(v)
    du1, du0 = u0 + 1 - u, u - u0   # weights of the left, right columns
    dv1, dv0 = v0 + 1 - v, v - v0   # weights of the top, bottom rows
    # Indices into x padded by one zero pixel; farther ones clip onto it
    # (a NaN point reads the padding, its NaN weights make the output NaN).
    u0 = xp.where(xp.isnan(u0), -1, u0)
    v0 = xp.where(xp.isnan(v0), -1, v0)
    ui = xp.clip(u0, -1, W).astype(numpy.int64) + 1
    vi = xp.clip(v0, -1, H).astype(numpy.int64) + 1
    ui1 = xp.clip(u0 + 1, -1, W).astype(numpy.int64) + 1
    vi1 = xp.clip(v0 + 1, -1, H).astype(numpy.int64) + 1
    n = xp.arange(len(x))[:, None, None]
    one = xp.ones_like(u)
    return [
        (du1 * dv1, -dv1, -du1, (n, slice(None), vi, ui)),
        (du1 * dv0, -dv0, du1 * one, (n, slice(None), vi1, ui)),
        (du0 * dv1, dv1 * one, -du0, (n, slice(None), vi, ui1)),
        (du0 * dv0, dv0 * one, du0 * one, (n, slice(None), vi1, ui1)),
    ]


def _check(func, x, grid):
    for name, a in (('x', x), ('grid', grid)):
        if a.dtype.kind != 'f':
            raise invalid_type(func, '{}.dtype.kind == f'.format(name),
                               '{} != f'.format(a.dtype.kind))
        if a.ndim != 4:
            raise invalid_type(func, '{}.ndim == 4'.format(name),
                               '{} != 4'.format(a.ndim))
    if grid.dtype != x.dtype:
        raise invalid_type(func, 'grid.dtype == x.dtype',
                           '{} != {}'.format(grid.dtype, x.dtype))
    if grid.shape[1] != 2:
        raise invalid_type(func, 'grid.shape[1] == 2',
                           '{} != 2'.format(grid.shape[1]))
    if x.shape[0] != grid.shape[0]:
        raise invalid_type(func, 'x.shape[0] == grid.shape[0]',
                           '{} != {}'.format(x.shape[0], grid.shape[0]))


class SpatialTransformerSampler(FunctionNode):
    """Samples ``x`` bilinearly at the points of ``grid``."""

    def forward(self, inputs):
        x, grid = inputs
        _check(self, x, grid)
        self.retain_inputs((0, 1))
        xp = backend.get_array_module(x)
        xpad = xp.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
        # Chainer's arithmetic (its rounding): coordinates in the padded
        # image clipped to it, the weights from integer corners (so in
        # float64) cast to x's dtype, the corners summed in its order.
        H, W = x.shape[2:]
        u = ((grid[:, 0] + 1) * (W - 1) / 2 + 1).clip(0, W + 1)
        v = ((grid[:, 1] + 1) * (H - 1) / 2 + 1).clip(0, H + 1)
        u0 = xp.floor(xp.where(xp.isnan(u), 0, u)).astype(numpy.int32)
        v0 = xp.floor(xp.where(xp.isnan(v), 0, v)).astype(numpy.int32)
        u0, v0 = u0.clip(0, W), v0.clip(0, H)
        u1, v1 = u0 + 1, v0 + 1
        n = xp.arange(len(x))[:, None, None]
        y = None
        for wu, wv, ui, vi in ((u1 - u, v1 - v, u0, v0),
                               (u - u0, v1 - v, u1, v0),
                               (u1 - u, v - v0, u0, v1),
                               (u - u0, v - v0, u1, v1)):
            w = (wu * wv).astype(x.dtype, copy=False)
            # xpad[n, :, vi, ui] is (N, out_H, out_W, C).
            term = w[..., None] * xpad[n, :, vi, ui]
            y = term if y is None else y + term
        return xp.ascontiguousarray(y.transpose(0, 3, 1, 2)),

    def backward(self, indexes, grad_outputs):
        x, grid = self.get_retained_inputs()
        return SpatialTransformerSamplerGrad().apply(
            (x, grid, grad_outputs[0]))


class SpatialTransformerSamplerGrad(FunctionNode):
    """The gradients of :class:`SpatialTransformerSampler` for x and grid
    (not differentiable again, as in Chainer)."""

    def forward(self, inputs):
        x, grid, gy = inputs
        xp = backend.get_array_module(x)
        H, W = x.shape[2:]
        xpad = xp.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
        gxpad = xp.zeros_like(xpad)
        gy = gy.transpose(0, 2, 3, 1)  # (N, out_H, out_W, C)
        gu = gv = 0
        for w, dw_du, dw_dv, index in _corners(x, grid):
            if xp is numpy:
                numpy.add.at(gxpad, index, w[..., None] * gy)
            else:
                import cupyx
                cupyx.scatter_add(gxpad, index, w[..., None] * gy)
            gval = (gy * xpad[index]).sum(axis=-1)
            gu = gu + dw_du * gval
            gv = gv + dw_dv * gval
        ggrid = xp.stack([gu * ((W - 1) / 2), gv * ((H - 1) / 2)], axis=1)
        return gxpad[:, :, 1:-1, 1:-1], ggrid.astype(grid.dtype, copy=False)

    def backward(self, indexes, grad_outputs):
        raise NotImplementedError(
            'spatial_transformer_sampler does not support double '
            'backpropagation')


@names_bad_arguments
def spatial_transformer_sampler(x, grid, **kwargs):
    """2D Spatial Transformer sampler.

    Samples ``x`` bilinearly at the points of ``grid`` (made by
    :func:`spatial_transformer_grid`), in normalized coordinates: ``-1``
    and ``1`` are the centres of the first and last pixels. Points outside
    the image read zeros.

    Args:
        x (~chainer.Variable or array): Images ``(N, C, H, W)``.
        grid (~chainer.Variable or array): Points ``(N, 2, out_H, out_W)``:
            channel 0 the x (width) coordinate, channel 1 the y (height)
            coordinate.

    Returns:
        ~chainer.Variable: The samples ``(N, C, out_H, out_W)``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.arange(4, dtype=np.float32).reshape(1, 1, 2, 2)
    >>> grid = np.zeros((1, 2, 1, 1), np.float32)  # the centre
    >>> F.spatial_transformer_sampler(x, grid).array
    array([[[[1.5]]]], dtype=float32)
    """
    _reject_kwargs('spatial_transformer_sampler', kwargs)
    return SpatialTransformerSampler().apply((x, grid))[0]
