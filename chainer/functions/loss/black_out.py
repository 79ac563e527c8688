"""``F.black_out``: the BlackOut loss (a sampled softmax).

A composition of differentiable functions, so it supports double
backprop.
"""

from chainer.functions._errors import (check_float, invalid_type,
                                       names_bad_arguments)
from chainer.functions.loss._util import (as_array, check_int_labels,
                                          check_label_range, concat0)


@names_bad_arguments
def black_out(x, t, W, samples, reduce='mean'):
    """BlackOut loss function.

    With the scores ``s_k = W[k] . x[n]`` of the true label ``t[n]`` and of
    the negative ``samples[n]``, and ``Z`` the log-sum-exp of those
    scores, the loss of a row is::

        -(s_t - Z) - sum_j log(1 - exp(s_j - Z))

    Args:
        x (~chainer.Variable or array): Input features, ``(N, D)``.
        t (~chainer.Variable or array): Labels, ``(N,)`` integers in
            ``[0, V)``.
        W (~chainer.Variable or array): Output weights, ``(V, D)``.
        samples (~chainer.Variable or array): Negative samples, ``(N, S)``
            integers in ``[0, V)``.
        reduce (str): ``'mean'`` (over the batch) or ``'no'`` (``(N,)``).

    Returns:
        ~chainer.Variable: The loss, of ``x``'s dtype.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.ones((1, 2), np.float32)
    >>> W = np.array([[1., 0.], [0., 0.]], np.float32)
    >>> loss = F.black_out(x, np.array([0], np.int32), W,
    ...                    np.array([[1]], np.int32))
    >>> bool(loss.array > 0)
    True
    """
    from chainer.functions.array.reshape import reshape
    from chainer.functions.array.transpose import transpose
    from chainer.functions.math.average import average
    from chainer.functions.math.exponential import exp, log
    from chainer.functions.math.logsumexp import logsumexp
    from chainer.functions.math.sum import sum as _sum
    from chainer.variable import as_variable

    if reduce not in ('mean', 'no'):
        raise ValueError("black_out: only 'mean' and 'no' are valid for "
                         "'reduce', but {!r} is given".format(reduce))
    xa, ta, wa, sa = (as_array(v) for v in (x, t, W, samples))
    check_float('BlackOut', xa, 'x')
    check_int_labels('BlackOut', ta, 't')
    check_int_labels('BlackOut', sa, 'samples')
    if xa.ndim != 2 or wa.ndim != 2 or xa.shape[1] != wa.shape[1] or \
            ta.shape != xa.shape[:1] or sa.ndim != 2 or \
            sa.shape[0] != xa.shape[0]:
        raise invalid_type(
            'BlackOut', 'x: (N, D), t: (N,), W: (V, D), samples: (N, S)',
            'x: {}, t: {}, W: {}, samples: {}'.format(
                xa.shape, ta.shape, wa.shape, sa.shape))
    check_label_range('BlackOut', ta, wa.shape[0])
    check_label_range('BlackOut', sa, wa.shape[0])
    n, d = xa.shape
    x = as_variable(x)
    W = as_variable(W)
    neg_y = _sum(W[sa] * reshape(x, (n, 1, d)), axis=2)   # (N, S)
    pos_y = _sum(W[ta] * x, axis=1)                       # (N,)
    scores = concat0([reshape(pos_y, (1, n)), transpose(neg_y)])
    logz = logsumexp(scores, axis=0)                      # (N,)
    neg = log(1 - exp(neg_y - reshape(logz, (n, 1))))
    loss = -(pos_y - logz + _sum(neg, axis=1))
    if reduce == 'mean':
        return average(loss)
    return loss
