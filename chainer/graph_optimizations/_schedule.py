"""The recorded schedule of a static chain's forward, and its replay.

Recording: while the forward runs define-by-run, a function hook shadows
the ``forward`` of each op as it is applied, and keeps the op's state from
just before its forward (a template), the arrays it took and the arrays it
gave.  Data flows by array identity: an op's input is an argument of the
chain's forward, a parameter of the chain, an output of an earlier op, or
else a constant, kept as it is (Python code of the forward runs only when
recording).  With backprop on, the graph tells which of those uses carry a
gradient (``h.array`` passed on does not).

Replay: one :class:`StaticScheduleFunction` stands for the whole forward in
the graph.  Its forward makes each op afresh from its template (no
``__init__``, no ``apply``: no Variables, no graph, no type checks) and runs
its ``forward`` on this call's arrays, so that random ops draw anew and two
replays never share state.  Its backward visits the ops as the backward
engine would (highest rank first) and gives each op's gradients only to
inputs that lead to something wanting one: through the op's array-level
rule (``_backward_arrays``) where it has one, else through a
:class:`BackwardRecipe` (the ops its backward applied, recorded at the level
of arrays and checked on two calls), else through its backward on
Variables.  A schedule whose every op has an array kernel in ``_compiled``
is replayed by generated straight-line code instead, with the same bits.
"""

import copy
import operator
import time
import weakref

import numpy

import chainer
from chainer import backend
from chainer._backprop import _add_to, _as_variable, _fit, _settle, _sum
from chainer.function_hook import FunctionHook
from chainer.function_node import (FunctionNode, _new_node, _node_variable,
                                   _released_error, _RELEASED)
from chainer.graph_optimizations.static_graph import _Dropped
from chainer.variable import Variable, _wrap_node

_object_new = object.__new__
_ndarray = numpy.ndarray


class _AllIndexes(dict):
    # _ALL[n] == (0, ..., n - 1): retaining all of them keeps the tuple
    def __missing__(self, n):
        t = self[n] = tuple(range(n))
        return t


_ALL = _AllIndexes()


class _Unsafe(Exception):
    """The forward cannot be replayed safely (the message says why)."""


class Recorder(FunctionHook):
    """Collects the ops applied during a forward (see the module doc)."""

    def __init__(self):
        self.name = 'static_graph_recorder_{}'.format(id(self))
        self.ops = []  # (function, template, inputs, outputs)
        self.depth = 0  # > 0 inside a recorded op's forward
        self.code = []  # (index in ops, func, args, kwargs) of static_code
        self.unsafe = None

    def forward_preprocess(self, function, in_data):
        if self.depth:
            return  # an op applied inside another op's forward
        template = copy.copy(function)  # the state before forward
        d = function.__dict__
        own = d.get('forward')
        inner = function.forward

        def forward(inputs):
            if own is None:
                del d['forward']
            else:
                d['forward'] = own
            self.depth += 1
            try:
                outputs = inner(inputs)
            finally:
                self.depth -= 1
            outputs = function._fix_outputs(outputs)
            self.ops.append((function, template, inputs, outputs))
            return outputs
        d['forward'] = forward

    def backward_preprocess(self, function, in_data, out_grad):
        self.unsafe = 'a backward ran inside the forward'

    def static_code(self, func, args, kwargs, result):
        if self.depth:
            return
        if result is not None:
            self.unsafe = ('the @static_code function {} returned a value'
                           .format(getattr(func, '__name__', func)))
        self.code.append((len(self.ops), func, args, kwargs))


def _fast_clone(cls):
    # Plain classes are cloned by a dict update; anything with __slots__
    # goes through copy.copy.
    for c in cls.__mro__[:-1]:
        if '__slots__' in c.__dict__:
            return False
    return True


