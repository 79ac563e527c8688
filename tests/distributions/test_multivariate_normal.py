"""Tests of chainer.distributions.MultivariateNormal.

Reference values come from Chainer 7.8.1 (float64 inputs).
"""

import numpy
import pytest

from chainer import distributions as D

from dist_cases import *  # noqa: F401,F403 (the shared checks)


PARAMS = [[[0.5, -1.0], [0.2, 0.3]],
          [[[1.0, 0.0], [0.5, 2.0]], [[0.7, 0.0], [-0.3, 1.1]]]]
PARAMS2 = [[[0.1, 0.4], [-0.5, 1.0]],
           [[[1.5, 0.0], [0.2, 0.6]], [[1.0, 0.0], [0.4, 0.9]]]]
X = [[0.1, 2.0], [-0.4, 0.3]]
Q = None
BATCH_SHAPE = (2,)
EVENT_SHAPE = (2,)
SUPPORT = 'real'
RTOL64 = 2e-6
EXPECTED = {
    'mean': [[0.5, -1.0], [0.2, 0.3]],
    'entropy': [3.5310242469692907, 2.5765123022749377],
    'covariance': [[[1.0, 0.5], [0.5, 4.25]],
         [[0.48999999999999994, -0.21], [-0.21, 1.3000000000000003]]],
    'log_prob': [-3.891024351119995, -1.9711827039718628],
}
KL = [7.135133743286133, 1.1934118270874023]
# sample((2,)) right after numpy.random.seed(0)
SAMPLE = [[[2.264052391052246, 0.6823406219482422],
           [0.8851166069507599, 2.471361035108566]],
          [[2.367558002471924, -2.0207767486572266],
           [0.8650619089603424, -0.15151945650577547]]]
REPARAMETERIZED = True
NO_SAMPLE_GRADS = None
NOT_IMPLEMENTED = ('variance', 'stddev', 'mode', 'prob', 'cdf', 'log_cdf',
                   'survival_function', 'log_survival_function', 'perplexity')


def make(*p):
    return D.MultivariateNormal(p[0], scale_tril=p[1])


def test_scale_tril_required():
    with pytest.raises(ValueError, match='`scale_tril` must have a value'):
        D.MultivariateNormal(numpy.zeros(2, numpy.float32))
    with pytest.raises(TypeError, match='unexpected keyword'):
        D.MultivariateNormal(numpy.zeros(2, numpy.float32),
                             scale_tril=numpy.eye(2, dtype=numpy.float32),
                             foo=1)


def test_unbatched():
    tril = numpy.array([[1., 0.], [0.5, 2.]], numpy.float32)
    d = D.MultivariateNormal(numpy.zeros(2, numpy.float32), scale_tril=tril)
    assert d.batch_shape == () and d.d == 2
    # Chainer 7.8.1 values.
    y = d.log_prob(numpy.ones((3, 2), numpy.float32))
    assert y.shape == (3,)
    numpy.testing.assert_allclose(y.array, -3.0622742, rtol=1e-6)
    numpy.testing.assert_allclose(d.covariance.array,
                                  [[1., 0.5], [0.5, 4.25]])
