"""TimerHook: the time each function takes."""

import collections
import sys
import time

import numpy

from chainer import backend
from chainer import function_hook

# Units of print_report, largest first: (name, seconds per unit).
_UNITS = (('sec', 1.0), ('ms', 1e-3), ('us', 1e-6), ('ns', 1e-9))


def _impl_name(function):
    """The class name of a function node (of the legacy Function for an
    adapter)."""
    return function._impl_name


def _choose_unit(seconds):
    for name, scale in _UNITS:
        if seconds >= scale:
            return name, scale
    return _UNITS[-1]


def _print_report(summary, unit, file, name_header):
    """Prints a table of ``summary`` (name -> {'elapsed_time',
    'occurrence'}); ``unit`` is one of 'sec', 'ms', 'us', 'ns', 'auto' (one
    unit fitting the largest time) or 'auto_foreach' (one per row)."""
    scales = dict(_UNITS)
    if unit not in scales and unit not in ('auto', 'auto_foreach'):
        raise KeyError(unit)   # as Chainer's table lookup
    if unit == 'auto':
        longest = max((r['elapsed_time'] for r in summary.values()),
                      default=0.)
        unit = _choose_unit(longest)[0]
    rows = []
    for name, record in summary.items():
        seconds = record['elapsed_time']
        if unit == 'auto_foreach':
            u, scale = _choose_unit(seconds)
        else:
            u, scale = unit, scales[unit]
        rows.append((name, '{:.2f}{}'.format(seconds / scale, u),
                     str(record['occurrence'])))
    header = (name_header, 'ElapsedTime', 'Occurrence')
    widths = [max([len(header[i])] + [len(r[i]) for r in rows])
              for i in range(3)]
    for row in [header] + rows:
        file.write('  '.join(c.rjust(w) for c, w in zip(row, widths)) + '\n')
    if hasattr(file, 'flush'):
        file.flush()


class _Timer:
    """The timing shared by the function and link timer hooks: a stack of
    start times (calls nest), a history of (name, seconds), and the total
    of the outermost calls."""

    # Units of print_report: name -> ticks per second.
    table = {'sec': 1, 'ms': 10 ** 3, 'us': 10 ** 6, 'ns': 10 ** 9}

    def _init_timer(self):
        self.call_history = []
        self._running_stack = []
        self._depth = 0
        self._total_time = 0
        self.xp = None

    def _preprocess(self, xp):
        self.xp = xp
        if xp is not None and xp is not numpy:
            from chainer.backends import cuda
            start = cuda.cupy.cuda.Event()
            stop = cuda.cupy.cuda.Event()
            start.record()
            self._running_stack.append((start, stop))
        else:
            self._running_stack.append(time.perf_counter())
        self._depth += 1

    def _postprocess(self, name):
        start = self._running_stack.pop()
        if isinstance(start, tuple):
            from chainer.backends import cuda
            start, stop = start
            stop.record()
            stop.synchronize()
            # get_elapsed_time is in milliseconds.
            elapsed = cuda.cupy.cuda.get_elapsed_time(start, stop) * 1e-3
        else:
            elapsed = time.perf_counter() - start
        self.call_history.append((name, elapsed))
        self._depth -= 1
        if self._depth == 0:
            self._total_time += elapsed

    def total_time(self):
        """The total time (seconds) of the outermost timed calls."""
        return self._total_time

    def summary(self):
        """An OrderedDict ``name -> {'elapsed_time': seconds,
        'occurrence': count}``, in the order names first appear."""
        summary = collections.OrderedDict()
        for name, elapsed in self.call_history:
            record = summary.setdefault(
                name, {'elapsed_time': 0, 'occurrence': 0})
            record['elapsed_time'] += elapsed
            record['occurrence'] += 1
        return summary


class TimerHook(_Timer, function_hook.FunctionHook):
    """Function hook measuring the elapsed time of each function (forward
    and backward).

    On a GPU it times with CUDA events; on the CPU with
    :func:`time.perf_counter`. Calls nested in another (the functions a
    backward runs) are recorded too, but :meth:`total_time` counts only the
    outermost ones.

    Attributes:
        call_history (list): ``(function class name, seconds)`` per call.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> from chainer.function_hooks import TimerHook
    >>> with TimerHook() as hook:
    ...     y = F.exp(np.ones(3, np.float32))
    >>> hook.print_report()  # doctest: +SKIP
    FunctionName  ElapsedTime  Occurrence
             Exp      12.34us           1
    """

    name = 'TimerHook'

    def __init__(self):
        self._init_timer()

    def forward_preprocess(self, function, in_data):
        self._preprocess(backend.get_array_module(*in_data))

    def forward_postprocess(self, function, in_data):
        self._postprocess(_impl_name(function))

    def backward_preprocess(self, function, in_data, out_grad):
        self._preprocess(backend.get_array_module(*(in_data + out_grad)))

    def backward_postprocess(self, function, in_data, out_grad):
        self._postprocess(_impl_name(function))

    def summary(self):
        """A dict ``function class name -> {'elapsed_time': seconds,
        'occurrence': count}``, in the order names first appear."""
        return dict(super().summary())

    def print_report(self, unit='auto', file=None):
        """Prints the summary as a table.

        Args:
            unit (str): ``'sec'``, ``'ms'``, ``'us'``, ``'ns'``, ``'auto'``
                (one unit, fitting the longest time) or ``'auto_foreach'``
                (a unit per row).
            file: Where to print (default: the current ``sys.stdout``).
        """
        _print_report(self.summary(), unit, file or sys.stdout,
                      'FunctionName')
