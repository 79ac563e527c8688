import numpy

import chainer
import chainer.links as L
from chainer.utils.type_check import InvalidType
from link_harness import check_param_grads, check_params


def R(seed, *shape):
    return numpy.random.RandomState(seed).randn(*shape).astype(numpy.float32)


def test_params_and_lazy():
    link = L.LayerNormalization(3)
    check_params(link, {'/gamma': (3,), '/beta': (3,)})
    assert link.eps == 1e-6
    link = L.LayerNormalization()
    check_params(link, {'/gamma': None, '/beta': None})
    link(R(0, 2, 4))
    check_params(link, {'/gamma': (4,), '/beta': (4,)})
    try:
        L.LayerNormalization()(numpy.ones((2, 3, 2), numpy.float32))
    except InvalidType as e:
        assert 'LayerNormalization' in str(e)
    else:
        raise AssertionError('3-D input accepted')


def test_forward_matches_reference_and_gradients():
    # Expected values from Chainer 7.8.1 with the same arrays.
    init = chainer.initializers.Constant
    link = L.LayerNormalization(3, initial_gamma=init(R(1, 3)),
                                initial_beta=init(R(2, 3)))
    y = link(R(0, 2, 3))
    numpy.testing.assert_allclose(y.array.ravel(), [
        1.665206, 0.652413, -2.071078, 0.936329, -0.406946, -1.393461],
        rtol=1e-4, atol=1e-5)
    check_param_grads(link, (R(0, 2, 3),), R(3, 2, 3))
