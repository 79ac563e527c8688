"""Warnings of Chainer."""


class PerformanceWarning(RuntimeWarning):
    """A computation is done in a way that is known to be slow."""
