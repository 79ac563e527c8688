import numpy
import pytest

import chainer.functions as F
from op_harness import check_op


@pytest.mark.parametrize('shape', [(2, 3, 2), (), (0, 3), (4,)])
def test_flatten(shape):
    check_op(F.flatten,
             lambda rng, dt: (numpy.asarray(rng.randn(*shape)).astype(dt),),
             lambda x: x.ravel())


def test_flatten_creator():
    y = F.flatten(numpy.zeros((2, 3), numpy.float32))
    assert type(y.creator).__name__ == 'Reshape'
    assert y.shape == (6,)
