"""Text progress bars shared by ProgressBar and Evaluator.

The text format is Chainer's: each update erases the previous bar with
``ESC[J``, writes the bar lines, and moves the cursor back up with
``ESC[<n>A``; closing erases the last bar.
"""

import collections
import datetime
import sys
import time


def _erase(out):
    out.write('\033[J')


def _bar(label, rate, length):
    marks = max(0, min(length, int(rate * length)))
    return '{} [{}{}] {:6.2%}\n'.format(label, '#' * marks,
                                        '.' * (length - marks), rate)


class _Speed:
    """The speed over the recent updates (oldest kept sample to now)."""

    def __init__(self, window=100):
        self._samples = collections.deque(maxlen=window)

    def update(self, *counts):
        now = time.time()
        self._samples.append((counts, now))
        old, then = self._samples[0]
        span = now - then
        if span == 0:
            return tuple(float('inf') for _ in counts)
        return tuple((c - o) / span for c, o in zip(counts, old))


def _eta(remaining, speed):
    seconds = max(0.0, remaining / speed) if speed else 0.0
    try:
        return datetime.timedelta(seconds=seconds)
    except (OverflowError, ValueError):
        return datetime.timedelta(seconds=0)


class ProgressBar:
    """A text progress bar drawn by :meth:`update` (override
    :meth:`get_lines`), erased by :meth:`close`."""

    def __init__(self, out):
        self._out = out

    def get_lines(self):
        raise NotImplementedError

    def update(self):
        lines = self.get_lines()
        out = self._out
        _erase(out)
        for line in lines:
            out.write(line)
        out.write('\033[{:d}A'.format(len(lines)))
        if hasattr(out, 'flush'):
            out.flush()

    def close(self):
        _erase(self._out)
        if hasattr(self._out, 'flush'):
            self._out.flush()


class IteratorProgressBar(ProgressBar):
    """The bar of one pass over an iterator (used by Evaluator)."""

    def __init__(self, iterator, title='validation', bar_length=50, out=None):
        super().__init__(out if out is not None else sys.stdout)
        self._iterator = iterator
        self._title = title
        self._bar_length = bar_length
        self._speed = _Speed()

    def get_lines(self):
        it = self._iterator
        position = it.current_position
        total = len(it.dataset)
        rate = it.epoch_detail
        speed, speed_epoch = self._speed.update(position, rate)
        return [
            _bar(self._title, rate, self._bar_length),
            '{:10} / {} iterations\n'.format(position, total),
            '{:10.5g} iters/sec. Estimated time to finish: {}.\n'.format(
                speed, _eta(1 - rate, speed_epoch)),
        ]
