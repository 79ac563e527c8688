"""TimerHook: the time each link's forward takes."""

import sys

from chainer import link_hook
from chainer.function_hooks import timer as _timer


class TimerHook(_timer._Timer, link_hook.LinkHook):
    """Link hook measuring the elapsed time of the forward of each link.

    Links nested in a chain are timed too; :meth:`total_time` counts only
    the outermost calls. On a GPU it times with CUDA events.

    Attributes:
        call_history (list): ``(link class name, seconds)`` per call.

    >>> import numpy as np
    >>> import chainer.links as L
    >>> from chainer.link_hooks import TimerHook
    >>> with TimerHook() as hook:
    ...     y = L.Linear(3, 2)(np.ones((1, 3), np.float32))
    >>> hook.print_report()  # doctest: +SKIP
    LinkName  ElapsedTime  Occurrence
      Linear     123.45us           1
    """

    name = 'TimerHook'

    def __init__(self):
        self._init_timer()

    def forward_preprocess(self, args):
        self._preprocess(args.link.device.xp)

    def forward_postprocess(self, args):
        self._postprocess(type(args.link).__name__)

    def print_report(self, unit='auto', file=None):
        """Prints the summary as a table (``unit`` as for
        :meth:`chainer.function_hooks.TimerHook.print_report`)."""
        _timer._print_report(self.summary(), unit, file or sys.stdout,
                             'LinkName')
