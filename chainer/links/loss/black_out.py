"""``L.BlackOut``: the BlackOut loss layer."""

import numpy

import chainer.functions as F
from chainer import variable
from chainer.links.loss.negative_sampling import _SamplerLink, _walker_alias


class BlackOut(_SamplerLink):
    """BlackOut loss layer.

    Holds the output weights ``W`` ``(len(counts), in_size)`` and a
    sampler drawing ``sample_size`` negatives per example with
    probabilities proportional to ``counts``; ``forward`` is
    :func:`~chainer.functions.black_out`.  ``W`` starts as NaN, as in
    Chainer: set it (e.g. ``link.W.array[...] = ...``) before training.

    Args:
        in_size (int): Input size.
        counts (sequence of ints): Frequency of each word.
        sample_size (int): Number of negatives per example.

    >>> bo = BlackOut(3, [1, 2, 3, 4], 2)
    >>> bo.W.shape
    (4, 3)
    """

    # Fixed negatives for tests: when not None, forward uses them.
    sample_data = None

    def __init__(self, in_size, counts, sample_size):
        super().__init__()
        vocab_size = len(counts)
        self.sampler = _walker_alias(numpy.array(counts, numpy.float32))
        self.sample_size = sample_size
        with self.init_scope():
            self.W = variable.Parameter(shape=(vocab_size, in_size))

    def forward(self, x, t):
        """The mean loss of ``x`` ``(N, in_size)`` against the labels
        ``t`` ``(N,)``; the negatives are ``self.sample_data`` when that
        attribute is set (for tests), else freshly drawn."""
        samples = self.sample_data
        if samples is None:
            samples = self.sampler.sample((x.shape[0], self.sample_size))
        return F.black_out(x, t, self.W, samples)