class Schedule(_Dropped):
    """The ops of one recorded forward, with where each input comes from.

    Slots number the arrays of a call: the array arguments, then the
    parameters used, then the constants, then the ops' outputs.
    """

    def __init__(self, recorder, args, params, result, backprop):
        if recorder.unsafe:
            raise _Unsafe(recorder.unsafe)
        ops = recorder.ops
        if isinstance(result, Variable):
            outs, self.out_type = (result,), None
        elif type(result) in (tuple, list) and result and \
                all(isinstance(v, Variable) for v in result):
            outs, self.out_type = tuple(result), type(result)
        else:
            raise _Unsafe('the forward returned a {}, not a Variable or a '
                          'tuple or list of Variables'.format(
                              type(result).__name__))

        arg_slot = {}
        for i, a in enumerate(args):
            data = a._data if isinstance(a, Variable) else a
            if id(data) in arg_slot:
                raise _Unsafe('one array is passed as two arguments')
            arg_slot[id(data)] = i
        param_of = {id(p._data): p for p in params if p._data is not None}
        for k in arg_slot:
            if k in param_of:
                raise _Unsafe('a parameter array is passed as an argument')
        used = {}  # id(Parameter) -> index among the used ones
        used_params = []
        consts = []
        const_slot = {}
        produced = {}  # id(array) -> (op index, output index)

        # First pass: where each input comes from, as ('a'|'p'|'c'|'o', ...)
        steps = []
        for s, (fn, template, xs, ys) in enumerate(ops):
            if template.__dict__.get('_local_function_hooks'):
                raise _Unsafe('{} has function hooks of its own'.format(
                    fn.label))
            vnodes = fn.inputs if backprop else None
            if backprop and (vnodes is None or len(vnodes) != len(xs)):
                raise _Unsafe('{} is not in the graph'.format(fn.label))
            ins = []
            for i, x in enumerate(xs):
                vn = vnodes[i] if backprop else None
                k = id(x)
                grad_ok = False
                if k in produced:
                    ref = ('o',) + produced[k]
                    if backprop and vn._creator_node is not None:
                        src = ops[ref[1]][0]
                        grad_ok = vn._creator_node is src and \
                            src.outputs[ref[2]]() is vn
                elif k in arg_slot:
                    ref = ('a', arg_slot[k])
                    if backprop:
                        a = args[ref[1]]
                        grad_ok = isinstance(a, Variable) and a._node is vn
                elif k in param_of:
                    p = param_of[k]
                    if id(p) not in used:
                        used[id(p)] = len(used)
                        used_params.append(p)
                    ref = ('p', used[id(p)])
                    grad_ok = backprop and p._node is vn
                else:
                    if k not in const_slot:
                        const_slot[k] = len(consts)
                        consts.append(x)
                    ref = ('c', const_slot[k])
                if backprop and vn.requires_grad and not grad_ok and (
                        vn._creator_node is not None or _alive(vn)):
                    # (a leaf made inside the forward and dropped, such as
                    # the zero state of an LSTM, is a constant: nobody can
                    # see its gradient)
                    raise _Unsafe(
                        'input {} of {} requires grad but is neither an '
                        'argument, a parameter of the chain nor an output '
                        'of a function of the forward'.format(i, fn.label))
                ins.append((ref, grad_ok))
            for j, y in enumerate(ys):
                if y is not None:
                    produced[id(y)] = (s, j)
            steps.append(ins)

        out_refs = []
        for v in outs:
            ref = produced.get(id(v._data))
            if ref is None or backprop and not (
                    v._node is not None and
                    v._node._creator_node is ops[ref[0]][0] and
                    ops[ref[0]][0].outputs[ref[1]]() is v._node):
                raise _Unsafe('an output is not computed by a function of '
                              'the forward')
            out_refs.append(ref)
        self.out_requires_grad = tuple(v._requires_grad for v in outs)
        self.out_types = tuple((v.shape, v.dtype) for v in outs)

        # Slot numbers.
        self.n_args = n_args = len(args)
        self.params = used_params
        n_in = n_args + len(used)
        self.n_in = n_in
        base = n_in + len(consts)
        out_base = []
        for _, _, _, ys in ops:
            out_base.append(base)
            base += len(ys)
        self.n_slots = base

        def slot(ref):
            kind = ref[0]
            if kind == 'a':
                return ref[1]
            if kind == 'p':
                return n_args + ref[1]
            if kind == 'c':
                return n_in + ref[1]
            return out_base[ref[1]] + ref[2]

        self.out_slots = tuple(slot((None,) + r) for r in out_refs)
        self.steps = []
        self.in_slots = []
        self.grad_ok = []
        self.ranks = []
        self._keep = []  # placeholder nodes the templates point to weakly
        code_at = {}
        for at, func, a, kw in recorder.code:
            code_at.setdefault(at, []).append((func, a, kw))
        self.code_after = code_at  # {number of ops run: [static code]}
        self.consts = consts
        self.templates = [t for _, t, _, _ in ops]
        for s, ((fn, template, xs, ys), ins) in enumerate(zip(ops, steps)):
            slots = tuple(slot(r) for r, _ in ins)
            self.in_slots.append(slots)
            self.grad_ok.append(tuple(ok for _, ok in ins))
            self.ranks.append(fn.rank if backprop else 0)
            vnodes = fn.inputs if backprop else (None,) * len(xs)
            template.inputs = tuple(
                _new_node(x, vn is not None and vn.requires_grad, None, 0)
                for x, vn in zip(xs, vnodes))
            out_nodes = [_new_node(y, True, None, 0) for y in ys]
            self._keep.append(out_nodes)
            template.outputs = tuple(map(weakref.ref, out_nodes))
            template.rank = fn.rank
            if len(slots) == 1:
                get = slots[0]
            elif slots:
                get = operator.itemgetter(*slots)
            else:
                get = None
            cls = type(template)
            clone = template.__dict__ if _fast_clone(cls) else template
            self.steps.append((cls, clone, get, len(slots) == 1,
                               out_base[s], out_base[s] + len(ys)))
        self.order = sorted(range(len(ops)),
                            key=lambda s: (-self.ranks[s], -s))
        self._plans = {}
        self.recipes = {}  # (op, targets[, missing gys]) -> BackwardRecipe
        self.n_ops = len(ops)
        self.function_class = StaticScheduleFunction
        # (imported here: _compiled imports _backprop, as this module does)
        from chainer.graph_optimizations import _compiled
        self.compiled = _compiled.compile_schedule(self, ops)

    def graph(self, made, in_nodes):
        """Links the ops ``made`` by a replay into a graph, as ``apply``
        would have (from the nodes of the outer inputs); returns the nodes
        of the outputs."""
        nodes = list(in_nodes)
        nodes += [_new_node(c, False, None, 0) if c is not None else None
                  for c in self.consts]
        for f, slots, oks in zip(made, self.in_slots, self.grad_ok):
            # (a use with no gradient, or of None, keeps its placeholder)
            ins = tuple([nodes[k] if ok and nodes[k] is not None else p
                         for k, ok, p in zip(slots, oks, f.inputs)])
            f.inputs = ins
            f.rank = rank = max([n.rank for n in ins], default=0)
            rg = any([n.requires_grad for n in ins])
            outs = [None if p is None else _new_node(p, rg, f, rank + 1)
                    for p in [r() for r in f.outputs]]
            f.outputs = tuple([weakref.ref(n) for n in outs])
            nodes += outs
        return [nodes[k] for k in self.out_slots]

    def differs_from(self, other):
        """What differs between two recordings of one key (None if
        nothing): Python code of the forward that gave other constants or
        other op settings would be frozen wrongly by a replay."""
        if [type(t) for t in self.templates] != \
                [type(t) for t in other.templates] or \
                self.in_slots != other.in_slots or \
                self.grad_ok != other.grad_ok or \
                self.out_slots != other.out_slots or \
                [id(p) for p in self.params] != [id(p) for p in other.params]:
            return 'the ops applied'
        for a, b in zip(self.consts, other.consts):
            if not _same_value(a, b):
                return 'a constant input of an op (an array made by Python ' \
                    'code of the forward?)'
        for a, b in zip(self.templates, other.templates):
            da, db = a.__dict__, b.__dict__
            if da.keys() != db.keys() or not all(
                    _same_value(da[k], db[k]) for k in da
                    if k not in ('inputs', 'outputs', 'rank')):
                return 'the settings of {}'.format(a.label)
        ca, cb = self.code_after, other.code_after
        if ca.keys() != cb.keys() or not all(
                _same_value(ca[k], cb[k]) for k in ca):
            return 'the @static_code calls'
        return None

    # --- replay -------------------------------------------------------------

    def run(self, inputs, keep):
        """Runs the ops on ``inputs`` (arrays of the argument and parameter
        slots); returns the output arrays and, if ``keep``, the ops made
        (for backward)."""
        vals = list(inputs)
        vals += self.consts  # the outputs follow, op by op
        made = [] if keep else None
        append = made.append if keep else None
        code = self.code_after
        if code and 0 in code:
            _run_code(code[0])
        s = 0
        for cls, clone, get, single, lo, hi in self.steps:
            if type(clone) is dict:
                f = _object_new(cls)
                f.__dict__.update(clone)
            else:
                f = copy.copy(clone)
            if single:
                xs = (vals[get],)
            else:
                xs = () if get is None else get(vals)
            ys = f.forward(xs)
            if type(ys) is not tuple:
                ys = f._fix_outputs(ys)
            elif len(ys) == 1:
                if type(ys[0]) is not _ndarray:
                    ys = f._fix_outputs(ys)
            else:
                for y in ys:
                    if type(y) is not _ndarray:
                        ys = f._fix_outputs(ys)
                        break
            if keep:
                idx = f._input_indexes_to_retain
                if idx is not None:
                    f._retained_in_data = xs if idx == _ALL[len(xs)] else \
                        tuple([xs[i] for i in idx])
                idx = f._output_indexes_to_retain
                if idx is not None:
                    f._retained_out_data = ys if idx == _ALL[len(ys)] else \
                        tuple([ys[i] for i in idx])
                append(f)
            vals += ys
            s += 1
            if code and s in code:
                _run_code(code[s])
        return tuple([vals[k] for k in self.out_slots]), made

    def _plan(self, indexes):
        """The ops to visit in backward for the outer inputs ``indexes``,
        each with the inputs it should give a gradient to."""
        plan = self._plans.get(indexes)
        if plan is not None:
            return plan
        reach = [False] * self.n_slots
        for i in indexes:
            reach[i] = True
        targets = []
        for s, (slots, oks) in enumerate(zip(self.in_slots, self.grad_ok)):
            t = tuple([i for i, (k, ok) in enumerate(zip(slots, oks))
                       if ok and reach[k]])
            targets.append(t)
            if t:
                _, _, _, _, lo, hi = self.steps[s]
                for k in range(lo, hi):
                    reach[k] = True
        plan = []
        for s in self.order:
            t = targets[s]
            if t:
                _, _, _, _, lo, hi = self.steps[s]
                slots = self.in_slots[s]
                plan.append([s, t, lo, hi, (s, t),
                             tuple([slots[i] for i in t]), None])
        self._plans[indexes] = plan
        return plan

    def backward(self, made, indexes, gys):
        """The gradients (arrays) of the outer inputs ``indexes`` given
        those of the outputs (arrays or None)."""
        grads = {}
        sums = {}  # leaf gradients kept as sums, as define-by-run keeps them
        recipes = self.recipes
        for k, g, (shape, dtype) in zip(self.out_slots, gys, self.out_types):
            if g is not None:
                _add_to(grads, k, g)
                if g.shape != shape or g.dtype != dtype:
                    recipes = {}  # recorded for gradients like the outputs
        for entry in self._plan(indexes):
            s, target, lo, hi, key, slots, dest = entry
            if hi - lo == 1:
                g = grads.pop(lo, None)
                if g is None:
                    continue
                if type(g) is list:
                    g = _sum(g)
                    if isinstance(g, Variable):
                        g = g._data
                if dest is not None and recipes is self.recipes:
                    # a backward that hands its gradient on as it is
                    _add_to(grads, dest, g)
                    continue
                gy = (g,)
            else:
                gy = tuple([_take(grads, k) for k in range(lo, hi)])
                if all([g is None for g in gy]):
                    continue
                key = key + (tuple([g is None for g in gy]),)
            f = made[s]
            gxs = None
            if f._backward_arrays is not None:
                gxs = f._backward_arrays(target, gy, sums) \
                    if f._sums_leaf_grads else f._backward_arrays(target, gy)
                if f._hands_gradient_on and gxs is not None and \
                        len(gxs) == 1 and gxs[0] is gy[0] and \
                        recipes is self.recipes:
                    entry[6] = slots[0]  # next time, handed on as it is
            if gxs is None:
                recipe = recipes.get(key)
                if recipe.__class__ is BackwardRecipe and recipe.verified:
                    gxs = recipe.run(f, gy)
                    if recipe.passthrough and len(gy) == 1 and \
                            recipe.outs == (0,):
                        entry[6] = slots[0]
                elif recipe is False:
                    gxs = _backward_variables(f, target, gy)
                else:
                    gxs, recipes[key] = _record_backward(f, target, gy,
                                                         recipe)
            for k, gx in zip(slots, gxs):
                if gx is not None:
                    _add_to(grads, k, gx)
        # (the outer inputs: the only slots a leaf sum can reach)
        return tuple([_take(grads, i, True) for i in indexes])


