"""Probability distributions (``chainer.distributions``).

Each distribution computes with Chainer functions, so its quantities can be
differentiated with respect to its parameters; see
:class:`chainer.Distribution` for the shared interface and
:func:`chainer.kl_divergence` for the registered KL divergences.
"""

from chainer.distributions.bernoulli import Bernoulli  # NOQA
from chainer.distributions.beta import Beta  # NOQA
from chainer.distributions.categorical import Categorical  # NOQA
from chainer.distributions.cauchy import Cauchy  # NOQA
from chainer.distributions.chisquare import Chisquare  # NOQA
from chainer.distributions.dirichlet import Dirichlet  # NOQA
from chainer.distributions.exponential import Exponential  # NOQA
from chainer.distributions.gamma import Gamma  # NOQA
from chainer.distributions.geometric import Geometric  # NOQA
from chainer.distributions.gumbel import Gumbel  # NOQA
from chainer.distributions.independent import Independent  # NOQA
from chainer.distributions.laplace import Laplace  # NOQA
from chainer.distributions.log_normal import LogNormal  # NOQA
from chainer.distributions.multivariate_normal import MultivariateNormal  # NOQA
from chainer.distributions.normal import Normal  # NOQA
from chainer.distributions.one_hot_categorical import OneHotCategorical  # NOQA
from chainer.distributions.pareto import Pareto  # NOQA
from chainer.distributions.poisson import Poisson  # NOQA
from chainer.distributions.uniform import Uniform  # NOQA
