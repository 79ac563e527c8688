"""The probability distribution interface and the KL-divergence registry.

A distribution's values split into three shapes: ``sample_shape`` (how many
independent draws), ``batch_shape`` (independent, differently parametrized
distributions) and ``event_shape`` (the shape of one draw).  Probability
functions take ``sample_shape + batch_shape + event_shape`` and return
``sample_shape + batch_shape``.
"""

import numpy

import chainer


class Distribution:
    """Interface of probability distributions.

    A subclass takes its parameters (arrays or :class:`~chainer.Variable`)
    on construction and computes every quantity with Chainer functions, so
    the results can be differentiated with respect to the parameters.  Every
    member of the base class raises :class:`NotImplementedError` except
    :meth:`sample`, which calls :meth:`sample_n`.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainer.distributions as D
        >>> d = D.Normal(np.zeros((4, 3), np.float32),
        ...              np.ones((4, 3), np.float32))
        >>> d.batch_shape, d.event_shape
        ((4, 3), ())
        >>> d.sample(sample_shape=(6, 5)).shape
        (6, 5, 4, 3)
        >>> d.log_prob(np.zeros((4, 3), np.float32)).shape
        (4, 3)
    """

    @property
    def batch_shape(self):
        """tuple: The shape of the batch of distributions."""
        raise NotImplementedError

    @property
    def covariance(self):
        """~chainer.Variable: The covariance of the distribution."""
        raise NotImplementedError

    @property
    def entropy(self):
        """~chainer.Variable: The entropy of the distribution."""
        raise NotImplementedError

    @property
    def event_shape(self):
        """tuple: The shape of one event (one draw of one distribution)."""
        raise NotImplementedError

    @property
    def mean(self):
        """~chainer.Variable: The mean of the distribution."""
        raise NotImplementedError

    @property
    def mode(self):
        """~chainer.Variable: The mode of the distribution."""
        raise NotImplementedError

    @property
    def params(self):
        """dict: The parameters of the distribution (name -> Variable)."""
        raise NotImplementedError

    @property
    def stddev(self):
        """~chainer.Variable: The standard deviation of the distribution."""
        raise NotImplementedError

    @property
    def support(self):
        """str: A description of the support of the distribution."""
        raise NotImplementedError

    @property
    def variance(self):
        """~chainer.Variable: The variance of the distribution."""
        raise NotImplementedError

    @property
    def xp(self):
        """The array module (NumPy or CuPy) of the parameters."""
        raise NotImplementedError

    def cdf(self, x):
        """Evaluates the cumulative distribution function at ``x``.

        Args:
            x (~chainer.Variable or :ref:`ndarray`): Data points in the
                domain of the distribution.

        Returns:
            ~chainer.Variable: The cumulative distribution function at ``x``.
        """
        raise NotImplementedError

    def icdf(self, x):
        """Evaluates the inverse cumulative distribution function at ``x``.

        Args:
            x (~chainer.Variable or :ref:`ndarray`): Probabilities in [0, 1].

        Returns:
            ~chainer.Variable: The points whose cumulative probability is
            ``x``.
        """
        raise NotImplementedError

    def log_cdf(self, x):
        """Evaluates the logarithm of the cumulative distribution function.

        Args:
            x (~chainer.Variable or :ref:`ndarray`): Data points.

        Returns:
            ~chainer.Variable: ``log(cdf(x))``.
        """
        raise NotImplementedError

    def log_prob(self, x):
        """Evaluates the logarithm of the probability (density or mass).

        Args:
            x (~chainer.Variable or :ref:`ndarray`): Data points of shape
                ``sample_shape + batch_shape + event_shape``.

        Returns:
            ~chainer.Variable: The log probability, of shape
            ``sample_shape + batch_shape``.
        """
        raise NotImplementedError

    def log_survival_function(self, x):
        """Evaluates the logarithm of the survival function.

        Args:
            x (~chainer.Variable or :ref:`ndarray`): Data points.

        Returns:
            ~chainer.Variable: ``log(1 - cdf(x))``.
        """
        raise NotImplementedError

    def perplexity(self, x):
        """Evaluates the perplexity function at ``x``.

        Args:
            x (~chainer.Variable or :ref:`ndarray`): Data points.

        Returns:
            ~chainer.Variable: The perplexity at ``x``.
        """
        raise NotImplementedError

    def prob(self, x):
        """Evaluates the probability (density or mass) at ``x``.

        Args:
            x (~chainer.Variable or :ref:`ndarray`): Data points.

        Returns:
            ~chainer.Variable: The probability at ``x``.
        """
        raise NotImplementedError

    def sample(self, sample_shape=()):
        """Samples random points from the distribution.

        Calls :meth:`sample_n` with the product of ``sample_shape`` and
        reshapes its result to ``sample_shape + batch_shape + event_shape``.
        Subclasses should override :meth:`sample_n`, not this method.

        Args:
            sample_shape (tuple of int): The sampling shape (an int is
                taken as a one-element tuple).

        Returns:
            ~chainer.Variable: The sampled points.
        """
        if isinstance(sample_shape, (int, numpy.integer)):
            sample_shape = (int(sample_shape),)
        sample_shape = tuple(sample_shape)
        n = int(numpy.prod(sample_shape, dtype=numpy.int64))
        samples = self.sample_n(n)
        return chainer.functions.reshape(
            samples, sample_shape + samples.shape[1:])

    def sample_n(self, n):
        """Samples ``n`` random points.

        Args:
            n (int): The number of points.

        Returns:
            ~chainer.Variable: The points, of shape
            ``(n,) + batch_shape + event_shape``.
        """
        raise NotImplementedError

    def survival_function(self, x):
        """Evaluates the survival function ``1 - cdf(x)`` at ``x``.

        Args:
            x (~chainer.Variable or :ref:`ndarray`): Data points.

        Returns:
            ~chainer.Variable: The survival function at ``x``.
        """
        raise NotImplementedError