def _record_backward(f, target, gy, first):
    """Runs an op's backward on Variables while recording the ops it
    applies; returns the gradients and what to keep for the next time: a
    BackwardRecipe (checked against the first one when there is one) or
    False (run this backward on Variables for good)."""
    rec = Recorder()
    with rec:
        gxs = _backward_variables(f, target, gy)
    try:
        recipe = BackwardRecipe(f, rec, gy, gxs)
        if first is not None:
            if not first.same_as(recipe) or \
                    _slower(recipe, f, target, gy):
                return gxs, False
            recipe.verified = True
    except _Unsafe:
        return gxs, False
    return gxs, recipe


def _slower(recipe, f, target, gy):
    """Whether the recipe is slower than the op's own backward (some ops
    compute their gradients on arrays when no graph is recorded)."""
    if recipe.passthrough:
        return False
    best = [float('inf'), float('inf')]
    for _ in range(3):
        for i, run in enumerate((lambda: recipe.run(f, gy),
                                 lambda: _backward_variables(f, target, gy))):
            t = time.perf_counter()
            run()
            best[i] = min(best[i], time.perf_counter() - t)
    return best[0] > best[1]


# What an op of a recorded backward may hold besides arrays, the op it is
# the backward of, and containers of these: plain values only, so that
# nothing of one call is frozen into the next.
_PLAIN = (type(None), bool, int, float, complex, str, bytes, numpy.dtype,
          type)


