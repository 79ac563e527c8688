"""The optional C loops of chainer-ng (``chainer.utils._loops``).

Everything else is in pyproject.toml.  Where no C compiler is at hand the
build skips the extension and chainer runs on NumPy alone, with the same
results.
"""

from setuptools import Extension, setup

setup(ext_modules=[
    Extension('chainer.utils._loops', ['chainer/utils/_loops.c'],
              optional=True),
])
