"""``F.einsum``: Einstein summation, differentiable in every operand."""

import string

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import (chainer_text, check_floats,
                                       invalid_type, names_bad_arguments)

_LETTERS = string.ascii_letters


def _sublist_letter(label):
    if label is Ellipsis:
        return '...'
    if isinstance(label, (int, numpy.integer)) and 0 <= label < 52:
        # NumPy's order: 0-25 are upper case, 26-51 lower case, so that the
        # implicit output (sorted letters) is sorted by label.
        return chr(ord('A') + label) if label < 26 else \
            chr(ord('a') + label - 26)
    raise ValueError('einsum: a subscript list holds ints in [0, 52) or '
                     'Ellipsis, got {!r}'.format(label))


def _from_sublists(operands):
    """``(x, [0, 1], y, [1, 2], [0, 2])`` -> (``'AB,BC->AC'``, (x, y))."""
    xs, subs = list(operands[0::2]), list(operands[1::2])
    out = None
    if len(subs) < len(xs):  # an odd count: the last one is the output
        out = xs.pop()
    to_str = lambda sub: ''.join(_sublist_letter(c) for c in sub)
    subscripts = ','.join(to_str(s) for s in subs)
    if out is not None:
        subscripts += '->' + to_str(out)
    return subscripts, xs


def _parse(subscripts, ndims):
    """Explicit ``(input subscripts, output subscript)`` with the ellipses
    spelled out as letters (right-aligned, as NumPy broadcasts them)."""
    if not isinstance(subscripts, str):
        raise TypeError('einsum: the first operand must be a subscripts '
                        'string, got {}'.format(type(subscripts).__name__))
    subscripts = subscripts.replace(' ', '')
    if '->' in subscripts:
        lhs, out = subscripts.split('->', 1)
    else:
        lhs, out = subscripts, None
    ins = lhs.split(',')
    if len(ins) != len(ndims):
        raise chainer_text(ValueError(
            'Number of einsum subscripts must be equal to the number of '
            'operands.'))
    for s in ins + ([out] if out is not None else []):
        bad = set(s.replace('...', '')) - set(_LETTERS)
        if bad or s.count('...') > 1:
            raise ValueError('einsum: invalid subscripts {!r}'.format(
                subscripts))
    has_ell = any('...' in s for s in ins)
    if out is not None and ('...' in out) != has_ell:
        # Summing over the ellipsis, or an ellipsis out of nothing: NumPy
        # would guess, Chainer refuses.
        raise ValueError('einsum: the output subscript {!r} must hold an '
                         'ellipsis exactly when an input does'.format(out))
    free = [c for c in _LETTERS if c not in subscripts]
    n_ells = {nd - (len(s) - 3) for s, nd in zip(ins, ndims) if '...' in s}
    if len(n_ells) > 1:
        # F.einsum does not broadcast ellipses of different lengths.
        raise invalid_type('EinSum', 'the ellipses of the operands span as '
                           'many axes', 'subscripts {!r} for operands of {} '
                           'dimension(s)'.format(subscripts, list(ndims)))
    n_ell = max(n_ells, default=0)
    ell = ''.join(free[:n_ell])
    expanded = []
    for s, nd in zip(ins, ndims):
        if '...' in s:
            k = nd - (len(s) - 3)
            if k < 0:
                raise ValueError('einsum: subscripts {!r} have more letters '
                                 'than the operand has axes ({})'.format(s,
                                                                          nd))
            s = s.replace('...', ell[n_ell - k:])
        if len(s) != nd:
            raise ValueError('einsum: subscripts {!r} do not match an operand '
                             'of {} dimension(s)'.format(s, nd))
        expanded.append(s)
    if out is None:
        joined = ''.join(expanded)
        out = ell + ''.join(sorted(c for c in set(joined)
                                   if joined.count(c) == 1 and c not in ell))
    else:
        out = out.replace('...', ell)
        if len(set(out)) != len(out):
            raise ValueError('einsum: output subscript {!r} repeats a '
                             'letter'.format(out))
        for c in out:
            if not any(c in s for s in expanded):
                raise ValueError('einsum: output subscript {!r} is not in '
                                 'any input'.format(c))
    return expanded, out


