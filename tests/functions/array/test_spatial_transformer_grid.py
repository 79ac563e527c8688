import numpy
import pytest

import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


def _ref(H, W):
    def f(theta):
        out = numpy.empty((len(theta), 2, H, W))
        for h in range(H):
            for w in range(W):
                p = numpy.array([-1 + 2 * w / max(W - 1, 1),
                                 -1 + 2 * h / max(H - 1, 1), 1.])
                if W == 1:
                    p[0] = -1
                if H == 1:
                    p[1] = -1
                out[:, :, h, w] = theta @ p
        return out
    return f


@pytest.mark.parametrize('n,shape', [(2, (2, 3)), (1, (1, 1)), (0, (2, 2))])
def test_spatial_transformer_grid(n, shape):
    check_op(lambda t: F.spatial_transformer_grid(t, shape),
             lambda rng, dt: (rng.randn(n, 2, 3).astype(dt),), _ref(*shape))


def test_spatial_transformer_grid_identity():
    theta = numpy.array([[[1., 0., 0.], [0., 1., 0.]]], numpy.float32)
    g = F.spatial_transformer_grid(theta, (2, 3))
    assert type(g.creator).__name__ == 'SpatialTransformerGrid'
    numpy.testing.assert_allclose(g.array[0, 0], [[-1, 0, 1]] * 2)
    numpy.testing.assert_allclose(g.array[0, 1], [[-1] * 3, [1] * 3])


def test_spatial_transformer_grid_errors():
    theta = numpy.zeros((1, 2, 3), numpy.float32)
    with pytest.raises(ValueError, match='use_cudnn'):
        F.spatial_transformer_grid(theta, (2, 2), use_cudnn=True)
    with pytest.raises(TypeError, match='foo'):
        F.spatial_transformer_grid(theta, (2, 2), foo=1)
    with pytest.raises(InvalidType, match='dtype.kind == f'):
        F.spatial_transformer_grid(theta.astype(numpy.int32), (2, 2))
    with pytest.raises(InvalidType, match='theta.shape'):
        F.spatial_transformer_grid(numpy.zeros((1, 3, 3), numpy.float32),
                                   (2, 2))
