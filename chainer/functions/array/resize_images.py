"""``F.resize_images``: bilinear or nearest-neighbour resizing.

Resizing is linear and separable: ``y = A @ x @ B.T`` with interpolation
matrices ``A`` (out_H x H) and ``B`` (out_W x W), so the gradient is
``A.T @ gy @ B``, and the gradient of that is the resize again.
"""

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import invalid_type


def _weights(n_in, n_out, mode, align_corners):
    """The (n_out, n_in) interpolation matrix along one axis (NumPy)."""
    out = numpy.arange(n_out, dtype=numpy.float64)
    m = numpy.zeros((n_out, n_in))
    if mode == 'nearest':
        src = numpy.minimum(numpy.floor(out * n_in / n_out).astype(int),
                            n_in - 1)
        m[numpy.arange(n_out), src] = 1
        return m
    if align_corners:
        scale = (n_in - 1) / (n_out - 1) if n_out > 1 else 0.
        pos = out * scale
    else:
        pos = numpy.clip((out + 0.5) * n_in / n_out - 0.5, 0, n_in - 1)
    lo = numpy.minimum(numpy.floor(pos).astype(int), n_in - 1)
    hi = numpy.minimum(lo + 1, n_in - 1)
    frac = pos - lo
    rows = numpy.arange(n_out)
    numpy.add.at(m, (rows, lo), 1 - frac)
    numpy.add.at(m, (rows, hi), frac)
    return m


def _matrices(xp, dtype, in_hw, out_hw, mode, align_corners):
    a = _weights(in_hw[0], out_hw[0], mode, align_corners)
    b = _weights(in_hw[1], out_hw[1], mode, align_corners)
    return xp.asarray(a.astype(dtype)), xp.asarray(b.astype(dtype))


def _positions(n_in, n_out, mode, align_corners):
    """Chainer's source rows (or columns) and their fractions."""
    if mode == 'nearest':
        pos = numpy.minimum(numpy.floor(
            numpy.arange(n_out, dtype=numpy.float64) * (n_in / n_out)),
            n_in - 1)
        return pos.astype(numpy.intp), numpy.zeros(n_out)
    if align_corners:
        pos = numpy.linspace(0, n_in - 1, num=n_out, dtype=numpy.float64)
    else:
        pos = (numpy.arange(n_out, dtype=numpy.float64) + 0.5) * (
            n_in / n_out) - 0.5
        pos = numpy.maximum(pos, 0)
    frac, pos = numpy.modf(pos)
    return pos.astype(numpy.intp), frac


def _corners(in_hw, out_hw, dtype, mode, align_corners):
    """Chainer's neighbour rows and columns ``(2, out_H, out_W)`` each and
    their weights ``(2, 2, out_H, out_W)`` in ``dtype``."""
    H, W = in_hw
    v, vw = _positions(H, out_hw[0], mode, align_corners)
    u, uw = _positions(W, out_hw[1], mode, align_corners)
    v, vw = v[:, None], vw[:, None].astype(dtype)
    u, uw = u[None, :], uw[None, :].astype(dtype)
    shape = (out_hw[0], out_hw[1])
    vs = numpy.broadcast_to(numpy.stack([v, numpy.minimum(v + 1, H - 1)]),
                            (2,) + shape)
    us = numpy.broadcast_to(numpy.stack([u, numpy.minimum(u + 1, W - 1)]),
                            (2,) + shape)
    w = numpy.empty((2, 2) + shape, dtype)
    w[0, 1] = uw
    numpy.subtract(1, w[0, 1], out=w[0, 0])
    numpy.multiply(w[0], vw, out=w[1])
    w[0] -= w[1]
    return vs, us, w


def _interpolate_cpu(x, out_hw, mode, align_corners):
    """Chainer's CPU interpolation (its rounding): the four neighbours of
    each output pixel weighted in x's dtype and summed by einsum."""
    B, C = x.shape[:2]
    shape = (out_hw[0], out_hw[1])
    vs, us, w = _corners(x.shape[2:], shape, x.dtype, mode, align_corners)
    panel = x[:, :, vs[:, None], us[None, :]].reshape(B * C, 4, -1)
    y = numpy.einsum('ijk,jk->ik', panel, w.reshape(4, -1))
    return y.reshape((B, C) + shape)


