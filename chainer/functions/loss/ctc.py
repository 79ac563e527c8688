"""``F.connectionist_temporal_classification`` (CTC).

The forward-backward recursions run in log space over time (the only
loop), vectorized over the batch and the extended label sequence
``blank, l1, blank, l2, ..., blank``.  The gradient (softmax minus the
label posterior) is computed in forward and scaled by ``gy`` in
backward; as in Chainer it cannot be differentiated again.
"""

import collections.abc

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import (check_floats, invalid_type,
                                       names_bad_arguments)
from chainer.functions.loss._util import (as_array, check_int_labels,
                                          check_label_range, check_reduce,
                                          log_softmax_array)

_LOG_ZERO = -1e10  # Chainer reports an infeasible alignment as loss 1e10


def _lse3(xp, a, b, c=None):
    out = xp.logaddexp(a, b)
    return out if c is None else xp.logaddexp(out, c)


class ConnectionistTemporalClassification(FunctionNode):
    """CTC loss of ``T`` score arrays ``(B, V)`` against labels."""

    def __init__(self, t, blank_symbol, input_length, label_length,
                 reduce='mean'):
        self.t = t
        self.blank_symbol = blank_symbol
        self.input_length = input_length
        self.label_length = label_length
        self.reduce = reduce

    def forward(self, xs):
        check_floats(self, xs, ['x[{}]'.format(i) for i in range(len(xs))])
        xp = backend.get_array_module(*xs)
        self.retain_inputs(tuple(range(len(xs))))
        dtype = xs[0].dtype
        work = numpy.promote_types(dtype, numpy.float32)
        x = xp.stack(xs).astype(work, copy=False)            # (T, B, V)
        n_t, n_b, _ = x.shape
        t = self.t
        blank = self.blank_symbol
        in_len = self.input_length
        lab_len = self.label_length
        n_s = 2 * t.shape[1] + 1
        # The extended labels and which of their states are real.
        lp = xp.full((n_b, n_s), blank, t.dtype)
        lp[:, 1::2] = t
        valid_s = xp.arange(n_s)[None, :] < (2 * lab_len + 1)[:, None]
        # a state is reached from two back unless that holds the same
        # symbol (blank to blank; a label equal to the blank is skipped
        # into, as in Chainer)
        skip = xp.zeros((n_b, n_s), bool)
        skip[:, 2:] = lp[:, 2:] != lp[:, :-2]

        log_y = log_softmax_array(xp, x, axis=2)
        em = xp.take_along_axis(
            log_y, xp.broadcast_to(lp[None], (n_t, n_b, n_s)), axis=2)
        em = xp.where(valid_s[None], em, -numpy.inf)
        neg = xp.full((n_b, 1), -numpy.inf, work)
        neg2 = xp.full((n_b, 2), -numpy.inf, work)

        alpha = xp.full((n_t, n_b, n_s), -numpy.inf, work)
        alpha[0, :, :2] = em[0, :, :2]
        for i in range(1, n_t):
            a = alpha[i - 1]
            a1 = xp.concatenate([neg, a], axis=1)[:, :n_s]
            a2 = xp.where(skip, xp.concatenate([neg2, a], axis=1)[:, :n_s],
                          -numpy.inf)
            alpha[i] = _lse3(xp, a, a1, a2) + em[i]

        # beta[i, s]: log-prob of the rest after state s at step i
        # (emissions after i only), 0 at the two final states.
        s_idx = xp.arange(n_s)[None, :]
        final = (s_idx == 2 * lab_len[:, None]) | \
            (s_idx == 2 * lab_len[:, None] - 1)
        init = xp.where(final, 0.0, -numpy.inf).astype(work)
        beta = xp.full((n_t, n_b, n_s), -numpy.inf, work)
        last = (in_len - 1)[:, None]
        beta[n_t - 1] = xp.where(last == n_t - 1, init, -numpy.inf)
        skip_next = xp.concatenate([skip, xp.zeros((n_b, 2), bool)],
                                   axis=1)[:, 2:]
        for i in range(n_t - 2, -1, -1):
            b = beta[i + 1] + em[i + 1]
            b1 = xp.concatenate([b, neg], axis=1)[:, 1:]
            b2 = xp.where(skip_next, xp.concatenate([b, neg2], axis=1)[:, 2:],
                          -numpy.inf)
            rec = _lse3(xp, b, b1, b2)
            beta[i] = xp.where(last == i, init,
                               xp.where(last > i, rec, -numpy.inf))

        # log p(t | x) from the states at the last step of each sequence.
        a_last = alpha[in_len - 1, xp.arange(n_b)]             # (B, S)
        sel = xp.where(init == 0, a_last, -numpy.inf)
        m = sel.max(axis=1, keepdims=True)
        m = xp.where(xp.isfinite(m), m, 0)
        with numpy.errstate(divide='ignore'):  # log 0 = -inf: infeasible
            logp = xp.log(xp.exp(sel - m).sum(axis=1)) + m[:, 0]
        feasible = logp > _LOG_ZERO
        loss = xp.where(feasible, -logp, -_LOG_ZERO)

        # Posterior of each class at each step: softmax - posterior is
        # the gradient of -log p with respect to the scores.
        gamma = alpha + beta - xp.where(feasible, logp, 0)[None, :, None]
        post_s = xp.where(feasible[None, :, None], xp.exp(gamma), 0)
        post = xp.zeros(x.shape, work)
        idx = xp.broadcast_to(lp[None], post_s.shape)
        if xp is numpy:
            tb = numpy.indices(idx.shape)
            numpy.add.at(post, (tb[0], tb[1], idx), post_s)
        else:  # pragma: no cover
            import cupyx
            tb = xp.indices(idx.shape)
            cupyx.scatter_add(post, (tb[0], tb[1], idx), post_s)
        step_mask = (xp.arange(n_t)[:, None] < in_len[None, :])[:, :, None]
        self._grad = ((xp.exp(log_y) - post) * step_mask).astype(dtype)
        if self.reduce == 'mean':
            return xp.asarray(loss.mean() if n_b else 0, dtype),
        return loss.astype(dtype),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        # The inputs join the gradient's node only so that differentiating
        # it again reaches _CTCGrad.backward, which refuses.
        gxs = _CTCGrad(self._grad, self.reduce).apply(
            (gy,) + self.get_retained_inputs())
        return tuple(gxs[i] for i in indexes)


