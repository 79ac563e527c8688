import numpy
import pytest

import chainer.functions as F
import chainer.links as L
from onnx_harness import LATEST, Fn, check, rand


def _bn_link(**kwargs):
    bn = L.BatchNormalization(3, **kwargs)
    bn.avg_mean[:] = [0.1, -0.2, 0.3]
    bn.avg_var[:] = [0.5, 1.5, 2.0]
    if bn.gamma is not None:
        bn.gamma.array[:] = [1.5, 0.5, -1]
    if bn.beta is not None:
        bn.beta.array[:] = [0.1, 0.2, 0.3]
    return bn


@pytest.mark.parametrize('train', [False, True])
@pytest.mark.parametrize('shape', [(4, 3), (2, 3, 4, 5)])
@pytest.mark.parametrize('kwargs', [{}, {'use_gamma': False},
                                    {'use_beta': False}])
def test_batch_normalization_link(train, shape, kwargs):
    model = Fn(lambda m, x: m.bn(x), bn=_bn_link(**kwargs))
    m = check(model, rand(*shape), train=train, atol=1e-5)
    names = {t.name for t in m.graph.initializer}
    if not train:  # the running statistics are named by their path
        assert {'param_bn_avg_mean', 'param_bn_avg_var'} <= names
    # the running statistics are left as they were
    numpy.testing.assert_array_equal(
        model.bn.avg_mean, numpy.array([0.1, -0.2, 0.3], numpy.float32))


def test_batch_normalization_function():
    gamma, beta = rand(3), rand(3)
    check(Fn(lambda x: F.batch_normalization(x, gamma, beta)),
          rand(5, 3, 2), atol=1e-5)


def test_batch_normalization_axis0():
    gamma, beta = rand(3, 2), rand(3, 2)
    check(Fn(lambda x: F.batch_normalization(x, gamma, beta, axis=0)),
          rand(5, 3, 2), atol=1e-5)


def test_fixed_batch_normalization_inputs():
    x = rand(4, 3)
    model = Fn(lambda x, g, b, m, v: F.fixed_batch_normalization(
        x, g, b, m, v))
    check(model, (x, rand(3), rand(3), x.mean(0), x.var(0)), atol=1e-5)


def test_fixed_batch_normalization_other_axis():
    x = rand(4, 3, 2)
    mean, var = x.mean(axis=(0, 2)), x.var(axis=(0, 2)) + 0.5
    model = Fn(lambda x: F.fixed_batch_normalization(
        x, rand(4, 2), rand(4, 2), x.array.mean(1), x.array.var(1) + 1,
        axis=1))
    check(model, x, atol=1e-5)
    model = Fn(lambda x: F.fixed_batch_normalization(
        x, rand(3), rand(3), mean, var, axis=(0, 2)))
    check(model, x, atol=1e-5)


def test_layer_normalization():
    ln = L.LayerNormalization(5)
    ln.gamma.array[:] = numpy.linspace(0.5, 1.5, 5)
    ln.beta.array[:] = numpy.linspace(-1, 1, 5)
    check(Fn(lambda m, x: m.ln(x), ln=ln), rand(3, 5), atol=1e-5)


def test_group_normalization():
    gn = L.GroupNormalization(2, 4)
    gn.gamma.array[:] = [1, 2, 3, 4]
    gn.beta.array[:] = [0.5, 0, -0.5, 1]
    check(Fn(lambda m, x: m.gn(x), gn=gn), rand(2, 4, 3, 5), atol=1e-5)


def test_local_response_normalization():
    check(Fn(lambda x: F.local_response_normalization(
        x, n=3, k=1, alpha=1e-2, beta=0.75)), rand(2, 5, 3, 3))


@pytest.mark.parametrize('axis', [1, (1, 2)])
def test_normalize(axis):
    check(Fn(lambda x: F.normalize(x, axis=axis)), rand(2, 5, 3))


def test_batch_renormalization_test_mode():
    # The link normalizes with its running statistics at test time.
    link = L.BatchRenormalization(3, rmax=2., dmax=1.)
    link.avg_mean[:] = [0.1, -0.2, 0.3]
    link.avg_var[:] = [0.5, 1.5, 2.0]
    check(Fn(lambda self, x: self.bn(x), bn=link), rand(4, 3, 2, 2),
          atol=1e-5)
    check(Fn(lambda x: F.fixed_batch_renormalization(
        x, link.gamma.array, link.beta.array, link.avg_mean, link.avg_var)),
        rand(4, 3), atol=1e-5)


def test_batch_renormalization_function():
    # F.batch_renormalization (batch statistics, corrected by r and d);
    # the clips bind for some channels.
    mean = numpy.array([0.1, -0.5, 2.0], numpy.float32)
    var = numpy.array([0.5, 4.0, 0.01], numpy.float32)
    gamma, beta = rand(3), rand(3)
    model = Fn(lambda x: F.batch_renormalization(
        x, gamma, beta, 1.5, 0.5, running_mean=mean, running_var=var))
    check(model, rand(5, 3, 2), opsets=(7, 11, 13, 18, LATEST), atol=1e-5)


def test_batch_renormalization_updating_statistics_refused():
    import onnx_chainer
    mean, var = numpy.zeros(3, numpy.float32), numpy.ones(3, numpy.float32)
    one = numpy.ones(3, numpy.float32)
    model = Fn(lambda x: F.batch_renormalization(
        x, one, one, 2., 1., running_mean=mean, running_var=var,
        update_statistics=True))
    with pytest.raises(ValueError, match='test mode'):
        onnx_chainer.export(model, rand(4, 3))
