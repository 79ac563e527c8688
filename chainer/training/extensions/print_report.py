"""PrintReport: prints the entries of a LogReport as a table."""

import sys

from chainer.training import extension
from chainer.training.extensions import log_report as log_report_module


def _format(value, width):
    try:
        return '{:<{}g}  '.format(value, width)
    except (TypeError, ValueError):  # not a number: print it as text
        return '{:<{}}  '.format(str(value), width)


class PrintReport(extension.Extension):
    """Prints the chosen entries of the log, one line per log entry, under
    a header line. Each column is as wide as its name (at least 10
    characters) plus two spaces; numbers use ``'g'`` formatting; a missing
    entry prints blank.

    Args:
        entries (list of str): The log keys to print (``'epoch'``,
            ``'main/loss'``, ...).
        log_report (str or LogReport): The LogReport to read (by name, as
            registered in the trainer, or the object, which this extension
            then calls itself).
        out: The stream written to (``sys.stdout`` by default).
    """

    def __init__(self, entries, log_report='LogReport', out=sys.stdout):
        self._entries = list(entries)
        self._log_report = log_report
        self._out = out
        self._log_len = 0
        self._widths = [max(10, len(e)) for e in self._entries]
        self._header = '  '.join(
            e.ljust(w) for e, w in zip(self._entries, self._widths)) + '\n'

    def __call__(self, trainer):
        out = self._out
        if self._header:
            out.write(self._header)
            self._header = None
        log_report = self._log_report
        if isinstance(log_report, str):
            log_report = trainer.get_extension(log_report)
        elif isinstance(log_report, log_report_module.LogReport):
            log_report(trainer)
        else:
            raise TypeError('log report has a wrong type {}'.format(
                type(log_report)))
        log = log_report.log
        while len(log) > self._log_len:
            out.write('\033[J')
            self._print(log[self._log_len])
            self._log_len += 1

    def _print(self, observation):
        out = self._out
        for entry, width in zip(self._entries, self._widths):
            if entry in observation:
                out.write(_format(observation[entry], width))
            else:
                out.write(' ' * (width + 2))
        out.write('\n')
        if hasattr(out, 'flush'):
            out.flush()

    def serialize(self, serializer):
        if isinstance(self._log_report, log_report_module.LogReport):
            self._log_report.serialize(serializer['_log_report'])
