"""ProgressBar: a text progress bar of the whole training."""

import sys

from chainer.training import extension
from chainer.training.extensions import util


class _TrainerProgressBar(util.ProgressBar):

    def __init__(self, trainer, training_length, bar_length, out):
        super().__init__(out)
        self._trainer = trainer
        self._length, self._unit = training_length
        self._bar_length = bar_length
        self._speed = util._Speed()

    def get_lines(self):
        updater = self._trainer.updater
        iteration = updater.iteration
        epoch_detail = updater.epoch_detail
        length, unit = self._length, self._unit
        done = iteration if unit == 'iteration' else epoch_detail
        speed_t, speed_e = self._speed.update(iteration, epoch_detail)
        speed = speed_t if unit == 'iteration' else speed_e
        return [
            util._bar('     total', done / length, self._bar_length),
            util._bar('this epoch', epoch_detail % 1, self._bar_length),
            '{:10} iter, {} epoch / {} {}s\n'.format(
                iteration, updater.epoch, length, unit),
            '{:10.5g} iters/sec. Estimated time to finish: {}.\n'.format(
                speed_t, util._eta(length - done, speed)),
        ]


class _TqdmBar:
    """The same progress drawn by tqdm (when it is installed and the output
    is a terminal)."""

    def __init__(self, tqdm, trainer, training_length, out):
        self._trainer = trainer
        self._length, self._unit = training_length
        self._bar = tqdm(total=self._length, file=out, dynamic_ncols=True,
                         unit=('it' if self._unit == 'iteration'
                               else 'epoch'))

    def update(self):
        updater = self._trainer.updater
        done = updater.iteration if self._unit == 'iteration' \
            else updater.epoch_detail
        self._bar.n = done
        self._bar.set_postfix(epoch=updater.epoch, iter=updater.iteration,
                              refresh=False)
        self._bar.refresh()

    def close(self):
        self._bar.close()


def _tqdm_for(out):
    isatty = getattr(out, 'isatty', None)
    if isatty is None or not isatty():
        return None
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm


class ProgressBar(extension.Extension):
    """Shows the progress of training: a bar of the whole run, a bar of
    the current epoch, the iteration and epoch counts, the speed and the
    estimated time left.

    It writes Chainer's text bar (ANSI escapes move the cursor); on an
    interactive terminal with `tqdm <https://tqdm.github.io>`_ installed
    (``pip install tqdm``) it draws a tqdm bar instead.

    Args:
        training_length (tuple): ``(length, unit)`` of training, used only
            when the stop trigger has no ``get_training_length()`` (as in
            Chainer 7.8.1, whose bar always follows the stop trigger).
        update_interval (int): Redraw every this many iterations.
        bar_length (int): Accepted and stored; like Chainer 7.8.1, the
            bars are 50 characters wide.
        out: Accepted and stored for compatibility; like Chainer 7.8.1,
            the bar is drawn on ``sys.stdout`` as it was when the
            ProgressBar was made, not on this stream.
    """

    def __init__(self, training_length=None, update_interval=100,
                 bar_length=50, out=sys.stdout):
        self._training_length = training_length
        if update_interval <= 0:
            raise ValueError('update_interval must be positive, got '
                             '{}'.format(update_interval))
        self._update_interval = update_interval
        self._bar_length = bar_length
        self._out = out
        # Chainer 7.8.1 draws on the sys.stdout of this moment, whatever
        # ``out`` says; programs recorded under it print the bar there.
        self._stdout = sys.stdout
        self._pbar = None

    def __call__(self, trainer):
        if self._pbar is None:
            # Chainer 7.8.1's bar takes the stop trigger's length and 50
            # characters whatever training_length and bar_length say; only
            # a trigger without a length falls back to training_length
            length = self._training_length
            get_length = getattr(trainer.stop_trigger,
                                 'get_training_length', None)
            if get_length is not None:
                length = get_length()
            elif length is None:
                raise TypeError(
                    'ProgressBar: the stop trigger has no '
                    'get_training_length(); give training_length='
                    '(length, unit)')
            out = self._stdout
            tqdm = _tqdm_for(out)
            if tqdm is not None:
                self._pbar = _TqdmBar(tqdm, trainer, length, out)
            else:
                self._pbar = _TrainerProgressBar(trainer, length, 50, out)
        if trainer.updater.iteration % self._update_interval == 0:
            self._pbar.update()

    def finalize(self):
        if self._pbar is not None:
            self._pbar.close()
        else:
            # Chainer erases the bar even when none was drawn (training
            # that failed or ended before its first iteration).
            util._erase(self._stdout)
            if hasattr(self._stdout, 'flush'):
                self._stdout.flush()
