"""PickleDataset: a file holding one pickle per example.

Security: reading such a file *unpickles* it, which can run arbitrary code.
Only open pickle datasets that you (or someone you trust) wrote.
"""

import io
import multiprocessing.util
import pickle
import threading

from chainer.dataset import dataset_mixin


class PickleDatasetWriter:
    """Writes examples one after another as pickles to a binary file.

    Args:
        writer: A file object opened for binary writing.
        protocol (int): The pickle protocol.
    """

    def __init__(self, writer, protocol=pickle.HIGHEST_PROTOCOL):
        self._writer = writer
        self._protocol = protocol

    def close(self):
        self._writer.close()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.close()

    def write(self, x):
        """Appends one example."""
        pickle.dump(x, self._writer, protocol=self._protocol)

    def flush(self):
        self._writer.flush()


class PickleDataset(dataset_mixin.DatasetMixin):
    """A dataset whose examples are the pickles stored in a file.

    The constructor reads the whole file once (unpickling every example)
    to index where each one starts; an example is unpickled again when it
    is accessed. **Only open files from a trusted source**: unpickling can
    run arbitrary code.

    In a child process started by :mod:`multiprocessing` (as by
    :class:`MultiprocessIterator`), the reader's ``after_fork()`` is called
    (the file of :func:`open_pickle_dataset` reopens itself there), so that
    the processes do not share a file position. The dataset pickles with
    its reader; a plain file object is reopened by name.

    Args:
        reader: A seekable file object opened for binary reading.
    """

    def __init__(self, reader):
        if hasattr(reader, 'seekable') and not reader.seekable():
            raise ValueError('reader must support random access')
        self._reader = reader
        positions = []
        reader.seek(0)
        while True:
            position = reader.tell()
            try:
                pickle.load(reader)
            except EOFError:
                break
            positions.append(position)
        self._positions = positions
        self._lock = threading.RLock()
        self._register_hook()

    def _register_hook(self):
        # kept weakly by multiprocessing, run in its children after a fork
        multiprocessing.util.register_after_fork(
            self, PickleDataset._after_fork)

    def _after_fork(self):
        after_fork = getattr(self._reader, 'after_fork', None)
        if callable(after_fork):
            after_fork()
        elif isinstance(self._reader, io.BufferedReader) and \
                isinstance(getattr(self._reader, 'name', None), str):
            # a plain file: its own handle, not the parent's position
            self._reader = open(self._reader.name, 'rb')

    def __getstate__(self):
        state = self.__dict__.copy()
        del state['_lock']
        reader = self._reader
        if isinstance(reader, io.BufferedReader) and \
                isinstance(getattr(reader, 'name', None), str):
            state['_reader'] = _FileReader(reader.name)
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._lock = threading.RLock()
        self._register_hook()

    def close(self):
        """Closes the file."""
        with self._lock:
            self._reader.close()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.close()

    def __len__(self):
        return len(self._positions)

    def get_example(self, index):
        with self._lock:
            self._reader.seek(self._positions[index])
            return pickle.load(self._reader)


class _FileReader:
    """A file opened by path for reading, which reopens itself in a forked
    child (``after_fork``) and when unpickled, so that no two processes
    share one file position."""

    def __init__(self, path):
        self._path = path
        self._fp = open(path, 'rb')

    def after_fork(self):
        self._fp.close()
        self._fp = open(self._path, 'rb')

    def __getstate__(self):
        return {'_path': self._path}

    def __setstate__(self, state):
        self.__init__(state['_path'])

    def close(self):
        self._fp.close()

    def seekable(self):
        return True

    def seek(self, offset, whence=io.SEEK_SET):
        return self._fp.seek(offset, whence)

    def tell(self):
        return self._fp.tell()

    def read(self, size=-1):
        return self._fp.read(size)

    def readinto(self, b):
        return self._fp.readinto(b)

    def readline(self, size=-1):
        return self._fp.readline(size)

    def peek(self, size=0):
        return self._fp.peek(size)


def open_pickle_dataset(path):
    """Opens a :class:`PickleDataset` stored at ``path`` (use it in a
    ``with`` block, or call ``close()``). Unpickles the file: only open
    trusted files."""
    return PickleDataset(_FileReader(path))


def open_pickle_dataset_writer(path, protocol=pickle.HIGHEST_PROTOCOL):
    """Opens a :class:`PickleDatasetWriter` that writes to ``path``."""
    return PickleDatasetWriter(open(path, 'wb'), protocol=protocol)
