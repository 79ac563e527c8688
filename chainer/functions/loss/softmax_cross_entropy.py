"""``F.softmax_cross_entropy``: the loss of every classifier.

One node does the whole loss: a max-shifted log-softmax (finite for logits
of any size), the pick of each label's entry (no loop over the batch),
masking, class weights and the reduction.  The softmax is cached for
backward (``cache_score``), whose gradient is ``(softmax(x) - onehot(t)) *
weight * gy``.  Every step rounds as Chainer's does (the whole log-softmax
is formed, then the labels' entries picked), so printed losses and
gradients match Chainer's to the last bit; except over 1,024 classes and
more in float32 (a language model's vocabulary), where the C loops take
it in fewer passes, to float tolerance (see ``_FUSED_CLASSES``)."""

import numpy

import chainer
from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import expr_bool_error
from chainer.functions.loss._util import (check_reduce,
                                          log_softmax_array)

try:
    from chainer.utils import _loops
except ImportError:  # pragma: no cover - a build without a C compiler
    _loops = None

# Over many classes (an LSTM language model's 10,000 words) the C loops
# take the loss in two passes over each row and its gradient in one
# (_loops.softmax_ce_lse, softmax_ce_grad), where NumPy makes six passes
# over the batch forward (the softmax cached) and two backward: for 20 x
# 10,000 float32 logits, forward 0.12 against 0.41 ms, backward about even
# (0.11 ms; it keeps two numbers a row, not the softmax); the LSTM
# benchmark's step 134 -> 120 ms.  Their exponential rounds
# differently from NumPy's (within 1.25 ulp of the exact one), so the bits
# differ from Chainer's within float tolerance; below _FUSED_CLASSES
# classes (every classifier of a tutorial) the NumPy path keeps Chainer's
# bits.
_fused = _loops if hasattr(_loops, 'softmax_ce_lse') else None
_FUSED_CLASSES = 1024
_f32 = numpy.dtype(numpy.float32)


def _fused_ok(x):
    return (_fused is not None and type(x) is numpy.ndarray and
            x.dtype == _f32 and x.ndim == 2 and len(x) > 0 and
            x.shape[1] >= _FUSED_CLASSES and x.flags.c_contiguous)