class BackwardRecipe:
    """One op's backward recorded at the level of arrays.

    The ops its backward applied, fed from the incoming gradients, from the
    arrays and the retained arrays of the op (this call's, at each replay)
    and from each other's outputs.  Any other array (one made by Python code
    of the backward), or an attribute of another kind, makes the backward
    unfit for recording.
    """

    verified = False

    def __init__(self, f, rec, gy, gxs):
        if rec.unsafe or rec.code:
            raise _Unsafe(rec.unsafe or 'static code')
        sources = {}
        for j, g in enumerate(gy):
            if g is not None:
                sources[id(g)] = ('g', j)
        for name, v in f.__dict__.items():
            if is_array(v):
                sources.setdefault(id(v), ('a', name))
        for attr in ('_retained_in_data', '_retained_out_data'):
            data = f.__dict__.get(attr)
            if type(data) is tuple:
                for i, v in enumerate(data):
                    if v is not None:
                        sources.setdefault(id(v), ('r', attr, i))

        def ref(v):
            if v is None:
                return None
            if v is f:
                return ('f',)
            r = sources.get(id(v))
            if r is None:
                raise _Unsafe('an array made outside the ops')
            return r

        self.steps = []
        slot_of = {}  # a source -> its slot in the values of a run
        extra = []  # the sources other than the gradients, in slot order
        n_gy = len(gy)

        def slot(v):
            r = ref(v)
            if r is None:
                return None
            if r[0] in ('g', 'o'):
                return r[1]
            k = slot_of.get(r)
            if k is None:
                k = slot_of[r] = -1 - len(extra)  # renumbered below
                extra.append(r)
            return k

        n_out = 0
        for fn, template, xs, ys in rec.ops:
            ins = tuple(slot(x) for x in xs)
            d = dict(template.__dict__)
            attrs = []
            for name, v in d.items():
                if is_array(v) or v is f:
                    attrs.append((name, slot(v)))
                elif not _plain(v):
                    raise _Unsafe('an attribute of a backward op')
            for name, _ in attrs:
                del d[name]
            self.steps.append([type(template), d, attrs, ins])
            for y in ys:
                if y is not None:
                    sources[id(y)] = ('o', -10 ** 9 + n_out)  # renumbered
                n_out += 1
        outs = [slot(g) for g in gxs]

        # Slots: the gradients, then the other sources, then the outputs.
        base = n_gy + len(extra)

        def final(k):
            if k is None or 0 <= k < n_gy:
                return k
            if k < -10 ** 8:
                return base + k + 10 ** 9
            return n_gy - 1 - k

        for st in self.steps:
            st[2] = tuple((name, final(k)) for name, k in st[2])
            st[3] = tuple(final(k) for k in st[3])
            st[:] = (st[0], st[1], st[2], st[3], None in st[3])
        self.steps = [tuple(st) for st in self.steps]
        self.extra = tuple(extra)
        self.outs = tuple(final(k) for k in outs)
        self.passthrough = not self.steps and all(
            k is None or k < n_gy for k in self.outs)

    def same_as(self, other):
        return [s[0] for s in self.steps] == [s[0] for s in other.steps] \
            and [s[2:4] for s in self.steps] == \
            [s[2:4] for s in other.steps] and self.outs == other.outs and \
            self.extra == other.extra and \
            all([_same_value(s[1], t[1])
                 for s, t in zip(self.steps, other.steps)])

    def run(self, f, gy):
        if self.passthrough:
            return [None if k is None else gy[k] for k in self.outs]
        vals = list(gy)
        if self.extra:
            fd = f.__dict__
            for r in self.extra:
                kind = r[0]
                vals.append(f if kind == 'f' else fd[r[1]] if kind == 'a'
                            else fd[r[1]][r[2]])
        for cls, d, attrs, ins, has_none in self.steps:
            op = _object_new(cls)
            od = op.__dict__
            od.update(d)
            for name, k in attrs:
                od[name] = vals[k]
            if has_none:
                xs = tuple([None if k is None else vals[k] for k in ins])
            else:
                xs = tuple([vals[k] for k in ins])
            ys = op.forward(xs)
            if type(ys) is not tuple or any(
                    [type(y) is not _ndarray for y in ys]):
                ys = op._fix_outputs(ys)
            vals.extend(ys)
        return [None if k is None else vals[k] for k in self.outs]


