"""``L.CRF1d``: the linear-chain conditional random field loss layer."""

import chainer.functions as F
from chainer import initializers
from chainer import link
from chainer import variable


class CRF1d(link.Link):
    """Linear-chain conditional random field loss layer.

    Holds the transition costs ``cost`` ``(n_label, n_label)`` (``cost[i,
    j]``: from label ``i`` to label ``j``; default 0); ``forward`` is
    :func:`~chainer.functions.crf1d` and :meth:`argmax`
    :func:`~chainer.functions.argmax_crf1d`.

    The sequences are time-major by default: ``xs[t]`` holds the scores of
    step ``t`` for the sequences still running, sorted by decreasing
    length.  With ``transpose=True`` they are batch-major (``xs[b]`` is
    sequence ``b``, ``(length_b, n_label)``).

    Args:
        n_label (int): Number of labels.
        initial_cost: Initializer of ``cost`` (default 0).

    >>> import numpy as np
    >>> crf = CRF1d(2)
    >>> xs = [np.zeros((1, 2), np.float32)] * 2
    >>> ys = [np.zeros(1, np.int32)] * 2
    >>> round(float(crf(xs, ys).array), 4)
    1.3863
    """

    def __init__(self, n_label, initial_cost=None):
        super().__init__()
        if initial_cost is None:
            initial_cost = initializers.constant.Zero()
        with self.init_scope():
            self.cost = variable.Parameter(
                initializers._get_initializer(initial_cost),
                (n_label, n_label))

    def forward(self, xs, ys, reduce='mean', transpose=False):
        """The negative log-likelihood of the label sequences ``ys`` given
        the scores ``xs`` (``reduce``: ``'mean'`` or ``'no'``).

        With ``transpose`` the batch is first sorted by decreasing length,
        as Chainer does, so ``reduce='no'`` gives the losses in that order.
        """
        if transpose:
            order = _by_length(xs)
            xs = F.transpose_sequence([xs[i] for i in order])
            ys = F.transpose_sequence([ys[i] for i in order])
        return F.crf1d(self.cost, xs, ys, reduce)

    def argmax(self, xs, transpose=False):
        """The best label path: ``(score, path)``.

        With ``transpose`` the batch is sorted by decreasing length first,
        as in :meth:`forward`: the scores come in that order, while the
        path is a list of arrays, one per sequence, in the order given (as
        Chainer returns them).
        """
        if transpose:
            order = _by_length(xs)
            xs = F.transpose_sequence([xs[i] for i in order])
        score, path = F.argmax_crf1d(self.cost, xs)
        if transpose:
            sorted_path = F.transpose_sequence(path)
            path = [None] * len(order)
            for pos, i in enumerate(order):
                path[i] = sorted_path[pos].array
        return score, path


def _by_length(xs):
    # Stable: equal lengths keep their order.
    return sorted(range(len(xs)), key=lambda i: -len(xs[i]))
