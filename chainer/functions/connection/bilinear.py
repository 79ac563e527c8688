"""``F.bilinear``: a bilinear form of two inputs plus optional linear terms.

``y[i, l] = sum_{j, k} e1[i, j] e2[i, k] W[j, k, l]
(+ sum_j e1[i, j] V1[j, l] + sum_k e2[i, k] V2[k, l] + b[l])``.
The bilinear term is one matmul of the outer products ``e1 (x) e2`` (a
``(B, J * K)`` array) with ``W`` seen as ``(J * K, L)``; the backward is
built from differentiable ops, so it can be differentiated again.
"""

import numpy

from chainer.configuration import _local_store
from chainer.function_node import FunctionNode
from chainer.functions._errors import invalid_type

_NAMES = ('e1', 'e2', 'W', 'V1', 'V2', 'b')


def _outer(e1, e2):
    return (e1[:, :, None] * e2[:, None, :]).reshape(
        len(e1), e1.shape[1] * e2.shape[1])


class BilinearFunction(FunctionNode):
    """The bilinear function of ``(e1, e2, W[, V1, V2, b])``."""

    def _check(self, inputs):
        e1, e2, W = inputs[:3]
        for i, a in enumerate(inputs):
            if a.dtype.kind != 'f':
                raise invalid_type(self, '{}.dtype.kind == f'.format(
                    _NAMES[i]), '{} != f'.format(a.dtype.kind))
            if a.dtype != e1.dtype and _local_store.type_check:
                f32 = numpy.dtype(numpy.float32)
                if any(b.dtype == f32 for b in inputs):
                    # Chainer takes float32 only, and says so.
                    i = next(i for i, b in enumerate(inputs)
                             if b.dtype != f32)
                    raise invalid_type(
                        self, 'in_types[{}].dtype == {}'.format(
                            i, numpy.float32), '{} != {}'.format(
                                inputs[i].dtype, numpy.float32))
                raise invalid_type(self, '{}.dtype == e1.dtype'.format(
                    _NAMES[i]), '{} != {}'.format(a.dtype, e1.dtype))
        # Chainer's type-check text names the inputs in_types[i].
        for i, a in ((0, e1), (1, e2)):
            if a.ndim < 2:
                raise invalid_type(self, 'in_types[{}].ndim >= 2'.format(i),
                                   '{} < 2'.format(a.ndim))
        if W.ndim != 3:
            raise invalid_type(self, 'in_types[2].ndim == 3',
                               '{} != 3'.format(W.ndim))
        if e1.shape[0] != e2.shape[0]:
            raise invalid_type(self,
                               'in_types[0].shape[0] == in_types[1].shape[0]',
                               '{} != {}'.format(e1.shape[0], e2.shape[0]))
        J, K, L = W.shape
        for i, a, n in ((0, e1, J), (1, e2, K)):
            size = int(numpy.prod(a.shape[1:]))
            if size != n:
                raise invalid_type(
                    self, 'prod(in_types[{}].shape[1:]) == in_types[2].shape'
                    '[{}]'.format(i, i), '{} != {}'.format(size, n))
        if len(inputs) == 6:
            V1, V2, b = inputs[3:]
            for i, name, a, dims in ((3, 'V1', V1, (0, 2)),
                                     (4, 'V2', V2, (1, 2)),
                                     (5, 'b', b, (2,))):
                shape = tuple(W.shape[d] for d in dims)
                if a.shape == shape:
                    continue
                if a.ndim == len(shape):
                    k = next(k for k in range(a.ndim) if a.shape[k] != shape[k])
                    raise invalid_type(
                        self, 'in_types[{}].shape[{}] == in_types[2].shape'
                        '[{}]'.format(i, k, dims[k]),
                        '{} != {}'.format(a.shape[k], shape[k]))
                raise invalid_type(
                    self, '{}.shape == {}'.format(name, shape),
                    '{}.shape = {}'.format(name, a.shape))

    def forward(self, inputs):
        self._check(inputs)
        self.retain_inputs(tuple(range(len(inputs))))
        e1, e2, W = inputs[:3]
        B = len(e1)
        J, K, L = W.shape
        e1 = e1.reshape(B, J)
        e2 = e2.reshape(B, K)
        y = _outer(e1, e2).dot(W.reshape(-1, L))
        if len(inputs) == 6:
            V1, V2, b = inputs[3:]
            y += e1.dot(V1)
            y += e2.dot(V2)
            y += b
        return y,

    def backward(self, indexes, grad_outputs):
        from chainer.functions.array.reshape import reshape
        from chainer.functions.math.matmul import matmul
        from chainer.functions.math.sum import sum as _sum
        inputs = self.get_retained_inputs()
        e1v, e2v, W = inputs[:3]
        gy, = grad_outputs
        B = e1v.shape[0]
        J, K, L = W.shape
        e1 = reshape(e1v, (B, J))
        e2 = reshape(e2v, (B, K))
        ret = []
        if 0 in indexes or 1 in indexes:
            # gyW[i, j, k] = sum_l W[j, k, l] gy[i, l]
            gyW = reshape(matmul(gy, reshape(W, (J * K, L)), transb=True),
                          (B, J, K))
        for i in indexes:
            if i == 0:
                g = _sum(gyW * reshape(e2, (B, 1, K)), axis=2)
                if len(inputs) == 6:
                    g = g + matmul(gy, inputs[3], transb=True)
                ret.append(reshape(g, e1v.shape))
            elif i == 1:
                g = _sum(gyW * reshape(e1, (B, J, 1)), axis=1)
                if len(inputs) == 6:
                    g = g + matmul(gy, inputs[4], transb=True)
                ret.append(reshape(g, e2v.shape))
            elif i == 2:
                outer = reshape(reshape(e1, (B, J, 1)) * reshape(e2, (B, 1, K)),
                                (B, J * K))
                ret.append(reshape(matmul(outer, gy, transa=True), (J, K, L)))
            elif i == 3:
                ret.append(matmul(e1, gy, transa=True))
            elif i == 4:
                ret.append(matmul(e2, gy, transa=True))
            else:
                ret.append(_sum(gy, axis=0))
        return ret


