"""``L.NegativeSampling``: the word2vec negative sampling loss layer."""

import numpy

import chainer
from chainer import backend
from chainer import initializers
from chainer import link
from chainer import variable
from chainer.functions.loss import negative_sampling as _negative_sampling


class _WalkerAlias:
    """Draws integers ``i`` with probability ``probs[i] / sum(probs)`` in
    O(1) each (Walker's alias method; a private stand-in while
    ``chainer.utils.WalkerAlias`` is missing).

    Each of the ``n`` slots keeps its own index with probability
    ``threshold[i]`` and its ``alias[i]`` otherwise.
    """

    def __init__(self, probs):
        p = numpy.asarray(probs, numpy.float64).ravel()
        n = p.size
        q = p * (n / p.sum())
        threshold = numpy.ones(n, numpy.float64)
        alias = numpy.arange(n, dtype=numpy.int32)
        small = [i for i in range(n) if q[i] < 1]
        large = [i for i in range(n) if q[i] >= 1]
        while small and large:
            s, g = small.pop(), large[-1]
            threshold[s], alias[s] = q[s], g
            q[g] -= 1 - q[s]
            if q[g] < 1:
                small.append(large.pop())
        self.threshold = threshold
        self.values = alias
        self.use_gpu = False

    def to_gpu(self):
        self.use_gpu = True

    def to_cpu(self):
        self.use_gpu = False

    def sample(self, shape):
        """An int32 array of ``shape`` of samples (on the GPU with
        ``use_gpu``)."""
        xp = numpy
        if self.use_gpu:
            from chainer.backends import cuda
            xp = cuda.cupy
        n = self.threshold.size
        u = xp.random.uniform(0, n, shape)
        index = xp.minimum(u.astype(numpy.int32), n - 1)
        keep = (u - index) < xp.asarray(self.threshold)[index]
        return xp.where(keep, index, xp.asarray(self.values)[index]).astype(
            numpy.int32, copy=False)


def _walker_alias(probs):
    cls = getattr(chainer.utils, 'WalkerAlias', None) or _WalkerAlias
    return cls(probs)


class _SamplerLink(link.Link):
    """A link with a ``sampler`` that follows the link across devices."""

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        device = getattr(visitor, '_device', None) or getattr(
            visitor, 'device', None)
        if device is not None and hasattr(self.sampler, 'to_device'):
            self.sampler.to_device(backend.get_device(device))


class NegativeSampling(_SamplerLink):
    """Negative sampling loss layer.

    Holds the output weights ``W`` ``(len(counts), in_size)`` (initialized
    to 0) and a sampler that draws the negatives with probabilities
    proportional to ``counts ** power``; ``forward`` is
    :func:`~chainer.functions.negative_sampling`.

    Args:
        in_size (int): Input size.
        counts (sequence of ints): Frequency of each word.
        sample_size (int): Number of negatives per example.
        power (float): Power applied to the counts.
        dtype: Dtype of ``W`` (default ``chainer.config.dtype``).

    >>> import numpy as np
    >>> ns = NegativeSampling(3, [1, 2, 3], 2)
    >>> ns.W.shape
    (3, 3)
    """

    def __init__(self, in_size, counts, sample_size, power=0.75, dtype=None):
        super().__init__()
        dtype = chainer.get_dtype(dtype)
        vocab_size = len(counts)
        self.sample_size = sample_size
        p = numpy.power(numpy.array(counts, numpy.float32),
                        numpy.float32(power))
        self.sampler = _walker_alias(p)
        with self.init_scope():
            self.W = variable.Parameter(initializers.Zero(dtype),
                                        (vocab_size, in_size))

    def forward(self, x, t, reduce='sum', **kwargs):
        """The loss of ``x`` ``(N, in_size)`` against the labels ``t``
        ``(N,)``; ``return_samples=True`` (keyword) also returns the
        samples."""
        return_samples = kwargs.pop('return_samples', False)
        if kwargs:
            raise TypeError('forward() got unexpected keyword argument(s) {}'
                            .format(', '.join(repr(k) for k in kwargs)))
        # looked up in its module at each call, as Chainer does (code that
        # patches the function sees the link use the patch)
        return _negative_sampling.negative_sampling(
            x, t, self.W, self.sampler.sample, self.sample_size,
            reduce=reduce, return_samples=return_samples)
