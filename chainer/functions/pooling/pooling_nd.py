"""Chainer's module of the N-d pooling base: ``_PoolingND`` names the class
the pooling nodes here share (their ``ndim``, ``ksize``, ``stride``,
``pad`` and ``cover_all``)."""

from chainer.functions.pooling.max_pooling_nd import _PoolGeometry as _PoolingND  # NOQA