class SoftmaxCrossEntropy(FunctionNode):
    """Softmax cross entropy loss (hard labels or soft targets)."""

    _y = None  # the cached softmax
    _lse = None  # the fused path's (max, log-sum-exp) of each row
    soft_target = False  # whether t holds probabilities (set by forward)
    eps = 1e-7  # Chainer's constant, kept for inspection

    def __init__(self, normalize=True, cache_score=True, class_weight=None,
                 ignore_label=-1, reduce='mean', soft_target_loss='cross-entropy',
                 enable_double_backprop=False):
        self.normalize = normalize
        self.cache_score = cache_score
        if class_weight is not None:
            # Checked at once, with Chainer's messages.
            if isinstance(class_weight, chainer.Variable):
                raise ValueError('class_weight should be a numpy.ndarray or '
                                 'cupy.ndarray, not a chainer.Variable')
            if class_weight.ndim != 1:
                raise ValueError('class_weight.ndim should be 1')
            if class_weight.dtype.kind != 'f':
                raise ValueError("The dtype of class_weight should be 'f'")
        self.class_weight = class_weight
        self.ignore_label = ignore_label
        self.reduce = reduce
        self.soft_target_loss = soft_target_loss
        self.enable_double_backprop = enable_double_backprop

    def forward(self, inputs):
        x, t = inputs
        xp = backend.get_array_module(x)
        self.soft_target = soft = t.dtype.kind != 'i'
        _check_types(x, t, soft)
        if not soft:
            self._check_labels(x, t)
        # both, always, as Chainer (hooks see them in backward)
        self.retain_inputs((0, 1))
        self._t = t
        self._n = x.shape[0]
        if not soft and _fused_ok(x):
            return self._forward_fused(x, t)
        # log_y = x - logsumexp(x), in Chainer's order of operations, so
        # that the loss and its gradient match Chainer's bit for bit.
        log_y = log_softmax_array(xp, x)
        if self.cache_score and not self.enable_double_backprop:
            self._y = xp.exp(log_y)
        if soft:
            return self._forward_soft(xp, log_y, t)
        tt, weight, valid = self._labels(xp, x, t)
        log_p = xp.take_along_axis(log_y, xp.expand_dims(tt, 1), 1)[:, 0]
        return self._reduce(xp, x, log_p, weight, valid)

    def _forward_fused(self, x, t):
        """The hard-label loss by the C loops: each row's maximum ``m`` and
        ``log(sum(exp(x - m)))``, kept for backward (in place of the
        softmax), and ``log p = (x[t] - m) - log_s``."""
        (n, c), tt, weight, valid = x.shape, *self._labels(numpy, x, t)
        m = numpy.empty(n, _f32)
        log_s = numpy.empty(n, _f32)
        _fused.softmax_ce_lse(m, log_s, x, n, c)
        self._lse = m, log_s
        log_p = x[numpy.arange(n), tt]
        log_p -= m
        log_p -= log_s
        return self._reduce(numpy, x, log_p, weight, valid)

    def _reduce(self, xp, x, log_p, weight, valid):
        """The loss from each label's ``log p``: weighted, then reduced."""
        log_p *= weight
        if self.reduce == 'mean':
            count = valid.sum() if self.normalize else self._n
            self._coeff = coeff = 1.0 / xp.maximum(count, 1)
            # float16 sums in float32, as Chainer's
            acc = numpy.promote_types(x.dtype, numpy.float32)
            return (log_p.sum(dtype=acc) * (-coeff).astype(acc)).astype(
                x.dtype),
        return -log_p,

    @property
    def y(self):
        """The softmax cached for backward (``cache_score``), or None."""
        if self._lse is not None and self.cache_score:
            m, log_s = self._lse
            x = self._retained_in_data[0]
            return numpy.exp(x - m[:, None] - log_s[:, None])
        return self._y

    def _labels(self, xp, x, t):
        """The labels with the ignored ones set to 0, each label's weight
        (0 where ignored) and the mask of the labels not ignored."""
        ignore = self.ignore_label
        valid = t != ignore
        tt = xp.where(valid, t, 0) if ignore is not None else t
        weight = valid.astype(x.dtype)
        if self.class_weight is not None:
            weight *= xp.asarray(self.class_weight, x.dtype)[tt]
        self._tt = tt
        self._weight = weight
        return tt, weight, valid

    def _forward_soft(self, xp, log_y, t):
        if self.soft_target_loss == 'kl-divergence':
            # Chainer's formula: log(t + 1e-7) keeps 0 log 0 finite (and
            # shows in the value, e.g. 3.5e-07 for t equal to softmax(x)).
            loss = (t * (xp.log(t + 1e-7) - log_y)).sum(axis=1)
        else:
            loss = -(t * log_y).sum(axis=1)
        if self.reduce == 'mean':
            # the sum times a Python float, in the loss's dtype, as Chainer
            coeff = 1.0 / max(loss.size, 1)
            self._coeff = xp.asarray(coeff)
            return (loss.sum(keepdims=True) * coeff).reshape(()),
        return loss,

    def _check_labels(self, x, t):
        n_class = x.shape[1]
        cw = self.class_weight
        if cw is not None and (getattr(cw, 'ndim', 1) != 1 or
                               len(cw) != n_class):
            raise ValueError(
                'SoftmaxCrossEntropy: class_weight must be a 1-d array of '
                'length {} (the number of classes), got shape {}'.format(
                    n_class, numpy.shape(cw)))
        _check_labels(self, t, n_class, self.ignore_label)

    def _gy_scale(self, gy):
        """The output gradient reshaped to broadcast over the class axis."""
        if self.reduce == 'mean':
            return gy * self._coeff.astype(gy.dtype)
        from chainer.functions.array.reshape import reshape
        return reshape(gy, gy.shape[:1] + (1,) + gy.shape[1:])

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        if 0 not in indexes:
            return None, None
        if self.enable_double_backprop:
            return self._backward_differentiable(gy), None
        x, t = self.get_retained_inputs()
        return _SoftmaxCrossEntropyGrad(self).apply((x, t, gy))[0], None

    def _backward_differentiable(self, gy):
        from chainer.functions.loss._util import softmax
        x = self.get_retained_inputs()[0]
        xp = x.xp
        y = softmax(x)
        t = self._t
        if self.soft_target:
            tsum = t.sum(axis=1, keepdims=True)
            gx = y * tsum - t
        else:
            gx = (y - _onehot(xp, self._tt, x.shape[1], x.dtype)) * \
                xp.expand_dims(self._weight, 1)
        return gx * self._gy_scale(gy)

    def grad_array(self, gy):
        """The input gradient as a raw array (fast path, no graph), in
        Chainer's order of operations: ``softmax(x) - t`` (soft targets,
        taken as normalized) or ``softmax(x) - onehot(t)``, times the
        labels' weights, times ``gy`` (and the mean's coefficient)."""
        xp = backend.get_array_module(gy)
        if self._lse is not None:
            return self._grad_fused(gy)
        if self._y is None:
            x = self._retained_in_data[0]
            gx = xp.exp(log_softmax_array(xp, x))
        else:
            gx = self._y.copy()  # backward may run again on the graph
        if self.soft_target:
            gx -= self._t
        else:
            if gx.ndim == 2:
                gx[xp.arange(len(gx)), self._tt] -= 1
            else:
                gx -= _onehot(xp, self._tt, gx.shape[1], gx.dtype)
            w = self._weight
            # (times 1 everywhere, the common case, changes nothing)
            if xp is not numpy or (w != 1).any():
                gx *= xp.expand_dims(w, 1)
        if self.reduce == 'mean':
            # Chainer's gy * coeff is a float64 scalar under NumPy 1 (two
            # scalars), rounded to gx's dtype by the in-place multiply.
            gx *= (gy.astype(numpy.float64) * self._coeff).astype(gx.dtype)
        else:
            gx *= xp.expand_dims(gy, 1)
        return gx

    def _grad_fused(self, gy):
        # (exp(x - m - log_s) - onehot(t)) * scale, one scale per row: the
        # label's weight times gy (and the mean's coefficient)
        x = self._retained_in_data[0]
        m, log_s = self._lse
        if self.reduce == 'mean':
            g = (gy.astype(numpy.float64) * self._coeff).astype(_f32)
            scale = self._weight * g
        else:
            scale = self._weight * gy.astype(_f32, copy=False)
        (n, c), gx = x.shape, numpy.empty(x.shape, _f32)
        _fused.softmax_ce_grad(gx, x, m, log_s,
                               self._tt.astype(numpy.int64, copy=False),
                               scale, n, c)
        return gx


