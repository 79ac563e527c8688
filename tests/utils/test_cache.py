import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils import cache


class _Model:

    def __init__(self, x):
        self.x = x
        self.calls = 0

    @cache.cached_property
    def y(self):
        self.calls += 1
        return F.sigmoid(self.x)


def test_cached_property_computes_once_per_backprop_mode():
    obj = _Model(chainer.Variable(numpy.array([2., 3.], numpy.float32)))
    assert obj.y is obj.y
    assert obj.calls == 1
    with chainer.no_backprop_mode():
        y = obj.y
        assert obj.y is y
    assert obj.calls == 2
    assert y.creator is None
    assert obj.y.creator is not None
    assert obj.calls == 2


def test_cached_property_is_read_only():
    obj = _Model(numpy.zeros(1, numpy.float32))
    with pytest.raises(AttributeError):
        obj.y = 3
    assert isinstance(_Model.y, cache.cached_property)


def test_cached_property_keeps_the_getters_name_and_doc():
    class C:
        @cache.cached_property
        def y(self):
            """The y."""
            return 1

    assert C.y.__name__ == 'y' and C.y.__doc__ == 'The y.'