def _plain(v):
    t = type(v)
    if t in _PLAIN or isinstance(v, numpy.generic):
        return True
    if t in (tuple, list):
        return all(map(_plain, v))
    if t is dict:
        return all(map(_plain, v.keys())) and all(map(_plain, v.values()))
    return False


def _alive(node):
    ref = node._variable
    return ref is not None and ref() is not None


def _same_value(a, b):
    """Whether two recordings saw the same value (lenient on objects of
    other kinds: same type)."""
    if a is b:
        return True
    ta = type(a)
    if ta is not type(b):
        return False
    if ta in (tuple, list):
        return len(a) == len(b) and all(map(_same_value, a, b))
    if ta is dict:
        return a.keys() == b.keys() and all(
            _same_value(a[k], b[k]) for k in a)
    if is_array(a):
        if a.shape != b.shape or a.dtype != b.dtype:
            return False
        xp = backend.get_array_module(a)
        return bool(xp.array_equal(a, b, equal_nan=a.dtype.kind in 'fc'))
    if isinstance(a, (int, float, complex, str, bytes, numpy.generic)):
        return a == b or (a != a and b != b)
    return True


def _run_code(entries):
    for func, args, kwargs in entries:
        func(*args, **kwargs)


def _take(grads, k, leaf=False):
    g = grads.pop(k, None)
    if leaf:
        g = _settle(g)
    if type(g) is list:
        g = _sum(g)
    if type(g) is Variable:
        g = g._data
    return g


