"""The versions ``chainer.print_runtime_info()`` reports, in Chainer's
layout (``_get_runtime_info()`` gives the object; its ``str`` is the text)."""

import platform
import sys

import numpy


class _RuntimeInfo:

    def __init__(self):
        import chainer
        from chainer.backends import cuda
        self.chainer_version = chainer.__version__
        self.numpy_version = numpy.__version__
        self.platform_version = platform.platform()
        self.cupy_version = (
            cuda.cupy.__version__ if cuda.available else None)

    def __str__(self):
        lines = [
            'Platform: {}'.format(self.platform_version),
            'Chainer: {}'.format(self.chainer_version),
            'ChainerX: Not Available',
            'NumPy: {}'.format(self.numpy_version),
            'CuPy: {}'.format(self.cupy_version or 'Not Available'),
            'iDeep: Not Available',
        ]
        return ''.join(line + '\n' for line in lines)


def _get_runtime_info():
    return _RuntimeInfo()


def print_runtime_info(out=None):
    """Prints the versions of chainer-ng, NumPy and CuPy (to ``out``, a
    file-like object; the standard output by default)."""
    if out is None:
        out = sys.stdout
    out.write(str(_get_runtime_info()))
    if hasattr(out, 'flush'):
        out.flush()
