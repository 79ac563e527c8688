"""CupyMemoryProfileHook: the GPU memory each function takes (needs
CuPy)."""

import collections
import sys

from chainer import function_hook

_UNITS = (('GB', 1024 ** 3), ('MB', 1024 ** 2), ('KB', 1024), ('B', 1))


def _require_cupy(who):
    from chainer.backends import cuda
    cuda.check_cuda_available()   # Chainer's words
    return cuda.cupy


def _choose_unit(nbytes):
    for name, scale in _UNITS:
        if nbytes >= scale:
            return name, scale
    return _UNITS[-1]


class CupyMemoryProfileHook(function_hook.FunctionHook):
    """Function hook measuring the memory that CuPy's memory pool hands out
    ("used") and allocates from the device ("acquired") in each function's
    forward and backward.

    Raises RuntimeError when created without CuPy.

    Attributes:
        call_history (list): ``(function class name, used bytes, acquired
            bytes)`` per call.
    """

    name = 'CupyMemoryProfileHook'

    def __init__(self):
        cupy = _require_cupy('CupyMemoryProfileHook')
        self._memory_pool = cupy.get_default_memory_pool()
        self.call_history = []
        self._running_stack = []
        self._total_used_bytes = 0
        self._total_acquired_bytes = 0

    def _preprocess(self):
        pool = self._memory_pool
        self._running_stack.append((pool.used_bytes(), pool.total_bytes()))

    def _postprocess(self, function):
        from chainer.function_hooks.timer import _impl_name
        used0, acquired0 = self._running_stack.pop()
        pool = self._memory_pool
        used = pool.used_bytes() - used0
        acquired = pool.total_bytes() - acquired0
        # Nested calls are part of the outer call: count them once.
        if not self._running_stack:
            self._total_used_bytes += used
            self._total_acquired_bytes += acquired
        self.call_history.append((_impl_name(function), used, acquired))

    def forward_preprocess(self, function, in_data):
        self._preprocess()

    def forward_postprocess(self, function, in_data):
        self._postprocess(function)

    def backward_preprocess(self, function, in_data, out_grad):
        self._preprocess()

    def backward_postprocess(self, function, in_data, out_grad):
        self._postprocess(function)

    def total_used_bytes(self):
        """The bytes taken from the pool by the outermost calls."""
        return self._total_used_bytes

    def total_acquired_bytes(self):
        """The bytes the pool allocated from the device in those calls."""
        return self._total_acquired_bytes

    def summary(self):
        """An OrderedDict ``name -> {'used_bytes', 'acquired_bytes',
        'occurrence'}``."""
        summary = collections.OrderedDict()
        for name, used, acquired in self.call_history:
            record = summary.setdefault(
                name, {'used_bytes': 0, 'acquired_bytes': 0,
                       'occurrence': 0})
            record['used_bytes'] += used
            record['acquired_bytes'] += acquired
            record['occurrence'] += 1
        return summary

    def print_report(self, unit='auto', file=None):
        """Prints the summary as a table.

        Args:
            unit (str): ``'B'``, ``'KB'``, ``'MB'``, ``'GB'``, ``'auto'``
                (one unit fitting the largest value) or ``'auto_foreach'``.
            file: Where to print (default: ``sys.stdout``).
        """
        file = file if file is not None else sys.stdout
        scales = dict(_UNITS)
        summary = self.summary()
        if unit not in scales and unit not in ('auto', 'auto_foreach'):
            raise KeyError(unit)   # as Chainer's table lookup
        if unit == 'auto':
            largest = max([max(r['used_bytes'], r['acquired_bytes'])
                           for r in summary.values()] + [0])
            unit = _choose_unit(largest)[0]

        def fmt(nbytes):
            u, scale = (_choose_unit(nbytes) if unit == 'auto_foreach'
                        else (unit, scales[unit]))
            return '{:.2f}{}'.format(nbytes / scale, u)

        rows = [(name, fmt(r['used_bytes']), fmt(r['acquired_bytes']),
                 str(r['occurrence'])) for name, r in summary.items()]
        header = ('FunctionName', 'UsedBytes', 'AcquiredBytes', 'Occurrence')
        widths = [max([len(header[i])] + [len(r[i]) for r in rows])
                  for i in range(4)]
        for row in [header] + rows:
            file.write('  '.join(c.rjust(w) for c, w in zip(row, widths)) +
                       '\n')
