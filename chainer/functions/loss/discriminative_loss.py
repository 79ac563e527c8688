"""``F.discriminative_margin_based_clustering_loss`` (De Brabandere et
al., 2017, https://arxiv.org/abs/1708.02551) for instance segmentation.

Label ``c`` in ``1..max_embedding_dim`` names an instance (slot ``c - 1``);
0 (background) and larger labels are not clustered.  The cluster means are
taken per image; an absent instance has a zero mean.  A composition of
differentiable functions (double backprop works).
"""

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import (check_float, invalid_type,
                                       names_bad_arguments)
from chainer.functions.loss._util import (as_array, check_int_labels,
                                          relu)


class _SafeSqrt(FunctionNode):
    """sqrt whose gradient at 0 is taken as 0 (not inf), so a zero
    distance (e.g. between two absent clusters) gives no NaN."""

    @property
    def label(self):
        return 'sqrt'

    def forward(self, inputs):
        self.retain_outputs((0,))
        return backend.get_array_module(inputs[0]).sqrt(inputs[0]),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        pos = (y.array > 0).astype(y.dtype)
        return grad_outputs[0] * pos * 0.5 / (y + (1 - pos)),


def _norm(v, axis, norm):
    from chainer.functions.math.basic_math import absolute
    from chainer.functions.math.sum import sum as _sum
    if norm == 1:
        return _sum(absolute(v), axis=axis)
    return _SafeSqrt().apply((_sum(v * v, axis=axis),))[0]


@names_bad_arguments
def discriminative_margin_based_clustering_loss(
        embeddings, labels, delta_v, delta_d, max_embedding_dim, norm=1,
        alpha=1.0, beta=1.0, gamma=0.001):
    """Discriminative margin-based clustering loss function.

    Pixel embeddings of one instance are pulled to their mean (variance
    loss), the means of different instances pushed apart (distance loss),
    and the means kept small (regularization loss).  With ``mu[b, c]`` the
    mean embedding of instance ``c`` in image ``b`` and ``||.||`` the L1 or
    L2 norm:

    * variance: for each instance slot, the sum over the batch of
      ``max(||mu - e_p|| - delta_v, 0) ** 2`` over its pixels, divided by
      its pixel count; averaged over the ``max_embedding_dim`` slots;
    * distance: ``max(2 delta_d - ||mu[b, i] - mu[b, j]||, 0) ** 2``
      averaged over the batch and the ordered pairs ``i != j`` of slots;
    * regularization: for each slot, the norm of its means over the batch
      and the embedding axis together, summed over the slots and divided
      by ``max_embedding_dim * B`` (as Chainer computes it).

    Args:
        embeddings (~chainer.Variable or array): Embeddings
            ``(B, max_embedding_dim, H, W)``.
        labels (array): Instance labels ``(B, H, W)`` (0: background).
        delta_v (float): Distance below which the variance is not
            penalized.
        delta_d (float): Half the distance above which cluster centers
            are not penalized.
        max_embedding_dim (int): The embedding size (``embeddings.shape[1]``)
            and the number of instance slots.
        norm (int): 1 (L1) or 2 (L2).
        alpha (float): Weight of the variance loss.
        beta (float): Weight of the distance loss.
        gamma (float): Weight of the regularization loss.

    Returns:
        tuple of ~chainer.Variable: ``(alpha * variance, beta * distance,
        gamma * regularization)``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> emb = np.zeros((1, 2, 1, 2), np.float32)
    >>> lab = np.array([[[1, 2]]], np.int32)
    >>> [float(v.array) for v in
    ...  F.discriminative_margin_based_clustering_loss(
    ...      emb, lab, 0.5, 1.5, 2)]
    [0.0, 9.0, 0.0]
    """
    from chainer.functions.array.reshape import reshape
    from chainer.functions.math.matmul import matmul
    from chainer.functions.math.sum import sum as _sum
    from chainer.variable import as_variable
    func = 'discriminative_margin_based_clustering_loss'
    if norm not in (1, 2):
        raise ValueError('{}: norm can only be 1 or 2, got {!r}'.format(
            func, norm))
    if max_embedding_dim <= 0:
        raise ValueError('{}: max_embedding_dim has to be positive, got '
                         '{}'.format(func, max_embedding_dim))
    ea = as_array(embeddings)
    labels = as_array(labels)
    check_float(func, ea, 'embeddings')
    check_int_labels(func, labels, 'labels')
    if labels.size and int(labels.min()) < 0:
        raise ValueError(
            '{}: labels must be non-negative (0 is the background), but got '
            '{}'.format(func, int(labels.min())))
    if ea.ndim != 4 or labels.shape != ea.shape[:1] + ea.shape[2:]:
        raise invalid_type(
            func, 'embeddings: (B, C, H, W), labels: (B, H, W)',
            'embeddings: {}, labels: {}'.format(ea.shape, labels.shape))
    if ea.shape[1] != max_embedding_dim:
        raise ValueError('{}: embeddings.shape[1] ({}) must equal '
                         'max_embedding_dim ({})'.format(
                             func, ea.shape[1], max_embedding_dim))
    xp = backend.get_array_module(ea)
    dtype = ea.dtype
    b, c = ea.shape[:2]
    m = max_embedding_dim
    emb = reshape(as_variable(embeddings), (b, c, -1))           # (B, C, P)
    lab = labels.reshape(b, -1)
    masks = (lab[:, None, :] == xp.arange(1, m + 1)[None, :, None]).astype(
        dtype)                                                  # (B, M, P)
    counts = masks.sum(axis=2)                                   # (B, M)
    inv = (1.0 / xp.maximum(counts, 1)).astype(dtype)[:, :, None]
    mu = matmul(masks, emb, transb=True) * inv                   # (B, M, C)

    # Variance: distances of each pixel to each slot's mean.
    diff = reshape(emb, (b, 1, c, -1)) - reshape(mu, (b, m, c, 1))
    hinge = relu(_norm(diff, 2, norm) - delta_v)                 # (B, M, P)
    per_slot = _sum(hinge * hinge * masks, axis=(0, 2))          # (M,)
    n_slot = counts.sum(axis=0)
    slot_w = xp.where(n_slot > 0, 1.0 / xp.maximum(n_slot, 1), 0) / m
    l_var = _sum(per_slot * slot_w.astype(dtype))

    # Distance between the means of different slots.
    if m > 1:
        pair = reshape(mu, (b, m, 1, c)) - reshape(mu, (b, 1, m, c))
        hinge_d = relu(2 * delta_d - _norm(pair, 3, norm))       # (B, M, M)
        off = (1 - xp.eye(m, dtype=dtype))[None]
        l_dist = _sum(hinge_d * hinge_d * off) * (1.0 / (b * m * (m - 1)))
    else:
        l_dist = _sum(mu * 0)
    # Regularization.
    mu_t = reshape(_transpose_bmc(mu), (m, -1))                  # (M, B*C)
    l_reg = _sum(_norm(mu_t, 1, norm)) * (1.0 / (m * b))
    return l_var * alpha, l_dist * beta, l_reg * gamma


def _transpose_bmc(mu):
    from chainer.functions.array.transpose import transpose
    return transpose(mu, (1, 0, 2))
