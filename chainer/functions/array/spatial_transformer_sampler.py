"""``F.spatial_transformer_sampler``: bilinear sampling at given points.

Points outside the image read zeros.  As in Chainer, the gradient cannot be
differentiated again.
"""

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import (check_same_dtype, invalid_type, names_bad_arguments)
from chainer.functions.array.spatial_transformer_grid import _reject_kwargs


def _check(func, x, grid):
    for name, a in (('x', x), ('grid', grid)):
        if a.dtype.kind != 'f':
            raise invalid_type(func, '{}.dtype.kind == f'.format(name),
                               '{} != f'.format(a.dtype.kind))
        if a.ndim != 4:
            raise invalid_type(func, '{}.ndim == 4'.format(name),
                               '{} != 4'.format(a.ndim))
    check_same_dtype(func, grid, x, ('grid', 'x'))
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
        # Chainer's arithmetic step by step (its rounding), the gradient of
        # the grid zero where a point lies beyond the padded image
        x, grid, gy = inputs
        xp = backend.get_array_module(x)
        B, C, H, W = x.shape
        out_hw = grid.shape[2:]
        g = grid.reshape(B, 2, -1)
        u = (g[:, 0] + 1) * (W - 1) / 2 + 1
        v = (g[:, 1] + 1) * (H - 1) / 2 + 1
        uc, vc = u.clip(0, W + 1), v.clip(0, H + 1)
        u0 = xp.floor(xp.where(xp.isnan(uc), 0, uc)).astype(numpy.int32)
        v0 = xp.floor(xp.where(xp.isnan(vc), 0, vc)).astype(numpy.int32)
        u0, v0 = u0.clip(0, W), v0.clip(0, H)
        u1, v1 = u0 + 1, v0 + 1
        wu0, wu1, wv0, wv1 = (w.astype(gy.dtype, copy=False) for w in (
            uc - u0, u1 - uc, vc - v0, v1 - vc))
        xpad = xp.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
        n = xp.arange(B)[:, None]
        x1, x2, x3, x4 = (xpad[n, :, vi, ui] for vi, ui in (
            (v0, u0), (v0, u1), (v1, u0), (v1, u1)))  # (B, P, C)
        gu = -wv1[:, :, None] * x1
        gu += wv1[:, :, None] * x2
        gu -= wv0[:, :, None] * x3
        gu += wv0[:, :, None] * x4
        gv = -wu1[:, :, None] * x1
        gv -= wu0[:, :, None] * x2
        gv += wu1[:, :, None] * x3
        gv += wu0[:, :, None] * x4
        ggrid = []
        for gw, w, size in ((gu, u, W), (gv, v, H)):
            gw = gw.reshape((B,) + out_hw + (C,)).transpose(0, 3, 1, 2)
            gw *= gy
            gw = xp.sum(gw, axis=1)
            w = w.reshape(gw.shape)
            ggrid.append(gw / 2. * (size - 1) * (w > 0) * (w < size + 1))
        ggrid = xp.concatenate([a[:, None] for a in ggrid], axis=1)
        if xp is numpy:
            scatter_add = numpy.add.at
        else:
            import cupyx
            scatter_add = cupyx.scatter_add
        gx = xp.zeros_like(xpad)
        gy = gy.reshape(B, C, -1)
        for b in range(B):
            for vi, ui, wu, wv in ((v0, u0, wu1, wv1), (v0, u1, wu0, wv1),
                                   (v1, u0, wu1, wv0), (v1, u1, wu0, wv0)):
                scatter_add(gx[b], (slice(None), vi[b], ui[b]),
                            gy[b] * wu[b] * wv[b])
        return gx[:, :, 1:-1, 1:-1], ggrid.astype(grid.dtype, copy=False)

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