def _check_types(x, t, soft):
    # Chainer's check_type_forward branches on ``t.dtype.kind == 'i'`` with
    # a Python ``if``; when a check fails, the re-run that words the message
    # sees an Expr there, so every bad input ends in this RuntimeError.
    if soft:
        ok = x.dtype.kind == 'f' and t.dtype.kind == 'f' and \
            x.shape == t.shape
    else:
        ok = x.dtype.kind == 'f' and x.ndim >= 2 and \
            t.ndim == x.ndim - 1 and x.shape[0] == t.shape[0] and \
            x.shape[2:] == t.shape[1:]
    if not ok:
        raise expr_bool_error()


def _check_labels(func, t, n_class, ignore_label):
    # In debug mode, Chainer's ValueError.  Otherwise a label outside
    # [0, n) (and not the ignore label) is an IndexError with NumPy's text
    # (Chainer's, which indexes with the labels), naming the first such
    # label; Chainer wrapped labels in [-n, 0) silently (a wrong answer).
    # On the GPU this check would cost a device sync, so it runs in debug
    # mode only there.
    import chainer
    xp = backend.get_array_module(t)
    if t.size == 0:
        return
    if xp is not numpy and not chainer.config.debug:
        return
    bad = (t < 0) | (t >= n_class)
    if ignore_label is not None:
        bad &= t != ignore_label
    if not bad.any():
        return
    if chainer.config.debug:
        raise ValueError(
            'Each label `t` need to satisfy `0 <= t < x.shape[1] or '
            't == {}`'.format(ignore_label))
    where = tuple(int(i) for i in numpy.argwhere(backend.CpuDevice().send(
        bad))[0])
    label = int(t[where])
    raise IndexError('index {} is out of bounds for axis 0 with size '
                     '{}'.format(label, n_class))


def _onehot(xp, tt, n_class, dtype):
    # Broadcast comparison of the labels (on axis 1) with the class ids.
    tt = xp.expand_dims(tt, 1)
    ids = xp.arange(n_class).reshape((1, n_class) + (1,) * (tt.ndim - 2))
    return (tt == ids).astype(dtype)


class _SoftmaxCrossEntropyGrad(FunctionNode):
    """The gradient without a graph (``enable_double_backprop=False``); its
    inputs are Chainer's, ``(x, t, gy)``."""

    def __init__(self, func):
        self.func = func

    @property
    def label(self):
        return '_SoftmaxCrossEntropyGrad_NoDoubleBackprop'

    def forward(self, inputs):
        return self.func.grad_array(inputs[2]),

    def backward(self, indexes, grad_outputs):
        raise RuntimeError(
            'softmax_cross_entropy: the gradient cannot be differentiated '
            'again; pass enable_double_backprop=True to do so')


