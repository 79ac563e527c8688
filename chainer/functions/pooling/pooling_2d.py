"""Chainer's module of the 2-D pooling base: ``Pooling2D`` names the class
the 2-D pooling nodes here share (average pooling, unpooling, upsampling,
with Chainer's ``kh``/``sy``/``ph`` attribute names)."""

from chainer.functions.pooling.max_pooling_nd import _Names2D as Pooling2D  # NOQA