def _interpolate_grad_cpu(gy, in_hw, mode, align_corners):
    """Chainer's CPU gradient: the weighted gy summed per input pixel by
    bincount (in float64), then cast to gy's dtype."""
    B, C, out_H, out_W = gy.shape
    H, W = in_hw
    vs, us, w = _corners(in_hw, (out_H, out_W), gy.dtype, mode,
                         align_corners)
    gycol = gy.reshape((B * C, 1, 1, out_H, out_W)) * w
    index = (vs[:, None] * W + us[None, :]).ravel()
    index = (numpy.arange(0, B * C * H * W, H * W)[:, None] + index).ravel()
    gx = numpy.bincount(index, weights=gycol.ravel(),
                        minlength=B * C * H * W)
    return gx.astype(gy.dtype, copy=False).reshape((B, C, H, W))


class ResizeImages(FunctionNode):
    """Resizes images ``(N, C, H, W)`` to ``(N, C, out_H, out_W)``."""

    def __init__(self, output_shape, mode='bilinear', align_corners=True):
        self.out_H, self.out_W = (int(s) for s in output_shape)
        self.mode = mode
        self.align_corners = align_corners

    def forward(self, inputs):
        x, = inputs
        if x.dtype.kind != 'f':
            raise invalid_type(self, 'x.dtype.kind == f',
                               '{} != f'.format(x.dtype.kind))
        if x.ndim != 4:
            raise invalid_type(self, 'x.ndim == 4', '{} != 4'.format(x.ndim))
        xp = backend.get_array_module(x)
        self._in_hw = x.shape[2:]
        if xp is numpy and x.size:
            return _interpolate_cpu(x, (self.out_H, self.out_W), self.mode,
                                    self.align_corners),
        a, b = _matrices(xp, x.dtype, self._in_hw, (self.out_H, self.out_W),
                         self.mode, self.align_corners)
        return xp.matmul(xp.matmul(a, x), b.T),

    def backward(self, indexes, grad_outputs):
        return ResizeImagesGrad(self._in_hw, (self.out_H, self.out_W),
                                self.mode, self.align_corners).apply(
                                    grad_outputs)


class ResizeImagesGrad(FunctionNode):
    """The gradient of :class:`ResizeImages` (its transpose)."""

    def __init__(self, in_hw, out_hw, mode, align_corners):
        self.in_hw = in_hw
        self.out_hw = out_hw
        self.mode = mode
        self.align_corners = align_corners

    def forward(self, inputs):
        gy, = inputs
        xp = backend.get_array_module(gy)
        if xp is numpy and gy.size:
            return _interpolate_grad_cpu(gy, self.in_hw, self.mode,
                                         self.align_corners),
        a, b = _matrices(xp, gy.dtype, self.in_hw, self.out_hw, self.mode,
                         self.align_corners)
        return xp.matmul(xp.matmul(a.T, gy), b),

    def backward(self, indexes, grad_outputs):
        return ResizeImages(self.out_hw, self.mode,
                            self.align_corners).apply(grad_outputs)


def resize_images(x, output_shape, *, mode='bilinear', align_corners=True):
    """Resize images to the given shape.

    Args:
        x (~chainer.Variable or array): Images ``(N, C, H, W)`` (floating
            point).
        output_shape (tuple of 2 ints): ``(out_H, out_W)``.
        mode (str): ``'bilinear'`` or ``'nearest'`` (pixel ``floor(i * H /
            out_H)``; ``align_corners`` does not apply).
        align_corners (bool): Bilinear only: with True the corner pixels of
            input and output are aligned (output pixel ``i`` samples
            ``i * (H - 1) / (out_H - 1)``); with False pixel centres are
            (``(i + 0.5) * H / out_H - 0.5``, clamped to the image).

    Returns:
        ~chainer.Variable: The resized images ``(N, C, out_H, out_W)``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.array([[[[0., 1.]]]], np.float32)
    >>> F.resize_images(x, (1, 3)).array
    array([[[[0. , 0.5, 1. ]]]], dtype=float32)
    """
    if mode not in ('bilinear', 'nearest'):
        raise ValueError("resize_images: mode must be 'bilinear' or "
                         "'nearest', got {!r}".format(mode))
    if len(output_shape) != 2:
        raise ValueError('resize_images: output_shape must be (out_H, '
                         'out_W), got {!r}'.format(output_shape))
    return ResizeImages(output_shape, mode, align_corners).apply((x,))[0]
