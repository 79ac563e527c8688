"""A static schedule compiled to straight-line Python.

When every op of a recorded schedule has a kernel here (a common op on
arrays it handles plainly: see ``_KERNELS``), the replay needs none of the
op objects: the forward is generated as one Python function that calls each
op's array kernel on named slots, and the backward, per set of inputs to
differentiate, as another that calls each op's gradient kernel and sums the
gradients that meet, in the order and with the sums of
``Schedule.backward``.  So a replay costs about what the same NumPy calls
written by hand cost.

A kernel computes exactly what the op's ``forward`` and ``_backward_arrays``
(or its backward's ops) compute, with the same NumPy calls in the same
order, so compiled replays give the bits of the interpreted ones (and of
define-by-run).  Anything else (random ops, ops with state of their own,
other dtypes or shapes, ``@static_code``) leaves the schedule interpreted.
"""

import copy
import operator

import numpy

from chainer import utils
from chainer._backprop import _sum

_matmul = operator.matmul
_generic = numpy.generic


# --- kernels: op -> (forward, gradient maker) or None ------------------------
# A maker gets the op, its input and output arrays, and per input whether it
# is alone: an outer input that no other op reads and that the forward does
# not return (its gradient is then final as soon as made, and nothing the
# backward computes reads it).
# A forward takes the op's input arrays and returns its one output array; the
# gradient maker takes the indexes of the inputs to differentiate and returns
# a function of (inputs..., output, gy) giving their gradients as a tuple, an
# _Inline (the same, as code written into the backward), or the string
# 'same' for an op that hands gy on as it is (to each input).  The
# third item says which of (inputs..., output) the gradients read: the
# others are not kept for backward (they get None).

class _Inline:
    """A gradient written into the generated backward itself (no call of a
    Python function per op): ``text``, lines of Python with the fields
    ``{x0}``, ``{x1}``, ... (the op's inputs), ``{y}``, ``{gy}`` and ``{g0}``,
    ``{g1}``, ... (the gradients it assigns, of the inputs differentiated,
    in order), and a field per name of ``ns``, the objects it uses (made
    unique per op); ``finish``, a function that the backward calls before
    it returns (or raises), where the text starts work in the background
    that gives the gradients their values."""

    __slots__ = ('text', 'finish', 'ns')

    def __init__(self, text, finish=None, **ns):
        self.text = text
        self.finish = finish  # called once before the backward returns
        self.ns = ns


def _floats(xs):
    return all(type(x) is numpy.ndarray and x.dtype.kind == 'f' and x.ndim
               for x in xs)


def _matmul_kernels(op, xs, ys, alone):
    from chainer.functions.math import matmul
    linear_nt = getattr(matmul._thin, 'linear_nt', None)
    a, b = xs
    if op.transc or op.dtype is not None or a.ndim != 2 or b.ndim != 2 or \
            a.dtype != b.dtype or not _floats(xs):
        return None
    ta, tb = op.transa, op.transb
    if not ta and not tb:
        fwd = _matmul
    else:
        def fwd(a, b):
            return matmul._product(a, b, ta, tb)
    grads_of = matmul._grads
    rows, inner = ys[0].shape
    cols = a.shape[1]  # (gy @ b.T is (rows, cols))
    threads = matmul._thin_threads((rows, inner), b.shape, b.dtype)
    # (b's gradient computed in the background only where nothing reads it
    # before the backward returns and waits)
    tn = alone[1] and matmul._tn_fits(a.shape, ys[0].shape, a.dtype)
    tn_start = getattr(matmul._thin, 'gemm_tn_start', None)
    tn_wait = getattr(matmul._thin, 'gemm_tn_wait', None)

    def grads(target):
        # (MatMul._backward_arrays' products)
        if ta or tb:
            return lambda a, b, y, gy: grads_of(a, b, gy, ta, tb, target)
        # the plain product's, with the thin GEMM's choice for gy @ b.T
        # made here, as matmul._a_bt makes it for these shapes
        lines = []
        if 0 in target:
            out = '{g0}'
            if threads:  # (soft: False where not C-contiguous)
                lines += [
                    '%s = {empty}(({rows}, {cols}), {f32})' % out,
                    'if not {nt}(%s, {gy}, {x1}, None, {rows}, {cols}, '
                    '{inner}, {t}, True):' % out,
                    '    %s = {gy} @ {x1}.T' % out]
            else:
                lines.append('%s = {gy} @ {x1}.T' % out)
        if 1 in target:
            out = '{g%d}' % (len(target) - 1)
            if tn:
                # a.T @ gy as matmul._at_b computes it, in the background
                lines += [
                    '%s = {empty}(({cols}, {inner}), {f32})' % out,
                    'if not {tn}(%s, {x0}, {gy}, {rows}, {cols}, {inner}):'
                    % out,
                    '    %s = {x0}.T @ {gy}' % out]
            else:
                lines.append('%s = {at_b}({x0}, {gy})' % out)
        return _Inline('\n'.join(lines), finish=tn_wait if tn else None,
                       empty=numpy.empty, f32=numpy.float32, nt=linear_nt,
                       tn=tn_start, at_b=matmul._at_b, rows=rows, cols=cols,
                       inner=inner, t=threads)
    return fwd, grads, (True, True, False)