def softmax_cross_entropy(
        x, t, normalize=True, cache_score=True, class_weight=None,
        ignore_label=-1, reduce='mean', enable_double_backprop=False,
        soft_target_loss='cross-entropy'):
    """Computes cross entropy loss for pre-softmax activations.

    Args:
        x (~chainer.Variable or array): Unnormalized log probabilities
            (logits) of shape ``(N, n_class)`` or ``(N, n_class, d1, ...)``;
            the class axis is 1.
        t (~chainer.Variable or array): Either integer labels of shape
            ``(N,)`` / ``(N, d1, ...)`` (each in ``[0, n_class)`` or equal
            to ``ignore_label``), or a float array of ``x``'s shape, a soft
            target (a probability distribution over the class axis).
        normalize (bool): With ``reduce='mean'`` and hard labels, divide
            the summed loss by the number of labels that are not ignored
            (True) or by the batch size ``N`` (False).
        cache_score (bool): Keep the softmax computed in forward for
            backward (faster, more memory).
        class_weight (array): Weights of the classes, shape ``(n_class,)``:
            each label's loss is multiplied by its class's weight (hard
            labels only).
        ignore_label (int): Label value that contributes neither loss nor
            gradient.
        reduce (str): ``'mean'`` (a scalar) or ``'no'`` (the loss of each
            label, of ``t``'s shape for hard labels and ``x.shape`` less
            axis 1 for soft targets; ignored labels give 0).
        enable_double_backprop (bool): Build the gradient with
            differentiable functions, so it can be differentiated again.
        soft_target_loss (str): For soft targets, ``'cross-entropy'``
            (``-sum(t log softmax(x))``) or ``'kl-divergence'`` (that plus
            ``sum(t log t)``).  Their mean is over all loss elements.

    Returns:
        ~chainer.Variable: The loss, of ``x``'s dtype.

    Raises:
        IndexError: A label outside ``[0, n_class)`` that is not
            ``ignore_label``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.array([[-1, 0, 1, 2], [2, 0, 1, -1]], np.float32)
    >>> t = np.array([3, 0], np.int32)
    >>> F.softmax_cross_entropy(x, t)
    variable(0.44018966)
    >>> F.softmax_cross_entropy(x, t, reduce='no').array
    array([0.44018966, 0.44018966], dtype=float32)
    """
    check_reduce('softmax_cross_entropy', reduce)
    if soft_target_loss not in ('cross-entropy', 'kl-divergence'):
        raise ValueError(
            "softmax_cross_entropy: soft_target_loss must be "
            "'cross-entropy' or 'kl-divergence', got {!r}".format(
                soft_target_loss))
    if class_weight is not None and not hasattr(class_weight, 'ndim') and \
            not isinstance(class_weight, chainer.Variable):
        class_weight = numpy.asarray(class_weight)
    if enable_double_backprop:
        ta = t.array if isinstance(t, chainer.Variable) else t
        if getattr(ta, 'dtype', None) is not None and ta.dtype.kind == 'i':
            return _composed(x, ta, normalize, class_weight, ignore_label,
                             reduce)
    return SoftmaxCrossEntropy(
        normalize, cache_score, class_weight, ignore_label, reduce,
        soft_target_loss, enable_double_backprop).apply((x, t))[0]


def _composed(x, t, normalize, class_weight, ignore_label, reduce):
    """Hard-label softmax cross entropy as a composition of differentiable
    functions (``enable_double_backprop=True``), in Chainer's order:
    ``-log_softmax(x)`` (times the class weights), each label's entry
    picked, the ignored ones masked, then the mean's division and sum, so
    that the loss and its derivatives of every order round as Chainer's."""
    from chainer.functions.activation.log_softmax import log_softmax
    from chainer.functions.array.broadcast import broadcast_to
    from chainer.functions.array.reshape import reshape
    from chainer.functions.array.rollaxis import rollaxis
    from chainer.functions.array.select_item import select_item
    from chainer.functions.math.sum import sum as _sum
    xa = x.array if isinstance(x, chainer.Variable) else x
    xp = backend.get_array_module(xa)
    check = SoftmaxCrossEntropy(normalize, True, class_weight, ignore_label,
                                reduce)
    _check_types(xa, t, False)
    check._check_labels(xa, t)
    loss = -log_softmax(x)
    if class_weight is not None:
        shape = [1] * xa.ndim
        shape[1] = -1
        weight = xp.asarray(class_weight, xa.dtype).reshape(shape)
        loss = loss * broadcast_to(weight, xa.shape)
    in_use = (t != ignore_label).astype(xa.dtype)
    loss = rollaxis(loss, 1, loss.ndim)
    loss = reshape(loss, (-1, loss.shape[-1]))
    labels = xp.where(t == ignore_label, 0, t).ravel() \
        if ignore_label is not None else t.ravel()
    loss = select_item(loss, labels)
    loss = reshape(loss, t.shape)
    loss = loss * in_use
    if reduce == 'mean':
        count = in_use.sum() if normalize else len(xa)
        count = max(count, 1.)
        loss = _sum(loss / count)
    return loss