def _backward_variables(f, target, gy):
    """One op's backward on Variables (as the engine runs it), with the
    gradients brought to the inputs' shapes and dtypes, as arrays."""
    gy = tuple([None if g is None else _as_variable(g) for g in gy])
    if f._overrides_accumulate:
        gxs = f.backward_accumulate(target, gy, (None,) * len(target))
    else:
        gxs = f.backward(target, gy)
        if len(gxs) != len(target):
            if len(gxs) != len(f.inputs):
                raise ValueError(
                    '{}: number of gradients returned from backward is '
                    'incorrect: {} (expected {} or {})'.format(
                        f.label, len(gxs), len(f.inputs), len(target)))
            gxs = [gxs[i] for i in target]
    out = []
    for i, gx in zip(target, gxs):
        if gx is not None:
            node = f.inputs[i]
            data = gx._data if type(gx) is Variable else gx
            if type(gx) is not Variable or data.shape != node.shape or \
                    data.dtype != node.dtype:
                gx = _fit(f, i, node, gx)
            gx = gx._data
        out.append(gx)
    return out


class _BackwardNote(FunctionNode):
    """The identity, whose backward tells a :class:`_Entry` (the outputs
    of a static chain's call not replayed: Chainer's are a schedule's)."""

    def __init__(self, entry, book):
        self._entry, self._book = entry, book

    @property
    def label(self):
        return 'StaticScheduleFunction'

    def forward(self, inputs):
        return inputs

    def _backward_arrays(self, indexes, gys):
        return self.backward(indexes, gys)

    def backward(self, indexes, grad_outputs):
        return self._entry.backward(
            self._book, lambda: tuple([grad_outputs[i] for i in indexes]))