def _tanh_kernels(op, xs, ys, alone):
    from chainer.functions.activation import tanh
    if not _floats(xs):
        return None
    shape, dtype = xs[0].shape, xs[0].dtype
    if not tanh._loops_take(shape, dtype):
        return numpy.tanh, lambda target: (
            lambda x, y, gy: (tanh._tanh_grad(y, gy),)), (False, True)
    # (_tanh_grad's C call, with its checks made here for these arrays)
    code = _Inline('\n'.join([  # (soft: False where not C-contiguous)
        '{g0} = {empty}({shape}, {dtype})',
        'if not {c}({g0}, {y}, {gy}, {size}, True):',
        '    {g0} = {slow}({y}, {gy})']),
        empty=numpy.empty, shape=shape, dtype=dtype, c=tanh._loops.tanh_grad,
        size=xs[0].size, slow=tanh._tanh_grad)
    return numpy.tanh, lambda target: code, (False, True)


def _sum_kernels(op, xs, ys, alone):
    from chainer.functions.math.sum import _normalize_axis, _np_sum
    x, = xs
    if not _floats(xs):
        return None
    axis = _normalize_axis('Sum', op.axis, x.ndim)
    keepdims = op.keepdims
    shape = x.shape
    force_array = utils.force_array

    def fwd(x):
        return force_array(_np_sum(x, axis, keepdims))

    # (Sum.backward: gy reshaped to keep the summed axes, broadcast)
    kept = None
    if not keepdims and axis is not None:
        kept = list(ys[0].shape)
        for a in axis:
            kept.insert(a, 1)
        kept = tuple(kept)
    broadcast_to = numpy.broadcast_to

    code = _Inline('{g0} = {bt}({gy}, {shape})' if kept is None else
                   '{g0} = {bt}({gy}.reshape({kept}), {shape})',
                   bt=broadcast_to, shape=shape, kept=kept)
    return fwd, lambda target: code, (False, False)


def _constant_kernels(op, xs, ys, mul):
    from chainer.functions.math.basic_math import _const
    x, = xs
    value = op.value
    if not _floats(xs) or not (type(value) in (int, float) or
                               isinstance(value, _generic)) or \
            ys[0].shape != x.shape or ys[0].dtype != x.dtype:
        return None
    c = _const(x, value)
    if not mul:
        return (lambda x: x + c), lambda target: 'same', (False, False)

    code = _Inline('{g0} = {gy} * {c}', c=c)
    return (lambda x: x * c), lambda target: code, (False, False)


def _relu_kernels(op, xs, ys, alone):
    from chainer.functions.activation.relu import _masked
    if not _floats(xs):
        return None
    zero = xs[0].dtype.type(0)
    maximum = numpy.maximum

    def fwd(x):
        return maximum(x, zero)
    code = _Inline('{g0} = {masked}({gy}, {y} > 0)', masked=_masked)
    return fwd, lambda target: code, (False, True)


def _add_kernels(op, xs, ys, alone):
    a, b = xs
    if not _floats(xs) or a.dtype != b.dtype or a.shape != b.shape:
        return None  # (a broadcast: the interpreted replay sums it back)
    return operator.add, lambda target: 'same', (False, False, False)


