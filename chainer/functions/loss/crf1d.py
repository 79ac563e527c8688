"""Linear-chain CRF: ``F.crf1d`` (negative log-likelihood) and
``F.argmax_crf1d`` (Viterbi decoding).

``xs`` is a time-major list of ``(B_i, K)`` scores whose batch sizes do
not increase (sequences sorted by length, longest first, as
``F.transpose_sequence`` gives).  Both are compositions of differentiable
functions, so they support double backprop.
"""

import numpy

from chainer import backend
from chainer.functions._errors import (check_float, invalid_type,
                                       names_bad_arguments)
from chainer.functions.loss._util import (as_array, check_int_labels,
                                          check_label_range, check_reduce,
                                          concat0)


def _check_xs(func, cost, xs):
    ca = as_array(cost)
    if ca.ndim != 2 or ca.shape[0] != ca.shape[1]:
        raise invalid_type(func, 'cost.shape == (K, K)',
                           'cost.shape = {}'.format(ca.shape))
    if len(xs) == 0:
        raise ValueError('{}: xs must not be empty'.format(func))
    prev = None
    for i, x in enumerate(xs):
        a = as_array(x)
        check_float(func, a, 'xs[{}]'.format(i))
        shape = a.shape
        if len(shape) != 2 or shape[1] != ca.shape[0] or \
                (prev is not None and shape[0] > prev):
            raise invalid_type(
                func, 'xs[i].shape == (B_i, K) with B_i not increasing '
                '(K = {})'.format(ca.shape[0]),
                'xs[{}].shape = {}'.format(i, shape))
        prev = shape[0]
    return ca.shape[0]


def _transitions(alpha, cost, k):
    """``alpha[:, :, None] + cost``: scores of each (previous, next)."""
    from chainer.functions.array.reshape import reshape
    b = alpha.shape[0]
    return reshape(alpha, (b, k, 1)) + reshape(cost, (1, k, k))


@names_bad_arguments
def crf1d(cost, xs, ys, reduce='mean'):
    """Calculates negative log-likelihood of linear-chain CRF.

    The score of a path ``y`` is ``sum_i xs[i][y_i] + sum_i cost[y_{i-1},
    y_i]``; the loss of a sequence is ``logsumexp(all path scores) -
    score(ys)``.

    Args:
        cost (~chainer.Variable or array): Transition costs ``(K, K)``:
            ``cost[i, j]`` is the score of label ``i`` followed by ``j``.
        xs (list of ~chainer.Variable or array): Time-major scores, each
            ``(B_i, K)``, with ``B_i`` not increasing.
        ys (list of array): Time-major labels, each ``(B_i,)``.
        reduce (str): ``'mean'`` (the sum over sequences divided by the
            batch size ``B_0``) or ``'no'`` (``(B_0,)``).

    Returns:
        ~chainer.Variable: The loss.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> cost = np.zeros((2, 2), np.float32)
    >>> xs = [np.zeros((1, 2), np.float32)] * 2
    >>> ys = [np.array([0], np.int32)] * 2
    >>> F.crf1d(cost, xs, ys).array  # 4 equally likely paths
    array(1.3862944, dtype=float32)
    """
    from chainer.functions.math.logsumexp import logsumexp
    from chainer.functions.math.sum import sum as _sum
    check_reduce('crf1d', reduce)
    k = _check_xs('crf1d', cost, xs)
    if len(ys) != len(xs):
        raise ValueError('crf1d: xs and ys must have the same length, got '
                         '{} and {}'.format(len(xs), len(ys)))
    ys = [as_array(y) for y in ys]
    for i, (x, y) in enumerate(zip(xs, ys)):
        check_int_labels('crf1d', y, 'ys[{}]'.format(i))
        if y.shape != as_array(x).shape[:1]:
            raise invalid_type('crf1d', 'ys[i].shape == (xs[i].shape[0],)',
                               'ys[{}].shape = {}, xs[{}].shape = {}'.format(
                                   i, y.shape, i, as_array(x).shape))
        check_label_range('crf1d', y, k)
    n_batch = as_array(xs[0]).shape[0]
    # host index arrays would not index a raw CuPy array
    xp = backend.get_array_module(as_array(xs[0]))

    # The forward algorithm; a sequence that ends leaves its alpha in
    # ``done`` (ends come in order of decreasing batch index).
    alpha = xs[0]
    score = xs[0][xp.arange(n_batch), ys[0]]
    done_alpha, done_score = [], []
    for x, y, y_prev in zip(xs[1:], ys[1:], ys[:-1]):
        b = as_array(x).shape[0]
        if alpha.shape[0] > b:
            done_alpha.append(alpha[b:])
            done_score.append(score[b:])
            alpha, score = alpha[:b], score[:b]
        alpha = logsumexp(_transitions(alpha, cost, k), axis=1) + x
        score = score + x[xp.arange(b), y] + cost[y_prev[:b], y]
    alpha = concat0([alpha] + done_alpha[::-1])
    score = concat0([score] + done_score[::-1])
    loss = logsumexp(alpha, axis=1) - score
    if reduce == 'mean':
        return _sum(loss) * (1.0 / n_batch)
    return loss


@names_bad_arguments
def argmax_crf1d(cost, xs):
    """Computes a state that maximizes a joint probability of the given CRF.

    Viterbi decoding of the model of :func:`crf1d`.

    Args:
        cost (~chainer.Variable or array): Transition costs ``(K, K)``.
        xs (list of ~chainer.Variable or array): Time-major scores, each
            ``(B_i, K)``, with ``B_i`` not increasing.

    Returns:
        tuple: ``(score, path)``: ``score`` (a Variable ``(B_0,)``) is the
        score of the best path of each sequence (differentiable), and
        ``path`` a list of int32 arrays, the best label of each step
        (``path[i]`` of shape ``(B_i,)``).

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> cost = np.zeros((2, 2), np.float32)
    >>> xs = [np.array([[0., 1.]], np.float32)] * 2
    >>> score, path = F.argmax_crf1d(cost, xs)
    >>> score.array, [p.tolist() for p in path]
    (array([2.], dtype=float32), [[1], [1]])
    """
    from chainer.variable import as_variable
    k = _check_xs('argmax_crf1d', cost, xs)
    alpha = as_variable(xs[0])
    xp = alpha.xp
    done = []
    back = []  # back[i][n, j]: best previous label for label j at step i+1
    for x in xs[1:]:
        b = as_array(x).shape[0]
        if alpha.shape[0] > b:
            done.append(alpha[b:])
            alpha = alpha[:b]
        scores = _transitions(alpha, cost, k)                # (b, k, k)
        best = scores.array.argmax(axis=1)                   # (b, k)
        back.append(best)
        alpha = scores[xp.arange(b)[:, None], best,
                       xp.arange(k)[None, :]] + x
    alpha = concat0([alpha] + done[::-1])
    last = alpha.array.argmax(axis=1)
    score = alpha[xp.arange(last.shape[0]), last]

    sizes = [as_array(x).shape[0] for x in xs]
    path = [last[:sizes[-1]]]
    for i in range(len(xs) - 2, -1, -1):
        nxt = path[-1]
        cont = back[i][xp.arange(nxt.shape[0]), nxt]
        path.append(xp.concatenate([cont, last[nxt.shape[0]:sizes[i]]]))
    return score, [p.astype(numpy.int32) for p in path[::-1]]
