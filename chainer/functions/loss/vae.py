"""Losses of variational auto-encoders: Gaussian KL divergence and the
negative log-likelihoods of Bernoulli and Gaussian distributions.

Compositions of differentiable functions (as in Chainer), so they
broadcast like arithmetic and support double backprop.
"""

import math

from chainer.functions.loss._util import check_reduce, softplus
from chainer.functions.math.exponential import exp
from chainer.variable import as_variable
from chainer.functions._errors import names_bad_arguments


def _reduce(loss, reduce):
    if reduce == 'sum':
        from chainer.functions.math.sum import sum as _sum
        return _sum(loss)
    if reduce == 'mean':
        from chainer.functions.math.average import average
        return average(loss)
    return loss


def _check(func, reduce):
    check_reduce(func, reduce, ('sum', 'mean', 'no'))


@names_bad_arguments
def gaussian_kl_divergence(mean, ln_var, reduce='sum'):
    """Computes the KL-divergence of Gaussian variables from the standard one.

    For ``N(mean, exp(ln_var))`` against ``N(0, I)``, element-wise
    ``(mean ** 2 + exp(ln_var) - ln_var - 1) / 2``.

    Args:
        mean (~chainer.Variable or array): Means.
        ln_var (~chainer.Variable or array): Log variances (broadcastable
            with ``mean``).
        reduce (str): ``'sum'``, ``'mean'`` or ``'no'`` (element-wise).

    Returns:
        ~chainer.Variable: The KL divergence.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> m = np.array([1., 0.], np.float32)
    >>> F.gaussian_kl_divergence(m, np.zeros(2, np.float32)).array
    array(0.5, dtype=float32)
    """
    _check('gaussian_kl_divergence', reduce)
    mean = as_variable(mean)
    ln_var = as_variable(ln_var)
    loss = (mean * mean + exp(ln_var) - ln_var - 1) * 0.5
    return _reduce(loss, reduce)


def _refuse_complex(func, **arrays):
    # real-valued likelihoods: a complex argument would lose its imaginary
    # part somewhere along the way
    for name, a in arrays.items():
        if getattr(a, 'dtype', None) is not None and a.dtype.kind == 'c':
            raise TypeError('{}: {} must be real, but got dtype {}'.format(
                func, name, a.dtype))


@names_bad_arguments
def bernoulli_nll(x, y, reduce='sum'):
    """Computes the negative log-likelihood of a Bernoulli distribution.

    With ``y`` the logits of the probabilities ``p = sigmoid(y)``,
    element-wise ``-(x log p + (1 - x) log(1 - p)) = softplus(y) - x y``
    (finite for logits of any size).

    Args:
        x (~chainer.Variable or array): Observations (in [0, 1]).
        y (~chainer.Variable or array): Pre-sigmoid parameters.
        reduce (str): ``'sum'``, ``'mean'`` or ``'no'`` (element-wise).

    Returns:
        ~chainer.Variable: The negative log-likelihood.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.bernoulli_nll(np.array([1.], np.float32),
    ...                 np.array([0.], np.float32)).array
    array(0.6931472, dtype=float32)
    """
    _check('bernoulli_nll', reduce)
    y = as_variable(y)
    _refuse_complex('bernoulli_nll', x=x, y=y)
    return _reduce(softplus(y) - y * x, reduce)


@names_bad_arguments
def gaussian_nll(x, mean, ln_var, reduce='sum'):
    """Computes the negative log-likelihood of a Gaussian distribution.

    For ``N(mean, exp(ln_var))``, element-wise
    ``(log(2 pi) + ln_var) / 2 + (x - mean) ** 2 * exp(-ln_var) / 2``.

    Args:
        x (~chainer.Variable or array): Observations.
        mean (~chainer.Variable or array): Means.
        ln_var (~chainer.Variable or array): Log variances.
        reduce (str): ``'sum'``, ``'mean'`` or ``'no'`` (element-wise).

    Returns:
        ~chainer.Variable: The negative log-likelihood.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> z = np.zeros(1, np.float32)
    >>> F.gaussian_nll(z, z, z).array
    array(0.9189385, dtype=float32)
    """
    _check('gaussian_nll', reduce)
    x = as_variable(x)
    ln_var = as_variable(ln_var)
    _refuse_complex('gaussian_nll', x=x, mean=mean, ln_var=ln_var)
    diff = x - mean
    loss = (ln_var + math.log(2 * math.pi)) * 0.5 + \
        diff * diff * exp(-ln_var) * 0.5
    return _reduce(loss, reduce)
