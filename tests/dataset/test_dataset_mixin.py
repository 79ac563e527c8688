import numpy
import pytest

from chainer.dataset import DatasetMixin, Iterator


class Squares(DatasetMixin):

    def __len__(self):
        return 5

    def get_example(self, i):
        if not -5 <= i < 5:
            raise IndexError(i)
        return i * i


def test_indexing():
    d = Squares()
    assert d[2] == 4
    assert d[1:4] == [1, 4, 9]
    assert d[::-2] == [16, 4, 0]
    assert d[[0, 3]] == [0, 9]
    assert d[numpy.array([4, 1])] == [16, 1]
    with pytest.raises(IndexError):
        d[numpy.zeros((1, 1), int)]


def test_abstract():
    with pytest.raises(NotImplementedError):
        len(DatasetMixin())
    with pytest.raises(NotImplementedError):
        DatasetMixin().get_example(0)


def test_iterator_base():
    class Count(Iterator):
        def __init__(self):
            self.n = 0
            self.finalized = 0

        def __next__(self):
            self.n += 1
            return self.n

        def finalize(self):
            self.finalized += 1

    with Count() as it:
        assert iter(it) is it
        assert it.next() == 1 and next(it) == 2
    assert it.finalized == 1
    with pytest.raises(NotImplementedError):
        next(Iterator())
