"""``chainer.testing``: helpers for testing Chainer code."""

from chainer.testing.array import assert_allclose  # NOQA
