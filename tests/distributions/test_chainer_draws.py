"""Values printed by Chainer 7.8.1 (NumPy 1.26) for seeded draws and the
gradients that a differential run found different; each now the same."""

import numpy
import pytest

import chainer
import chainer.distributions as D
import chainer.functions as F


def v(x):
    return chainer.Variable(numpy.array(x, numpy.float32))


def test_pareto_sample_and_its_gradient():
    # NumPy's Pareto draw (float64, then cast) + 1, times the scale: the
    # gradient goes to the scale only
    numpy.random.seed(0)
    scale, alpha = v([2.0]), v([1.5])
    s = D.Pareto(scale, alpha).sample(1)
    assert s.array.tolist() == [[3.399846076965332]]
    F.sum(s).backward()
    assert alpha.grad is None
    numpy.testing.assert_allclose(scale.grad, s.array[0] / 2.0)


def test_dirichlet_sample_normalizes_in_float64():
    numpy.random.seed(0)
    s = D.Dirichlet(v([1.0, 2.0, 3.0])).sample(1)
    assert s.dtype == numpy.float32
    assert s.array.tolist() == [[0.08199566602706909, 0.2904379367828369,
                                 0.627566397190094]]


def test_categorical_p_from_logits_is_exp_of_log_softmax():
    p = D.Categorical(logit=v([[0.2, -0.3, 0.5]])).p
    assert p.array.tolist() == [[0.33825045824050903, 0.2051592618227005,
                                 0.4565903842449188]]


def test_categorical_refuses_probabilities_not_summing_to_one():
    with pytest.raises(ValueError, match='probabilities do not sum to 1'):
        D.Categorical(p=v([[0.2, 0.3, 0.4]])).sample(3)
    # within float32's tolerance they pass (as NumPy's choice)
    D.Categorical(p=v([[0.2, 0.3, 0.5001]])).sample(1)


def test_multivariate_normal_gives_no_gradient_above_the_diagonal():
    L = v([[1.0, 0.0], [0.5, 2.0]])
    d = D.MultivariateNormal(v([0., 1.]), scale_tril=L)
    F.sum(d.log_prob(numpy.array([0.3, 0.4], numpy.float32))).backward()
    assert L.grad.tolist() == [[-0.8818749785423279, 0.0],
                               [-0.05625000223517418, -0.4296875]]


def test_zoneout_is_an_arithmetic_mix():
    # h * flag_h + x * flag_x: a NaN or infinity of the unpicked side shows,
    # and -0 + 0 is +0 (Chainer's arithmetic)
    h = numpy.array([numpy.nan, numpy.inf, 0.], numpy.float32)
    x = numpy.array([1., 2., -0.], numpy.float32)
    y = F.zoneout(h, x, 0.0).array
    assert numpy.isnan(y[:2]).all()
    assert y[2] == 0 and not numpy.signbit(y[2])
