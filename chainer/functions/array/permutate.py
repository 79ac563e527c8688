"""``F.permutate``."""

import numpy

import chainer
from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import (chainer_text, invalid_type,
                                       names_bad_arguments)


def _check_permutation(indices):
    # Chainer's checks (in its debug mode), in its words
    ind = backend.CpuDevice().send(indices)
    if ind.size == 0:
        return
    counts = numpy.bincount(ind[(ind >= 0) & (ind < ind.size)],
                            minlength=ind.size)
    out = ind[(ind < 0) | (ind >= ind.size)]
    if out.size:
        raise chainer_text(
            ValueError('Out of bounds index: {}'.format(out[0])))
    if (counts > 1).any():
        raise chainer_text(ValueError(
            'indices contains duplicate value: {}'.format(
                int(numpy.argmax(counts > 1)))))


class Permutate(FunctionNode):
    """Permutes an array along an axis by an index array (an attribute, as
    in Chainer: exporters read ``indices``)."""

    def __init__(self, indices, axis=0, inv=False):
        self.indices = indices
        self.axis = axis
        self.inv = inv

    def forward(self, inputs):
        x, = inputs
        indices = self.indices
        if indices.dtype.kind not in 'iu' or indices.ndim != 1:
            raise chainer_text(ValueError(
                'indices should be a one-dimensional int array'))
        ndim = x.ndim
        axis = self.axis
        need = axis if axis >= 0 else -axis - 1
        if not ndim > need:
            raise invalid_type(self, 'x.ndim > {}'.format(need),
                               '{} <= {}'.format(ndim, need))
        if len(indices) != x.shape[axis]:
            raise ValueError(
                'permutate: indices has {} entries, but x.shape[{}] is {}: '
                'it must be a permutation of that axis'.format(
                    len(indices), axis, x.shape[axis]))
        if chainer.config.debug:
            _check_permutation(indices)
        elif isinstance(indices, numpy.ndarray) and \
                not (indices >= len(indices)).any():
            # An index past the end fails in NumPy's indexing, in its words
            # (as in Chainer); a negative or repeated one, which indexing
            # would take silently (no permutation), gets the debug mode's
            # error
            _check_permutation(indices)
        xp = backend.get_array_module(x)
        if self.inv:
            indices = xp.argsort(indices)
        return xp.take(x, indices, axis=axis % ndim),

    def backward(self, indexes, grad_outputs):
        return Permutate(self.indices, self.axis, not self.inv).apply(
            grad_outputs)


@names_bad_arguments(keep=(IndexError,))  # NumPy's indexing, as Chainer
def permutate(x, indices, axis=0, inv=False):
    """Permutates a given variable along an axis.

    ``y`` takes ``x``'s slices in the order of ``indices``:
    ``y[..., i, ...] = x[..., indices[i], ...]`` along ``axis``; with
    ``inv=True`` the inverse, ``y[..., indices[i], ...] = x[..., i, ...]``.

    Args:
        x (~chainer.Variable or array): Input variable.
        indices (~chainer.Variable or array): A permutation of
            ``0 .. x.shape[axis] - 1`` (a 1-D int array; checked in debug
            mode).
        axis (int): The axis to permute.
        inv (bool): Apply the inverse permutation.

    Returns:
        ~chainer.Variable: The permuted variable.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.array([10., 11., 12.], np.float32)
    >>> F.permutate(x, np.array([2, 0, 1], np.int32)).array
    array([12., 10., 11.], dtype=float32)
    """
    if isinstance(indices, chainer.Variable):
        indices = indices.array
    elif isinstance(indices, (list, tuple)):
        indices = numpy.asarray(indices, dtype=numpy.int32)
    if not isinstance(indices, numpy.ndarray) and \
            not backend.is_gpu_array(indices):
        raise TypeError('permutate: indices must be a Variable or an array, '
                        'but got {}'.format(type(indices).__name__))
    return Permutate(indices, axis, inv).apply((x,))[0]
