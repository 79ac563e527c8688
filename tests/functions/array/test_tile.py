import numpy
import pytest

import chainer.functions as F
from op_harness import check_op


@pytest.mark.parametrize('shape,reps', [((2, 3), 2), ((2, 3), (2, 1)),
                                        ((2,), (2, 1, 3)), ((), 3),
                                        ((2, 3), 0), ((2, 3), ())])
def test_tile(shape, reps):
    check_op(lambda x: F.tile(x, reps),
             lambda rng, dt: (numpy.asarray(rng.randn(*shape)).astype(dt),),
             lambda x: numpy.tile(x, reps))


def test_tile_errors():
    x = numpy.zeros((2, 3), numpy.float32)
    assert type(F.tile(x, 2).creator).__name__ == 'Tile'
    with pytest.raises(ValueError, match='zero or larger'):
        F.tile(x, -1)
    with pytest.raises(TypeError, match='reps must be int'):
        F.tile(x, 2.0)