def bilinear(e1, e2, W, V1=None, V2=None, b=None):
    """Applies a bilinear function based on given parameters.

    With ``e1`` of shape ``(B, J)``, ``e2`` of shape ``(B, K)`` and ``W``
    of shape ``(J, K, L)``, computes

    .. math::

        y_{il} = \\sum_{jk} e^1_{ij} e^2_{ik} W_{jkl} +
            \\sum_j e^1_{ij} V^1_{jl} + \\sum_k e^2_{ik} V^2_{kl} + b_l.

    The linear terms ``V1`` ``(J, L)``, ``V2`` ``(K, L)`` and the bias ``b``
    ``(L,)`` are given all together or not at all. Inputs with more than two
    axes are flattened to ``(B, -1)``; their gradients keep their shapes.

    Args:
        e1 (~chainer.Variable or array): Left input ``(B, J)``.
        e2 (~chainer.Variable or array): Right input ``(B, K)``.
        W (~chainer.Variable or array): Bilinear weight ``(J, K, L)``.
        V1 (~chainer.Variable or array): Left linear weight ``(J, L)``.
        V2 (~chainer.Variable or array): Right linear weight ``(K, L)``.
        b (~chainer.Variable or array): Bias ``(L,)``.

    Returns:
        ~chainer.Variable: Output ``(B, L)``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> e1 = np.ones((2, 3), np.float32)
    >>> e2 = np.ones((2, 4), np.float32)
    >>> W = np.ones((3, 4, 5), np.float32)
    >>> F.bilinear(e1, e2, W).array[0]
    array([12., 12., 12., 12., 12.], dtype=float32)
    """
    flags = [V1 is None, V2 is None, b is None]
    if any(flags):
        if not all(flags):
            raise ValueError('All coefficients and bias for bilinear() must '
                             'be None, if at least one of them is None.')
        return BilinearFunction().apply((e1, e2, W))[0]
    return BilinearFunction().apply((e1, e2, W, V1, V2, b))[0]