def _linear_kernels(op, xs, ys, alone):
    # Its weight is an outer input used by this op alone (checked by
    # compile_schedule): its gradient is then the one product its LeafSum
    # makes of a single term, gy^T x.
    from chainer.functions.connection.linear import _gy_at_W
    x, W = xs[:2]
    if x.ndim != 2 or not _floats(xs) or \
            any([a.dtype != x.dtype for a in xs]):
        return None
    inst = copy.copy(op)  # (its forward keeps no state a call needs)
    forward = inst.forward
    if len(xs) == 3:
        def fwd(x, W, b):
            return forward((x, W, b))[0]
    else:
        def fwd(x, W):
            return forward((x, W))[0]

    def grads(target):
        parts = [(lambda x, W, gy: _gy_at_W(gy, W)),
                 (lambda x, W, gy: gy.T @ x),
                 (lambda x, W, gy: gy.sum(axis=0))]
        parts = [parts[i] for i in target]
        if len(xs) == 3:
            return lambda x, W, b, y, gy: tuple([p(x, W, gy) for p in parts])
        return lambda x, W, y, gy: tuple([p(x, W, gy) for p in parts])
    return fwd, grads, (True, True) + (False,) * (len(xs) - 1)


def _kernels():
    from chainer.functions.activation.relu import ReLU
    from chainer.functions.connection.linear import LinearFunction
    from chainer.functions.activation.tanh import Tanh
    from chainer.functions.math.basic_math import (Add, AddConstant,
                                                   MulConstant)
    from chainer.functions.math.matmul import MatMul
    from chainer.functions.math.sum import Sum
    _LEAF_SUMMED[LinearFunction] = 1
    return {
        MatMul: _matmul_kernels,
        LinearFunction: _linear_kernels,
        Tanh: _tanh_kernels,
        ReLU: _relu_kernels,
        Add: _add_kernels,
        Sum: _sum_kernels,
        MulConstant: lambda op, xs, ys, alone: _constant_kernels(op, xs, ys,
                                                                 True),
        AddConstant: lambda op, xs, ys, alone: _constant_kernels(op, xs, ys,
                                                                 False),
    }


_KERNELS = None

# Ops whose gradient for one input is a LeafSum (chainer._backprop), and
# that input: it must be an outer one that no other op reads (a single
# term).  Filled with _KERNELS.
_LEAF_SUMMED = {}


# --- compiling ----------------------------------------------------------------

def _names(slots):
    return ''.join(['s{}, '.format(k) for k in slots])


def _literal(obj):
    """Whether ``obj`` is written into generated code as itself (ints and
    tuples of them, None)."""
    return obj is None or type(obj) is int or (
        type(obj) is tuple and all([type(v) is int for v in obj]))


