"""MultiprocessParallelUpdater: one process per GPU, gradients summed with
NCCL. It needs CuPy with NCCL; chainer-ng does not run it (use
:class:`ParallelUpdater` for data parallelism in one process)."""

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
        RuntimeError: NCCL is not available (CuPy missing, no GPU, or CuPy
            built without NCCL), or this build does not provide the
            multi-process updater.
    """

    def __init__(self, iterators, optimizer, converter=convert.concat_examples,
                 devices=None, auto_new_epoch=True):
        if not MultiprocessParallelUpdater.available():
            raise RuntimeError(
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
