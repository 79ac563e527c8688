"""TextDataset: the lines of text files, read on access."""

import io
import os
import threading

from chainer.dataset import dataset_mixin


class TextDataset(dataset_mixin.DatasetMixin):
    """A dataset whose examples are the lines of text files.

    The files are scanned once to index the line offsets; a line is read
    from disk when it is accessed. Lines keep their line terminator.

    The files stay open until :meth:`close` (after which reading raises
    ValueError); a process forked from this one opens its own.

    Args:
        paths (str or list of str): One file (examples are strings) or
            several files with the same number of lines (examples are
            tuples of strings, one from each file).
        encoding, errors, newline: As in :func:`open` (a single value, or
            one per file).
        filter_func (callable): If given, only the lines (or tuples of
            lines, passed as separate arguments) for which it returns true
            are kept.
    """

    def __init__(self, paths, encoding=None, errors=None, newline=None,
                 filter_func=None):
        paths = [paths] if isinstance(paths, str) else list(paths)
        if not paths:
            raise ValueError('at least one text file must be specified')
        n = len(paths)

        def per_file(value):
            return list(value) if isinstance(value, (list, tuple)) \
                else [value] * n

        self._paths = paths
        self._encoding = per_file(encoding)
        self._errors = per_file(errors)
        self._newline = per_file(newline)
        self._lock = threading.Lock()
        self._closed = False
        files = self._open_files()
        try:
            offsets = []
            while True:
                positions = [f.tell() for f in files]
                lines = [f.readline() for f in files]
                ended = [line == '' for line in lines]
                if all(ended):
                    break
                if any(ended):
                    raise ValueError(
                        'number of lines in files does not match')
                if filter_func is None or filter_func(*lines):
                    offsets.append(positions)
        except BaseException:
            for f in files:
                f.close()
            raise
        self._offsets = offsets
        self._fps = files
        self._pid = os.getpid()

    def _open_files(self):
        return [io.open(p, 'r', encoding=e, errors=r, newline=nl)
                for p, e, r, nl in zip(self._paths, self._encoding,
                                       self._errors, self._newline)]

    def __getstate__(self):
        state = self.__dict__.copy()
        state['_fps'] = None
        state['_pid'] = None
        state['_lock'] = None
        return state

    def __setstate__(self, state):
        self.__dict__ = state
        self._lock = threading.Lock()

    def __len__(self):
        return len(self._offsets)

    def close(self):
        """Closes the files; each is closed even if closing another one
        fails (the last error is raised)."""
        self._closed = True
        error = None
        for f in self._fps or ():
            try:
                f.close()
            except Exception as e:
                error = e
        if error is not None:
            raise error

    def __del__(self):
        # quietly, like a file object dropped without close()
        for f in getattr(self, '_fps', None) or ():
            try:
                f.close()
            except Exception:
                pass

    def get_example(self, idx):
        if idx < 0:
            idx += len(self._offsets)
        if not 0 <= idx < len(self._offsets):
            raise IndexError('TextDataset: index out of range')
        with self._lock:
            if self._closed:
                raise ValueError('I/O operation on closed file.')
            if self._fps is None or self._pid != os.getpid():
                self._fps = self._open_files()
                self._pid = os.getpid()
            lines = []
            for f, pos in zip(self._fps, self._offsets[idx]):
                f.seek(pos)
                lines.append(f.readline())
        return lines[0] if len(lines) == 1 else tuple(lines)