class EinSum(FunctionNode):
    """Einstein summation over explicit subscripts (no ellipsis)."""

    def __init__(self, in_subs, out_sub):
        if isinstance(in_subs, str):  # Chainer's form: 'ij,jk'
            in_subs = in_subs.split(',')
        self._subs = tuple(in_subs)
        self.in_subs = ','.join(in_subs)  # Chainer's attribute: 'ij,jk'
        self.out_sub = out_sub

    @property
    def label(self):
        return 'EinSum'

    def forward(self, inputs):
        check_floats(self, inputs, ['operands[{}]'.format(i)
                                    for i in range(len(inputs))])
        sizes = {}
        for i, (s, x) in enumerate(zip(self._subs, inputs)):
            for k, c in enumerate(s):
                if c in sizes and sizes[c][0] != x.shape[k]:
                    n, j, l_ = sizes[c]
                    raise invalid_type(
                        self, 'x{}.shape[{}] == x{}.shape[{}]'.format(
                            j, l_, i, k), '{} != {}'.format(n, x.shape[k]))
                sizes.setdefault(c, (x.shape[k], i, k))
        self._sizes = {c: v[0] for c, v in sizes.items()}
        self.retain_inputs(tuple(range(len(inputs))))
        xp = backend.get_array_module(*inputs)
        return xp.einsum(self.in_subs + '->' + self.out_sub,
                         *inputs),

    def backward(self, indexes, grad_outputs):
        xs = self.get_retained_inputs()
        gy, = grad_outputs
        xp = backend.get_array_module(gy)
        ret = []
        for i in indexes:
            subs = [self.out_sub]
            ops = [gy]
            for j, (s, x) in enumerate(zip(self._subs, xs)):
                if j != i:
                    subs.append(s)
                    ops.append(x)
            target = ''
            used = set(''.join(self._subs) + self.out_sub)
            spare = [c for c in _LETTERS if c not in used]
            for c in self._subs[i]:
                n = self._sizes[c]
                if c in target:
                    # A repeated letter is a diagonal: route it through an
                    # identity matrix under a new letter.
                    d = spare.pop()
                    subs.append(c + d)
                    ops.append(xp.eye(n, dtype=gy.dtype))
                    target += d
                    continue
                if not any(c in s for s in subs):
                    # Summed over in this operand alone: the gradient is
                    # constant along it.
                    subs.append(c)
                    ops.append(xp.ones((n,), dtype=gy.dtype))
                target += c
            ret.append(EinSum(subs, target).apply(ops)[0])
        return tuple(ret)


class DiagEinSum(EinSum):
    """Einstein summation whose output may repeat a letter (written on the
    diagonal, zero elsewhere) or hold letters of no input (broadcast); their
    sizes come from ``out_shape``. Its backward is that of EinSum."""

    def __init__(self, in_subs, out_sub, out_shape):
        super().__init__(in_subs, out_sub)
        self.out_shape = tuple(out_shape)

    def forward(self, inputs):
        xp = backend.get_array_module(*inputs)
        sizes = dict(zip(self.out_sub, self.out_shape))
        for s, x in zip(self._subs, inputs):
            sizes.update(zip(s, x.shape))
        self._sizes = sizes
        self.retain_inputs(tuple(range(len(inputs))))
        letters = ''.join(dict.fromkeys(self.out_sub))
        present = ''.join(c for c in letters
                          if any(c in s for s in self._subs))
        core = xp.einsum(self.in_subs + '->' + present, *inputs)
        core = core.reshape([sizes[c] if c in present else 1
                             for c in letters])
        y = xp.zeros(self.out_shape, core.dtype)
        # the diagonal of y over its repeated letters, as a writable view
        strides = [sum(st for c2, st in zip(self.out_sub, y.strides)
                       if c2 == c) for c in letters]
        view = xp.lib.stride_tricks.as_strided(
            y, [sizes[c] for c in letters], strides)
        view[...] = core
        return y,


@names_bad_arguments
def einsum(*operands):
    """Einstein summation.

    Evaluates the Einstein summation convention on the operands, like
    :func:`numpy.einsum`, differentiably in every operand.

    Args:
        operands: The subscripts string (e.g. ``'ij,jk->ik'``; ``...`` and
            the implicit output form are supported), followed by the
            operands (:class:`~chainer.Variable` or arrays); or NumPy's
            sublist form, each operand followed by its list of axis labels
            (ints, or Ellipsis) and optionally the output's list last:
            ``einsum(a, [0, 1], b, [1, 2], [0, 2])``.

    Returns:
        ~chainer.Variable: The result.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> a = np.arange(6, dtype=np.float32).reshape(2, 3)
    >>> F.einsum('ij->j', a).array
    array([3., 5., 7.], dtype=float32)
    """
    if not operands:
        raise ValueError('einsum: no subscripts given')
    if isinstance(operands[0], str):
        subscripts, xs = operands[0], operands[1:]
    else:
        subscripts, xs = _from_sublists(operands)
    in_subs, out_sub = _parse(subscripts, [x.ndim for x in xs])
    return EinSum(in_subs, out_sub).apply(xs)[0]
