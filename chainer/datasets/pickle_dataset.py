"""PickleDataset: a file holding one pickle per example.

Security: reading such a file *unpickles* it, which can run arbitrary code.
Only open pickle datasets that you (or someone you trust) wrote.
"""

import os
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

    In a process forked after construction (as by
    :class:`MultiprocessIterator`), the file is reopened by name so that the
    processes do not share a file position.

    Args:
        reader: A seekable file object opened for binary reading.
    """

    def __init__(self, reader):
        self._reader = reader
        self._lock = threading.Lock()
        self._pid = os.getpid()
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

    def __getstate__(self):
        state = self.__dict__.copy()
        state['_lock'] = None
        state['_reader'] = getattr(self._reader, 'name', None)
        return state

    def __setstate__(self, state):
        self.__dict__ = state
        self._lock = threading.Lock()
        if isinstance(self._reader, str):
            self._reader = open(self._reader, 'rb')
        self._pid = os.getpid()

    def close(self):
        """Closes the file."""
        self._reader.close()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.close()

    def __len__(self):
        return len(self._positions)

    def get_example(self, index):
        with self._lock:
            if self._pid != os.getpid():
                name = getattr(self._reader, 'name', None)
                if isinstance(name, str):
                    self._reader = open(name, 'rb')
                self._pid = os.getpid()
            self._reader.seek(self._positions[index])
            return pickle.load(self._reader)


def open_pickle_dataset(path):
    """Opens a :class:`PickleDataset` stored at ``path`` (use it in a
    ``with`` block, or call ``close()``). Unpickles the file: only open
    trusted files."""
    return PickleDataset(open(path, 'rb'))


def open_pickle_dataset_writer(path, protocol=pickle.HIGHEST_PROTOCOL):
    """Opens a :class:`PickleDatasetWriter` that writes to ``path``."""
    return PickleDatasetWriter(open(path, 'wb'), protocol=protocol)
