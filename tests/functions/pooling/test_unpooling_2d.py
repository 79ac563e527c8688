import numpy
import pytest

import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


def test_unpooling_2d_values():
    x = numpy.array([[[[1., 2.], [3., 4.]]]], numpy.float32)
    y = F.unpooling_2d(x, 2, cover_all=False)
    numpy.testing.assert_array_equal(
        y.array[0, 0], [[1, 1, 2, 2], [1, 1, 2, 2], [3, 3, 4, 4],
                        [3, 3, 4, 4]])
    assert type(y.creator).__name__ == 'Unpooling2D'
    # cover_all=True (the default) gives the size a cover_all pooling
    # maps back from: 2 * (2 - 1) + 2 - 2 + 1 = 3.
    assert F.unpooling_2d(x, 2).shape == (1, 1, 3, 3)


@pytest.mark.parametrize('kw', [
    dict(ksize=2, cover_all=False),
    dict(ksize=(3, 2), stride=(2, 1), pad=1, outsize=(5, 4)),
])
def test_unpooling_2d_gradients(kw):
    check_op(lambda x: F.unpooling_2d(x, **kw),
             lambda rng, dt: (rng.uniform(-1, 1, (2, 2, 3, 3)).astype(dt),))


def test_errors():
    with pytest.raises(InvalidType, match=r'in_types\[0\]\.ndim == 4'):
        F.unpooling_2d(numpy.ones((1, 2, 2), numpy.float32), 2)
