"""PrintHook: prints what each function receives."""

import sys
import warnings

from chainer import backend
from chainer import function_hook
from chainer import variable


class PrintHook(function_hook.FunctionHook):
    """Function hook printing the inputs of each function (and, in
    backward, its output gradients): for each, a summary of the device,
    shape, dtype and statistics (see :meth:`chainer.Variable.debug_print`).
    In backward, each input the function did not retain shows as
    ``(removed)``.

    Args:
        sep: Deprecated and ignored.
        end (str): Printed after each item.
        file: Where to print (default: the current ``sys.stdout``).
        flush (bool): Flush ``file`` after each function.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> from chainer.function_hooks import PrintHook
    >>> with PrintHook():
    ...     y = F.exp(np.ones(3, np.float32))
    ... # doctest: +ELLIPSIS, +NORMALIZE_WHITESPACE
    function	exp
    input data
    <variable at 0x...>
    ...
    """

    name = 'PrintHook'

    def __init__(self, sep=None, end='\n', file=None, flush=True):
        if sep is not None:
            warnings.warn('sep argument in chainer.function_hooks.PrintHook '
                          'is deprecated.', DeprecationWarning)
        self.sep = sep
        self.end = end
        self.file = file
        self.flush = flush

    def _print(self, msg):
        file = self.file if self.file is not None else sys.stdout
        file.write(msg + self.end)

    def _process(self, function, in_data, out_grad=None):
        self._print('function\t{}'.format(function.label))
        self._print('input data')
        for x in in_data:
            if x is None:
                self._print('(removed)')
            else:
                self._print(variable.Variable(x).debug_print())
        if out_grad is not None:
            self._print('output gradient')
            for gy in out_grad:
                if gy is None:
                    v = variable.Variable(None)
                else:
                    xp = backend.get_array_module(gy)
                    v = variable.Variable(xp.zeros_like(gy))
                    v.grad = gy
                self._print(v.debug_print())
        if self.flush:
            file = self.file if self.file is not None else sys.stdout
            if hasattr(file, 'flush'):
                file.flush()

    def forward_preprocess(self, function, in_data):
        self._process(function, in_data)

    def backward_preprocess(self, function, in_data, out_grad):
        self._process(function, in_data, out_grad)
