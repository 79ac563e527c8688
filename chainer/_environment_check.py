"""Checks of the environment made once, at ``import chainer``."""

import numpy


def check():
    """Raises ImportError where NumPy is too old for chainer-ng."""
    major, minor = (int(v) for v in numpy.__version__.split('.')[:2])
    if (major, minor) < (1, 24):
        raise ImportError(
            'chainer-ng needs NumPy 1.24 or newer; NumPy {} is '
            'installed'.format(numpy.__version__))