_KLDIVERGENCE = {}


def register_kl(Dist1, Dist2):
    """Decorator to register a KL divergence function.

    The decorated function takes an instance of ``Dist1`` and one of
    ``Dist2`` and returns their KL divergence;
    :func:`~chainer.kl_divergence` dispatches to it on the types of its
    arguments.

    Args:
        Dist1 (type): A subclass of :class:`~chainer.Distribution` (the
            left operand).
        Dist2 (type): A subclass of :class:`~chainer.Distribution` (the
            right operand).

    .. admonition:: Example

        .. code-block:: python

            @chainer.register_kl(MyDist, MyDist)
            def _kl_mydist_mydist(dist1, dist2):
                return ...
    """
    def f(kl):
        _KLDIVERGENCE[Dist1, Dist2] = kl
        return kl
    return f


def _lookup_kl(type1, type2):
    kl = _KLDIVERGENCE.get((type1, type2))
    if kl is not None:
        return kl
    # A subclass falls back on the nearest registered ancestors.
    for t1 in type1.__mro__:
        for t2 in type2.__mro__:
            kl = _KLDIVERGENCE.get((t1, t2))
            if kl is not None:
                return kl
    raise KeyError((type1, type2))


def kl_divergence(dist1, dist2):
    """Computes the Kullback-Leibler divergence ``KL(dist1 || dist2)``.

    For densities ``p`` and ``q``: :math:`\\int p(x) \\log (p(x) / q(x)) dx`
    (a sum for discrete distributions).  The computation is the function
    registered with :func:`~chainer.register_kl` for the two types (or their
    nearest registered base classes).

    Args:
        dist1 (~chainer.Distribution): The left operand ``p``.
        dist2 (~chainer.Distribution): The right operand ``q``.

    Returns:
        ~chainer.Variable: The KL divergence, of the batch shape.

    Raises:
        KeyError: No KL divergence is registered for the two types.

    >>> import numpy as np
    >>> import chainer.distributions as D
    >>> p = D.Normal(np.array([0.], np.float32), np.array([1.], np.float32))
    >>> q = D.Normal(np.array([1.], np.float32), np.array([1.], np.float32))
    >>> kl_divergence(p, q).array
    array([0.5], dtype=float32)
    """
    return _lookup_kl(type(dist1), type(dist2))(dist1, dist2)


def cross_entropy(dist1, dist2):
    """Computes the cross entropy ``H(dist1, dist2)``.

    :math:`-\\int p(x) \\log q(x) dx`, computed as the entropy of ``dist1``
    plus :func:`~chainer.kl_divergence` of the two, so ``dist1`` needs
    :attr:`~chainer.Distribution.entropy` and the pair needs a registered
    KL divergence.

    Args:
        dist1 (~chainer.Distribution): The left operand ``p``.
        dist2 (~chainer.Distribution): The right operand ``q``.

    Returns:
        ~chainer.Variable: The cross entropy, of the batch shape.
    """
    return dist1.entropy + kl_divergence(dist1, dist2)
