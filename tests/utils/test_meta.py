import warnings

import numpy
import pytest

from chainer import utils
from chainer.utils import error


def test_final_method_cannot_be_overridden():
    Base = utils.enable_final()

    class A(Base):
        @utils.final
        def f(self):
            return 1

        @utils.final(action=DeprecationWarning)
        def g(self):
            return 2

    with pytest.raises(TypeError, match="method 'f' is final"):
        class B(A):
            def f(self):
                return 3

    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')

        class C(A):
            def g(self):
                return 4
    assert issubclass(w[0].category, DeprecationWarning)
    assert C().g() == 4 and C().f() == 1


def test_enable_final_with_bases():
    class Mixin:
        def h(self):
            return 'h'

    Base = utils.enable_final(base=Mixin, meta_base=type)
    assert issubclass(Base, Mixin)


def test_format_array_props():
    arrays = [numpy.zeros((2, 3), numpy.float32), numpy.int32(3), None]
    assert error._format_array_props(arrays) == \
        '(2, 3):float32, ():int32, None'