class Compiled:
    """A schedule's forward as one generated function, and its backwards
    (generated on first use per set of inputs and of missing output
    gradients)."""

    __slots__ = ('forward', 'kept', '_grads', '_backwards')

    def __init__(self, forward, kept, grads):
        self.forward = forward  # inputs -> (outputs, the slots kept)
        self.kept = kept        # the slots the gradients read
        self._grads = grads     # per op: its gradient maker
        self._backwards = {}

    def backward(self, sched, vals, indexes, gys):
        """The gradients of the outer inputs ``indexes``, or None where the
        output gradients are not like the outputs (the interpreted
        backward handles those)."""
        for g, (shape, dtype) in zip(gys, sched.out_types):
            if g is not None and (type(g) is not numpy.ndarray or
                                  g.shape != shape or g.dtype != dtype):
                return None
        key = (indexes, tuple([g is None for g in gys]))
        fn = self._backwards.get(key)
        if fn is None:
            fn = self._backwards[key] = self._compile_backward(
                sched, indexes, key[1])
        return fn(vals, gys)

    def _compile_backward(self, sched, indexes, missing):
        ns = {'_sum': _sum}
        kept = frozenset(self.kept)
        lines = ['def backward(vals, gys):',
                 '    {}= gys'.format(''.join(
                     ['gy{}, '.format(i) for i in range(len(missing))]))]
        if kept:
            lines.append('    {}= vals'.format(_names(self.kept)))

        def arg(k):  # (None: a slot the gradient does not read)
            return 's{}'.format(k) if k in kept else 'None'
        grads = {}  # slot -> the names of the gradients that reached it
        finish = []  # the _Inline's finish functions

        def add(slot, name):
            grads.setdefault(slot, []).append(name)

        def take(slot, name):
            names = grads.pop(slot, None)
            if not names:
                return None
            if len(names) == 1:
                return names[0]
            lines.append('    {} = _sum([{}])'.format(name, ', '.join(names)))
            return name

        for i, (k, m) in enumerate(zip(sched.out_slots, missing)):
            if not m:
                add(k, 'gy{}'.format(i))
        n = 0
        for s, target, lo, hi, _, slots, _ in sched._plan(indexes):
            g = take(lo, 'g{}'.format(lo))
            if g is None:
                continue
            fn = self._grads[s](target)
            if fn == 'same':  # gy itself, to each input differentiated
                for k in slots:
                    add(k, g)
                continue
            outs = ['t{}'.format(n + j) for j in range(len(slots))]
            n += len(slots)
            if type(fn) is _Inline:
                if fn.finish is not None and fn.finish not in finish:
                    finish.append(fn.finish)
                fields = {'y': arg(lo), 'gy': g}
                for j, k in enumerate(sched.in_slots[s]):
                    fields['x{}'.format(j)] = arg(k)
                for j, name in enumerate(outs):
                    fields['g{}'.format(j)] = name
                for name, obj in fn.ns.items():
                    if _literal(obj):
                        fields[name] = repr(obj)
                    else:
                        fields[name] = '{}_{}'.format(name, s)
                        ns[fields[name]] = obj
                lines.extend(['    ' + line for line in
                              fn.text.format(**fields).split('\n')])
            else:
                ns['B{}'.format(s)] = fn
                lines.append('    {}, = B{}({}, {}, {})'.format(
                    ', '.join(outs), s,
                    ', '.join([arg(k) for k in sched.in_slots[s]]), arg(lo),
                    g))
            for k, name in zip(slots, outs):
                add(k, name)
        results = [take(i, 'r{}'.format(i)) for i in indexes]
        lines.append('    return ({}{})'.format(
            ', '.join([str(r) for r in results]),
            ',' if len(results) == 1 else ''))
        if finish:
            # (the body in a try whose finally calls them)
            at = 2 if kept else 1
            lines[at + 1:] = ['        ' + line[4:] for line in lines[at + 1:]]
            lines.insert(at + 1, '    try:')
            lines.append('    finally:')
            for j, fn in enumerate(finish):
                ns['finish{}'.format(j)] = fn
                lines.append('        finish{}()'.format(j))
        exec(compile('\n'.join(lines), '<static schedule backward>',
                     'exec'), ns)
        return ns['backward']


def compile_schedule(sched, ops):
    """A :class:`Compiled` for the schedule ``sched`` recorded from
    ``ops`` (the recorder's ``(fn, template, xs, ys)``), or None where an op
    has no kernel."""
    global _KERNELS
    if _KERNELS is None:
        _KERNELS = _kernels()
    if sched.code_after:
        return None
    fwds, grads, kept = [], [], set()
    reads = {}
    for slots in sched.in_slots:
        for k in slots:
            reads[k] = reads.get(k, 0) + 1
    for (fn, template, xs, ys), step, slots in zip(ops, sched.steps,
                                                   sched.in_slots):
        leaf = _LEAF_SUMMED.get(type(template))
        if leaf is not None and (slots[leaf] >= sched.n_in or
                                 reads[slots[leaf]] != 1):
            return None
        make = _KERNELS.get(type(template))
        if make is None or len(ys) != 1 or ys[0] is None or \
                type(ys[0]) is not numpy.ndarray:
            return None
        alone = tuple([k < sched.n_in and reads[k] == 1 and
                       k not in sched.out_slots for k in slots])
        kernels = make(template, xs, ys, alone)
        if kernels is None:
            return None
        fwds.append(kernels[0])
        grads.append(kernels[1])
        kept.update([k for k, use in zip(slots + (step[4],), kernels[2])
                     if use])
    kept = sorted(kept)
    ns = {}
    for k, c in enumerate(sched.consts):
        ns['s{}'.format(sched.n_in + k)] = c
    lines = ['def forward(ins):']
    if sched.n_in:
        lines.append('    {}= ins'.format(_names(range(sched.n_in))))
    for s, step in enumerate(sched.steps):
        ns['F{}'.format(s)] = fwds[s]
        args = ', '.join(['s{}'.format(k) for k in sched.in_slots[s]])
        lines.append('    s{} = F{}({})'.format(step[4], s, args))
    lines.append('    return ({}), ({})'.format(
        _names(sched.out_slots), _names(kept)))
    exec(compile('\n'.join(lines), '<static schedule forward>', 'exec'), ns)
    return Compiled(ns['forward'], tuple(kept), grads)

