"""``F.negative_sampling``: the word2vec negative sampling loss."""

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import (chainer_text, check_float, check_floats,
                                       invalid_type, names_bad_arguments)
from chainer.functions.loss._util import (check_int_labels,
                                          check_label_range, expand_gy,
                                          sigmoid, stable_softplus)


class NegativeSamplingFunction(FunctionNode):
    """Negative sampling loss of ``x`` against the rows of ``W`` picked by
    the samples (column 0: the true labels)."""

    ignore_label = -1

    def __init__(self, samples, reduce='sum'):
        self.samples = samples
        self.reduce = reduce

    def _scores(self, xp, x, W):
        return xp.einsum('nsd,nd->ns', W[self.samples], x)

    def forward(self, inputs):
        x, t, W = inputs
        check_floats(self, (x, W), ('x', 'W'))
        self.retain_inputs((0, 2))
        xp = backend.get_array_module(x)
        samples = self.samples
        # The sign flips the true label's score: -log(sigmoid(s_t)) =
        # softplus(-s_t), and each negative gives softplus(s_j).
        sign = xp.ones(samples.shape, x.dtype)
        sign[:, 0] = -1
        mask = (t != self.ignore_label).astype(x.dtype)[:, None]
        self._sign_mask = sign * mask
        self._mask = mask
        loss = stable_softplus(xp, self._scores(xp, x, W) * sign) * mask
        if self.reduce == 'sum':
            return xp.asarray(loss.sum(), x.dtype),
        return loss.sum(axis=1).astype(x.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.array.get_item import GetItemGrad
        from chainer.functions.array.reshape import reshape
        from chainer.functions.math.sum import sum as _sum
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        n, d = x.shape
        ws = W[self.samples]                                   # (N, S, D)
        score = _sum(ws * reshape(x, (n, 1, d)), axis=2) * self._sign_mask
        # d softplus(u) / du = sigmoid(u).
        g = sigmoid(score) * self._sign_mask
        g = g * gy if self.reduce == 'sum' else g * expand_gy(gy)
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(_sum(ws * expand_gy(g, 2), axis=1))
            elif i == 2:
                contrib = expand_gy(g, 2) * reshape(x, (n, 1, d))
                ret.append(GetItemGrad(self.samples, W.shape, W.dtype).apply(
                    (contrib,))[0])
            else:
                ret.append(None)
        return tuple(ret)


@names_bad_arguments
def negative_sampling(x, t, W, sampler, sample_size, reduce='sum',
                      **kwargs):
    """Negative sampling loss function.

    For each row, the true label ``t[n]`` and ``sample_size`` negatives
    drawn by ``sampler`` score ``s_k = W[k] . x[n]``; the loss is
    ``softplus(-s_t) + sum_j softplus(s_j)``, i.e.
    ``-log sigmoid(s_t) - sum_j log sigmoid(-s_j)``.  Rows whose label is
    -1 are ignored.

    Args:
        x (~chainer.Variable or array): Input features, ``(N, D)``.
        t (~chainer.Variable or array): Labels, ``(N,)`` integers in
            ``[0, V)`` or -1 (ignored).
        W (~chainer.Variable or array): Output weights, ``(V, D)``.
        sampler (callable): ``sampler(shape)`` returns an integer array of
            that shape, ``(N, sample_size + 1)``; its column 0 is replaced
            by ``t``.
        sample_size (int): Number of negative samples per row.
        reduce (str): ``'sum'`` (a scalar) or ``'no'`` (``(N,)``).
        return_samples (bool): Also return the samples used (keyword
            only).

    Returns:
        ~chainer.Variable or tuple: The loss, of ``x``'s dtype; with
        ``return_samples=True``, ``(loss, samples)``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.zeros((1, 2), np.float32)
    >>> W = np.ones((3, 2), np.float32)
    >>> sampler = lambda shape: np.full(shape, 2, np.int32)
    >>> F.negative_sampling(x, np.array([0], np.int32), W, sampler, 1).array
    array(1.3862944, dtype=float32)
    """
    return_samples = kwargs.pop('return_samples', False)
    if kwargs:
        raise TypeError('negative_sampling() got unexpected keyword '
                        'argument(s) {}'.format(
                            ', '.join(repr(k) for k in kwargs)))
    if reduce not in ('sum', 'no'):
        raise chainer_text(ValueError(
            "only 'sum' and 'no' are valid for 'reduce', but {!r} is "
            'given'.format(reduce)))
    from chainer.functions.loss._util import as_array
    xa, ta, wa = as_array(x), as_array(t), as_array(W)
    check_float('NegativeSamplingFunction', xa, 'x')
    check_int_labels('NegativeSamplingFunction', ta)
    if xa.ndim != 2 or wa.ndim != 2 or xa.shape[1] != wa.shape[1] or \
            ta.shape != xa.shape[:1]:
        raise invalid_type(
            'NegativeSamplingFunction', 'x: (N, D), t: (N,), W: (V, D)',
            'x: {}, t: {}, W: {}'.format(xa.shape, ta.shape, wa.shape))
    check_label_range('NegativeSamplingFunction', ta, wa.shape[0], -1)
    xp = backend.get_array_module(xa)
    samples = xp.asarray(sampler((xa.shape[0], sample_size + 1)))
    samples[:, 0] = xp.where(ta == -1, 0, ta)
    check_label_range('NegativeSamplingFunction', samples, wa.shape[0])
    loss = NegativeSamplingFunction(samples, reduce).apply((x, t, W))[0]
    if return_samples:
        samples = samples.copy()
        samples[:, 0] = ta
        return loss, samples
    return loss