class StaticScheduleFunction(FunctionNode):
    """The whole replayed forward of a static chain, as one node.

    Its inputs are the array arguments of the forward, then the parameters
    the schedule reads; its outputs those of the forward.  Without a graph
    to record, its backward runs on arrays (``_backward_arrays``).  For
    double backprop, and under function hooks or ``debug``, it first builds
    the graph of the ops it ran (no op is run again) and differentiates it
    as define-by-run would.
    """

    _entry = _book = None  # (what Chainer would print at its backward)

    def __init__(self, schedule):
        self.schedule = schedule
        self._made = None
        self._vals = None

    def forward(self, inputs):
        compiled = self.schedule.compiled
        if compiled is not None:
            # (the ops are made only if a backward on Variables needs them)
            outputs, self._vals = compiled.forward(inputs)
        else:
            outputs, self._made = self.schedule.run(inputs, True)
        self._arrays = inputs, outputs
        return outputs

    def _made_ops(self):
        made = self._made
        if made is None and self._vals is not None:
            # a compiled replay's ops, run again (compiled ops are
            # deterministic) for the graph of a double backprop or hooks
            made = self._made = self.schedule.run(self._arrays[0], True)[1]
        if made is None or made is _RELEASED:
            raise _released_error(self)
        return made

    def _backward_arrays(self, indexes, gys):
        if self._entry is None:
            return self._arrays_backward(indexes, gys)
        return self._entry.backward(self._book, self._arrays_backward,
                                    indexes, gys)

    def _arrays_backward(self, indexes, gys):
        vals = self._vals
        if vals is not None:
            gxs = self.schedule.compiled.backward(self.schedule, vals,
                                                  indexes, gys)
            if gxs is not None:
                return gxs
        return self.schedule.backward(self._made_ops(), indexes, gys)

    def backward(self, indexes, grad_outputs):
        if self._entry is None:
            return self._graph_backward(indexes, grad_outputs)
        return self._entry.backward(self._book, self._graph_backward,
                                    indexes, grad_outputs)

    def _graph_backward(self, indexes, grad_outputs):
        made = self._made_ops()
        xs, ys = self._arrays
        in_vars = [_node_variable(node, x) for node, x in zip(self.inputs, xs)]
        out_nodes = self.schedule.graph(made, self.inputs)
        outs = []
        gys = []
        for node, y, gy in zip(out_nodes, ys, grad_outputs):
            if gy is not None:
                outs.append(_wrap_node(node, y))
                gys.append(gy)
        gxs = chainer.grad(outs, [in_vars[i] for i in indexes], gys,
                           enable_double_backprop=chainer.config.
                           enable_backprop)
        return tuple(gxs)

    def _release(self):
        super()._release()
        self._made = _RELEASED
        self._arrays = self._vals = None


def is_array(x):
    return type(x) is _ndarray or isinstance(x, backend._get_array_types())
