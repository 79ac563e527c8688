"""Conditions for the ``:skipif:`` option of Sphinx's doctest blocks
(Chainer's documentation imports this module in its doctest setup)."""

from chainer.testing import attr
from chainer.testing import helper

# Read once, at import, as Chainer does; -1 (the default) means no limit.
_gpu_limit = attr._gpu_limit()


def skipif(condition):
    """Returns ``condition`` unchanged: a name that reads well in a
    ``:skipif:`` line.

    >>> from chainer.testing import doctest_helper
    >>> doctest_helper.skipif(False)
    False
    """
    return condition


def skipif_requires_satisfied(*requirements):
    """Whether every requirement (``'numpy>=1.16'``, ``'Theano'``) is
    satisfied by the installed distributions: skip a block that shows what
    happens without them.

    >>> from chainer.testing import doctest_helper
    >>> doctest_helper.skipif_requires_satisfied('numpy')
    True
    """
    return all(helper._satisfied(r) for r in requirements)


def skipif_not_enough_cuda_devices(device_count):
    """Whether ``CHAINER_TEST_GPU_LIMIT`` (when set, >= 0) allows fewer than
    ``device_count`` GPUs. Unset, it never skips.

    >>> from chainer.testing import doctest_helper
    >>> doctest_helper.skipif_not_enough_cuda_devices(2)  # doctest: +SKIP
    False
    """
    return 0 <= _gpu_limit < device_count