class _CTCGrad(FunctionNode):
    """``gy`` times the gradient found in forward (no double backprop)."""

    def __init__(self, grad, reduce):
        self.grad = grad
        self.reduce = reduce

    def forward(self, inputs):
        gy = inputs[0]
        g = self.grad
        if self.reduce == 'mean':
            scale = gy / max(g.shape[1], 1)
        else:
            scale = gy[:, None]
        return tuple((g[i] * scale).astype(g.dtype, copy=False)
                     for i in range(len(g)))

    def backward(self, indexes, grad_outputs):
        raise RuntimeError(
            'connectionist_temporal_classification does not support double '
            'backprop')


@names_bad_arguments
def connectionist_temporal_classification(
        x, t, blank_symbol, input_length=None, label_length=None,
        reduce='mean'):
    """Connectionist Temporal Classification loss function.

    The negative log-likelihood of the label sequences ``t`` summed over
    all alignments of them (with blanks and repeats) to the inputs.

    Args:
        x (list of ~chainer.Variable or array): ``T`` arrays of shape
            ``(B, V)``: the unnormalized scores (pre-softmax) of each step.
        t (~chainer.Variable or array): Labels, ``(B, L)`` integers in
            ``[0, V)``, none equal to ``blank_symbol``.
        blank_symbol (int): The index of the blank in ``[0, V)``.
        input_length (array): The length of each input sequence, ``(B,)``
            (``T`` by default).
        label_length (array): The length of each label sequence, ``(B,)``
            (``L`` by default).
        reduce (str): ``'mean'`` (over the batch) or ``'no'`` (``(B,)``).

    Returns:
        ~chainer.Variable: The loss, of ``x``'s dtype.  An impossible
        alignment (the labels need more steps than the input has) gives
        ``1e10``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = [np.zeros((1, 3), np.float32) for _ in range(2)]
    >>> F.connectionist_temporal_classification(
    ...     x, np.array([[1]], np.int32), 0).array
    array(1.0986123, dtype=float32)
    """
    if not isinstance(x, collections.abc.Sequence) or \
            isinstance(x, (str, bytes)):
        raise TypeError('connectionist_temporal_classification: x must be a '
                        'list of Variables, got {}'.format(type(x).__name__))
    if not isinstance(blank_symbol, (int, numpy.integer)) or \
            blank_symbol < 0:
        raise TypeError('connectionist_temporal_classification: '
                        'blank_symbol must be non-negative integer, got '
                        '{!r}'.format(blank_symbol))
    check_reduce('connectionist_temporal_classification', reduce)
    label = 'ConnectionistTemporalClassification'
    if not x:
        raise ValueError('{}: x must not be empty'.format(label))
    x0 = as_array(x[0])
    ta = as_array(t)
    check_int_labels(label, ta)
    if x0.ndim != 2 or ta.ndim != 2 or ta.shape[0] != x0.shape[0]:
        raise invalid_type(label, 'x[i]: (B, V), t: (B, L)',
                           'x[0]: {}, t: {}'.format(x0.shape, ta.shape))
    n_b, n_v = x0.shape
    if blank_symbol >= n_v:
        raise ValueError('{}: blank_symbol ({}) must be smaller than the '
                         'number of classes ({})'.format(
                             label, blank_symbol, n_v))
    check_label_range(label, ta, n_v)
    xp = backend.get_array_module(x0)
    if input_length is None:
        input_length = xp.full(n_b, len(x), numpy.int64)
    if label_length is None:
        label_length = xp.full(n_b, ta.shape[1], numpy.int64)
    input_length = xp.asarray(as_array(input_length)).astype(numpy.int64)
    label_length = xp.asarray(as_array(label_length)).astype(numpy.int64)
    if xp is numpy and (
            (input_length < 1).any() or (input_length > len(x)).any() or
            (label_length < 0).any() or (label_length > ta.shape[1]).any()):
        raise ValueError(
            '{}: input_length must be in [1, {}] and label_length in '
            '[0, {}]'.format(label, len(x), ta.shape[1]))
    return ConnectionistTemporalClassification(
        ta, blank_symbol, input_length, label_length, reduce).apply(
            tuple(x))[0]
