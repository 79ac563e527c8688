"""MultiprocessParallelUpdater: one process per GPU, gradients summed with
NCCL. It needs CuPy with NCCL; chainer-ng does not run it (use
:class:`ParallelUpdater` for data parallelism in one process)."""

import numpy

from chainer.dataset import convert
from chainer.training.updaters import standard_updater


def _nccl_available():
    try:
        from chainer.backends import cuda
        if not cuda.available:
            return False
        from cupy.cuda import nccl  # NOQA
        return True
    except Exception:
        return False


class MultiprocessParallelUpdater(standard_updater.StandardUpdater):
    """Data-parallel updater with one worker process per GPU (NCCL).

    Args:
        iterators (list): One iterator per device.
        optimizer: The optimizer of the main model.
        converter: The converter.
        devices (list or dict): The GPUs to use.
        auto_new_epoch (bool): Call ``optimizer.new_epoch(auto=True)`` at
            each epoch's end.

    Raises:
        Exception: NCCL is not available (CuPy missing, no GPU, or CuPy
            built without NCCL); a plain Exception, as Chainer raises.
        RuntimeError: This build does not provide the multi-process
            updater.
    """

    def __init__(self, iterators, optimizer, converter=convert.concat_examples,
                 devices=None, auto_new_epoch=True):
        if not MultiprocessParallelUpdater.available():
            raise Exception(
                'NCCL is not enabled. MultiprocessParallelUpdater requires '
                'NCCL.\nPlease reinstall CuPy after you install NCCL.\n'
                '(see https://docs-cupy.chainer.org/en/latest/install.html)')
        raise RuntimeError(
            'MultiprocessParallelUpdater is not provided by chainer-ng; use '
            'chainer.training.updaters.ParallelUpdater (one process, several '
            'devices) instead')

    @staticmethod
    def available():
        """Whether CuPy with NCCL is usable."""
        return _nccl_available()


def size_num_grads(link):
    """``(total size, count)`` of the non-empty parameters of ``link``."""
    sizes = [p.size for p in link.params() if p.size]
    return sum(sizes), len(sizes)


def _nonempty_params(link):
    # sorted by name, so that every process lays them out alike
    return [p for _, p in sorted(link.namedparams()) if p.size]


def _gather(link, target):
    """The ``target`` ('data' or 'grad') arrays of the parameters, flattened
    into one float32 array (a missing gradient counts as zeros)."""
    xp = link.xp
    parts = []
    for param in _nonempty_params(link):
        a = getattr(param, target)
        parts.append(xp.zeros(param.size, numpy.float32) if a is None
                     else a.ravel().astype(numpy.float32))
    if not parts:
        return xp.zeros(0, numpy.float32)
    return xp.concatenate(parts)


def _scatter(link, array, target):
    """Writes back the slices of ``array`` made by :func:`_gather` (a
    missing array is created)."""
    offset = 0
    for param in _nonempty_params(link):
        piece = array[offset:offset + param.size].reshape(param.shape)
        offset += param.size
        a = getattr(param, target)
        if a is None:
            setattr(param, target, piece.astype(param.dtype))
        else:
            a[...] = piece


def _check_gpu(link, name):
    if link.xp is numpy:
        raise RuntimeError('{} works only on GPU.'.format(name))


def gather_grads(link):
    """The gradients of ``link``'s parameters in one float32 CuPy array
    (RuntimeError on the CPU)."""
    _check_gpu(link, 'gather_grads')
    return _gather(link, 'grad')


def gather_params(link):
    """The values of ``link``'s parameters in one float32 CuPy array
    (RuntimeError on the CPU)."""
    _check_gpu(link, 'Link.gather_params')
    return _gather(link, 'data')


def scatter_grads(link, array):
    """Puts the array made by :func:`gather_grads` back into the gradients.
    """
    _scatter(link, array, 'grad')


def scatter_params(link, array):
    """Puts the array made by :func:`gather_params` back into the values."""
    _scatter(link, array, 'data')
