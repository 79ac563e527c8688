"""The base class of dataset iterators."""


class Iterator:
    """The base class of dataset iterators.

    An iterator returns minibatches (lists of examples) from ``next()``.
    Implementations also provide ``epoch``, ``epoch_detail``,
    ``previous_epoch_detail``, ``is_new_epoch`` and ``serialize``. Use an
    iterator as a context manager (or call :meth:`finalize`) to release
    its resources (worker threads or processes).
    """

    def __iter__(self):
        return self

    def __next__(self):
        raise NotImplementedError

    def next(self):
        """Returns the next minibatch (same as ``next(iterator)``)."""
        return self.__next__()

    def finalize(self):
        """Releases the resources held by the iterator (a no-op here)."""

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.finalize()

    def __del__(self):
        try:
            self.finalize()
        except Exception:
            pass

    def serialize(self, serializer):
        """Saves or loads the iterator's state (a no-op here)."""
