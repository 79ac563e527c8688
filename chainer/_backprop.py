"""The backward engine.

Functions are visited from the highest rank down (a heap), so the gradient
of every variable is complete before the function that made it runs.
Gradients meeting at one node are collected and summed once, when consumed.
Gradients of intermediate variables are dropped as soon as consumed (unless
``retain_grad``); leaf gradients are added to what the leaf already has.
Gradients that come back in a broadcast shape (or another dtype) are reduced
here, once, so no op has to ``sum_to`` for broadcasting.
"""

import heapq
import itertools
import math
import warnings

import numpy

import chainer
from chainer import backend
from chainer.configuration import _MISSING, _local_store, using_config
from chainer.variable import Variable, _check_grad, _new_variable


def _sum(gs):
    """Sums a list of gradients (Variables or arrays) in one op; arrays
    alone (made with no graph to record) as arrays, with MultiAdd's sums
    but not its node."""
    if len(gs) == 1:
        return gs[0]
    from chainer.functions.math import basic_math
    for g in gs:
        if isinstance(g, Variable):
            return basic_math.add(*gs)
    y = basic_math.sum_arrays(gs)
    if isinstance(y, numpy.generic):  # (0-d arithmetic)
        y = numpy.asarray(y)
    return y


def _as_variable(g):
    # The table of the engine holds arrays where a graph-free backward
    # (FunctionNode._backward_arrays) made them.
    if g is None or isinstance(g, Variable):
        return g
    return _new_variable(g)


class LeafSum:
    """A leaf's gradient that ops add terms to during one backward pass,
    computed where it is read (:func:`_settle`).

    An op whose ``_backward_arrays`` takes the pass's ``sums`` (a dict, see
    ``FunctionNode._sums_leaf_grads``) keeps one per leaf input and kind
    there: the first term enters the engine's table as this object, later
    ones are added to it (the op returns None for that input).  So a
    weight applied at each step of a sequence gets its gradient from one
    product over all the steps, instead of one thin product and one pass
    over the weight-sized gradient per step.

    A term is a tuple of arrays whose rows go together; a kind defines
    :meth:`flush`, which adds terms (their arrays concatenated by rows) to
    the sum so far.  Pending terms are flushed once they hold more bytes
    than the gradient itself (at least ``_min_limit``).
    """

    __slots__ = ('settled', 'shape', 'dtype', 'value', '_terms', '_pending',
                 '_limit')
    _min_limit = 1 << 25

    def __init__(self, shape, dtype):
        self.settled = False  # computed: later terms need a new sum
        self.shape, self.dtype = shape, dtype
        self.value = None  # the sum of the terms flushed so far
        self._terms = []
        self._pending = 0
        self._limit = max(math.prod(shape) * dtype.itemsize,
                          self._min_limit)

    @classmethod
    def open(cls, sums, node):
        """The sum of this kind that ``node`` has open in ``sums``, or
        None."""
        s = sums.get((cls, node))
        return None if s is None or s.settled else s

    def add(self, *term):
        self._terms.append(term)
        self._pending += sum([a.nbytes for a in term])
        if self._pending > self._limit:
            self._flush_pending()

    def _flush_pending(self):
        terms = self._terms
        if len(terms) == 1:
            cols = terms[0]
        else:
            xp = backend.get_array_module(terms[0][0])
            cols = [xp.concatenate(c) for c in zip(*terms)]
        self._terms, self._pending = [], 0
        self.value = self.flush(self.value, *cols)

    def flush(self, value, *cols):
        """``value`` (the sum so far, None at first) plus the terms whose
        arrays ``cols`` holds, concatenated by rows."""
        raise NotImplementedError

    def total(self):
        """The gradient: an array of the leaf's shape and dtype."""
        if self._terms:
            self._flush_pending()
        return self.value


def _settle(g):
    """A leaf's table entry with its :class:`LeafSum` computed."""
    if type(g) is list:
        return [_settle(t) for t in g]
    if isinstance(g, LeafSum):
        g.settled = True
        return g.total()
    return g


def _fit(func, index, node, gx):
    """Brings gx to the input's shape and dtype (broadcast reduction)."""
    if not isinstance(gx, Variable):
        if not isinstance(gx, backend._get_array_types()):
            raise TypeError(
                '{}.backward returned a {} as the gradient of input {}; '
                'expected a Variable or None'.format(
                    func.label, type(gx).__name__, index))
        gx = _new_variable(gx)
    data = gx._data
    if not type(func).__module__.startswith('chainer.'):
        # A user's function gets no broadcast reduction nor cast: Chainer
        # refuses the gradient.
        from chainer.variable import _check_grad
        try:
            _check_grad(data, node.shape, node.dtype)
        except (TypeError, ValueError) as e:
            raise has_a_bug(func, e) from None
    shape = node.shape
    if data.shape != shape:
        from chainer.functions.math.sum import sum_to
        try:
            gx = sum_to(gx, shape)
        except ValueError:
            raise ValueError(
                '{}.backward returned a gradient of shape {} for input {} of '
                'shape {}'.format(func.label, data.shape, index,
                                  shape)) from None
    if data.dtype != node.dtype:
        gx = chainer.functions.cast(gx, node.dtype)
    return gx


def _add_to(table, node, gx):
    cur = table.get(node)
    if cur is None:
        table[node] = gx
    elif type(cur) is list:
        cur.append(gx)
    else:
        table[node] = [cur, gx]


def _output_grad(grads, y, retain_grad, capture):
    """Takes the complete gradient of the output node ``y`` (None if none
    reached it) off the table."""
    g = grads.pop(y, None)
    if g is None:
        return None
    if type(g) is list:
        g = _sum(g)
    if retain_grad:
        g = y._grad_var = _as_variable(g)
    if capture is not None and y in capture:
        g = capture[y] = _as_variable(g)
    return g


def _run(roots, retain_grad, loss_scale, retain_graph, needed=None,
         capture=None, load_if_new=False):
    """Runs backprop from ``roots`` (a list of (node, grad Variable)).

    Returns the table of the gradients that reached leaf nodes (Variables
    or arrays), lists not yet summed.  The complete gradient of each
    non-leaf node that is a key of the dict ``capture`` is stored there as
    it passes (propagation goes on through it).
    """
    grads = {}
    leaves = {}
    heap = []
    seen = set()
    counter = itertools.count()
    # The configuration is read once per pass (as Chainer reads its hooks
    # and debug flag): the thread-local lookups are slow.
    store = _local_store
    debug = store.debug
    hooks = store._function_hooks
    # Without a graph to record or a debug check, ops that can compute
    # their gradients on arrays do (FunctionNode._backward_arrays); the
    # table then holds arrays as well as Variables.
    plain = not store.enable_backprop and not debug
    arrays_made = False
    sums = {}  # LeafSum of the pass, by (kind, leaf node)
    for node, g in roots:
        func = node._creator_node
        _add_to(grads if func is not None else leaves, node, g)
        if func is not None and func not in seen:
            seen.add(func)
            heapq.heappush(heap, (-func.rank, next(counter), func))

    heappop = heapq.heappop
    heappush = heapq.heappush
    # A function found while the heap is empty waits in ``nxt`` instead: a
    # chain of ops then never touches the heap.  The order is the heap's
    # (``nxt`` goes in first when another function is found).
    nxt = None
    while True:
        if nxt is not None:
            func = nxt
            nxt = None
        elif heap:
            func = heappop(heap)[2]
        else:
            break
        inputs = func.inputs
        if inputs is None:
            raise RuntimeError(
                'backward: {} was unchained (FunctionNode.unchain) and '
                'cannot be backpropagated through'.format(func.label))

        # The gradients of the outputs, complete now (rank order).
        outputs = func.outputs
        if len(outputs) == 1:
            y = outputs[0]()
            if y is None:
                continue
            # (_output_grad inlined: the hot path of one-output ops)
            g = grads.pop(y, None)
            if g is None:
                continue
            if type(g) is list:
                g = _sum(g)
            if retain_grad:
                g = y._grad_var = _as_variable(g)
            if capture is not None and y in capture:
                g = capture[y] = _as_variable(g)
            gys = (g,)
        else:
            gys = []
            for ref in outputs:
                y = ref()
                if y is None:
                    gys.append(None)
                    continue
                g = _output_grad(grads, y, retain_grad, capture)
                if g is None and load_if_new:
                    # An output nothing propagated into brings the
                    # gradient set on it, as in Chainer.
                    g = y._grad_var
                    if g is not None:
                        if not retain_grad:
                            y._grad_var = None
                        if capture is not None and y in capture:
                            capture[y] = g
                gys.append(g)
            if all([g is None for g in gys]):
                continue
            gys = tuple(gys)

        # The inputs that want a gradient.
        n = len(inputs)
        if n == 1 and needed is None:
            if not inputs[0].requires_grad:
                continue
            target = (0,)
        elif n == 2 and needed is None:  # (no list built: the common case)
            x0, x1 = inputs
            if x0.requires_grad:
                target = (0, 1) if x1.requires_grad else (0,)
            elif x1.requires_grad:
                target = (1,)
            else:
                continue
        else:
            target = tuple([i for i, x in enumerate(inputs)
                            if x.requires_grad and
                            (needed is None or x in needed)])
            if not target:
                continue

        local_hooks = func._local_function_hooks
        gxs = None
        if plain and func._backward_arrays is not None and \
                not (hooks or local_hooks):
            if len(gys) == 1:
                arrays = (g._data,) if type(g) is Variable else \
                    None if isinstance(g, Variable) else gys
            else:
                arrays = _arrays(gys)
            if arrays is not None:
                gxs = func._backward_arrays(target, arrays, sums) \
                    if func._sums_leaf_grads else \
                    func._backward_arrays(target, arrays)
        if gxs is not None:
            # Arrays of the inputs' shapes and dtypes, by contract.
            if not retain_graph:
                func._release()
            fitted = arrays_made = True
        else:
            if arrays_made:  # arrays may have reached gys: as Variables
                if len(gys) == 1:
                    if not isinstance(g, Variable):
                        gys = (_as_variable(g),)
                else:
                    gys = tuple([_as_variable(g) for g in gys])
            if hooks or local_hooks:
                from chainer.function_node import _merged_hooks
                hooked = _merged_hooks(hooks, local_hooks)
                in_data = _in_data(func)
                out_grad = tuple([None if g is None else g._data
                                  for g in gys])
                for hook in hooked:
                    hook.backward_preprocess(func, in_data, out_grad)
            try:
                if func._overrides_accumulate:
                    g_inputs = tuple([_take(grads, leaves, inputs[i])
                                      for i in target])
                    gxs = func.backward_accumulate(target, gys, g_inputs)
                else:
                    gxs = func.backward(target, gys)
            except Exception as e:
                if debug and getattr(func, 'stack', None):
                    _add_stack(e, func.stack)
                raise
            # (the checks of what backward returned name no stack, as
            # Chainer's)
            if not func._overrides_accumulate:
                n = len(gxs)
                if n != len(target):
                    if n != len(inputs):
                        _wrong_count(func, n, len(target))
                    gxs = [gxs[i] for i in target]
            if debug and not type(func).__module__.startswith('chainer.'):
                _check_user_grads(func, target, gxs, leaves, grads)
            if hooks or local_hooks:
                for hook in hooked:
                    hook.backward_postprocess(func, in_data, out_grad)
            if not retain_graph:
                func._release()
            if debug:
                func._check_nan(gxs, 'backward')
            fitted = False

        for i, gx in zip(target, gxs):
            if gx is None:
                continue
            x = inputs[i]
            if not fitted and (type(gx) is not Variable or
                               gx._data.shape != x.shape or
                               gx._data.dtype != x.dtype):
                gx = _fit(func, i, x, gx)
            creator = x._creator_node
            if creator is None:
                table = leaves
            else:
                table = grads
                if creator not in seen:
                    seen.add(creator)
                    if nxt is None and not heap:
                        nxt = creator
                    else:
                        if nxt is not None:
                            heappush(heap, (-nxt.rank, next(counter), nxt))
                            nxt = None
                        heappush(heap,
                                 (-creator.rank, next(counter), creator))
            cur = table.get(x)
            if cur is None:
                table[x] = gx
            elif type(cur) is list:
                cur.append(gx)
            else:
                table[x] = [cur, gx]
    return leaves


def _arrays(gs):
    """The arrays of gradients for ``_backward_arrays``; None when one is a
    Variable of a subclass (a layout's, say), left to ``backward``."""
    ret = []
    for g in gs:
        if type(g) is Variable:
            g = g._data
        elif isinstance(g, Variable):
            return None
        ret.append(g)
    return tuple(ret)


def _check_user_grads(func, target, gxs, leaves, grads):
    """Debug mode: the gradients of a user-written function are checked
    as Chainer checks them, in its words (chainer-ng's own functions may
    return broadcast gradients, which the engine reduces): each against its
    input's shape, and against the first gradient the input has (from
    another op, or a leaf's own from before) in shape and dtype.  A wrong
    dtype of a first gradient is left to :func:`_fit`, as Chainer leaves
    it."""
    for i, gx in zip(target, gxs):
        if gx is None:
            continue
        x = func.inputs[i]
        if not isinstance(gx, Variable):
            raise ValueError(
                'type of gradients returned from backward is incorrect: '
                '{} != expected {}'.format(type(gx), Variable) +
                _function_info(func))
        if gx.shape != x.shape:
            raise ValueError(
                'shape of gradients returned from backward is incorrect: '
                'input-index={}, actual {} != expected {}'.format(
                    i, gx.shape, x.shape) + _function_info(func))
        first = (leaves if x._creator_node is None else grads).get(x)
        if type(first) is list:
            first = first[0]
        if first is None and x._creator_node is None:
            first = x._grad_var
        if first is None:
            continue
        for what in ('shape', 'dtype'):
            if getattr(gx, what) != getattr(first, what):
                raise ValueError(
                    '{} of gradients returned from backward is incorrect: '
                    'input-index={}, actual {} != expected {}'.format(
                        what, i, getattr(gx, what), getattr(first, what)) +
                    _function_info(func))


def _wrong_count(func, n, n_target):
    n_inputs = len(func.inputs)
    expected = str(n_inputs) if n_inputs == n_target else \
        '{} or {}'.format(n_inputs, n_target)
    raise ValueError(
        'number of gradients returned from backward is incorrect: {} != '
        'expected {}'.format(n, expected) + _function_info(func))


def _function_info(func):
    """The lines Chainer appends to a bad backward's error: the function
    and the shapes and dtypes of its inputs and outputs."""
    lines = ['', '  function={} ({})'.format(func._impl_name, func.label)]
    for i, x in enumerate(func.inputs):
        lines.append('    input {}: shape={} dtype={}'.format(
            i, x.shape, x.dtype))
    for i, ref in enumerate(func.outputs):
        y = ref()
        if y is None:
            # (sic: Chainer leaves the index out)
            lines.append('    output {}: not available')
        else:
            lines.append('    output {}: shape={} dtype={}'.format(
                i, y.shape, y.dtype))
    return '\n'.join(lines)


def has_a_bug(func, e):
    """The error ``e`` (a bad gradient) in Chainer's words for a user's
    function; Chainer names the function by a class property (its repr
    shows an address) and its label."""
    import traceback
    detail = 'Function `{}` ({}) has a bug.\n'.format(
        type(func)._impl_name, func.label)
    stack = getattr(func, 'stack', None)
    if stack:
        detail += 'Stacktrace of the function is below:\n' + ''.join(
            traceback.format_list(stack[:-1]))
    detail += ('\nPlease report this error to the issue tracker with the '
               'stack trace,\nthe information of your environment, and your '
               'script:\nhttps://github.com/chainer/chainer/issues/new.\n')
    return type(e)(detail + str(e))


def _add_stack(e, stack):
    """Appends where the function was called (recorded in debug mode) to
    the message of an error raised by its backward."""
    import traceback
    where = '\n{}\nStacktrace of the function is below:\n{}'.format(
        '-' * 80, ''.join(traceback.format_list(stack[:-1])))
    if e.args and isinstance(e.args[0], str):
        e.args = (e.args[0] + where,) + e.args[1:]
    else:
        e.args = e.args + (where,)


def _take(grads, leaves, node):
    if node._creator_node is None:
        g = _settle(leaves.pop(node, None))
    else:
        g = grads.pop(node, None)
    if type(g) is list:
        g = _sum(g)
    return _as_variable(g)


def _in_data(func):
    """The input arrays a function hook sees in backward, as Chainer's:
    those still held, by this function (its retained inputs), by the
    function that made an input (its retained outputs) or by the input's
    node (``retain_data``); None for the others."""
    out = [None] * len(func.inputs)
    data = func._retained_in_data
    if type(data) is tuple:
        for i, d in zip(func._input_indexes_to_retain, data):
            out[i] = d
    for i, node in enumerate(func.inputs):
        if out[i] is None:
            out[i] = node.data if node.data is not None else \
                _retained_output(node)
    return tuple(out)


def _retained_output(node):
    """``node``'s array where its creator retained it, else None."""
    creator = node._creator_node
    if creator is None or type(creator._retained_out_data) is not tuple:
        return None
    for ref, d in zip(creator.outputs, creator.output_data):
        if ref() is node:
            return d
    return None


def _seed(var, loss_scale, caller):
    """The initial error of an output: its grad, or ones for one element."""
    data = var._data
    gv = var.grad_var
    if gv is not None:
        return gv
    if data.size != 1:
        # A TypeError, the type Chainer 7 raises here (by accident).
        raise TypeError(
            '{}: the output has shape {} (more than one element), so the '
            'initial error must be given: set y.grad to an array of that '
            'shape (e.g. ones) before calling backward, or reduce the output '
            'to a scalar (e.g. F.sum(y))'.format(caller, data.shape))
    if data.ndim != 0:
        warnings.warn(
            'Treating a variable with only one element as a scalar in '
            'Variable.backward is deprecated. A scalar variable must be a '
            '0-dimensional array. Apply chainer.functions.squeeze to obtain '
            'a scalar variable. If the size of this variable accidentally '
            'becomes one, set zero to grad.', DeprecationWarning)
    g = _ones(var, loss_scale)
    if isinstance(data, numpy.generic):
        # data set to a NumPy scalar: the ones made for it are refused, as
        # Chainer refuses them
        _check_grad(g._data, data.shape, data.dtype, type(data))
    return g


def _ones(var, loss_scale):
    data = var._data
    xp = var.xp
    if xp is numpy:
        g = numpy.ones(data.shape, data.dtype)
    else:
        with chainer.using_device(var.device):
            g = xp.ones_like(data)
    if loss_scale is not None:
        g *= loss_scale
    return _new_variable(g)


def _store_leaf_grads(leaves, loss_scale):
    for node, gs in leaves.items():
        old = node._grad_var
        gs = _settle(gs)
        if type(gs) is list:
            if old is not None:
                gs.insert(0, old)
            gs = _sum(gs)
        elif old is not None:
            gs = _sum([old, gs])
        if not isinstance(gs, Variable):
            gs = _new_variable(gs)
        node._grad_var = gs
        if loss_scale is not None:
            node._loss_scale = loss_scale


def backward_from_variable(var, retain_grad, enable_double_backprop,
                           loss_scale, retain_graph=True):
    """Variable.backward: backprop from one output."""
    node = var._node
    if node is None or node._creator_node is None:
        data = var._data
        if data is not None and data.size == 1 and (
                node is None or node._grad_var is None):
            # A leaf of one element gets its initial error (ones) as its
            # gradient, as in Chainer.
            var.node._grad_var = _seed(var, loss_scale, 'Variable.backward')
        return
    if var._data is None:
        raise RuntimeError('backward: the variable has no data')
    inputs = node._creator_node.inputs
    if inputs is not None and var._data.size != 1 and \
            not any([x.requires_grad for x in inputs]):
        # Nothing to differentiate: no initial error is needed (Chainer
        # returns here too).
        return
    # (using_config('enable_backprop', ...) inlined: the per-step path)
    store = _local_store
    saved = store.__dict__.get('enable_backprop', _MISSING)
    store.enable_backprop = enable_double_backprop
    try:
        seed = _seed(var, loss_scale, 'Variable.backward')
        leaves = _run([(node, seed)], retain_grad, loss_scale, retain_graph,
                      load_if_new=True)
        if retain_grad:
            node._grad_var = seed
        else:
            node._grad_var = None
        _store_leaf_grads(leaves, loss_scale)
    finally:
        if saved is _MISSING:
            del store.enable_backprop
        else:
            store.enable_backprop = saved


def backward(outputs, grad_outputs=None, **kwargs):
    """Runs backprop from several outputs at once.

    Args:
        outputs (tuple or list of Variable): The outputs.
        grad_outputs (tuple or list): Their initial errors (Variables or
            arrays, or None to use each output's ``grad``).
        enable_double_backprop (bool): Record the backward graph.
    """
    enable_double_backprop = kwargs.pop('enable_double_backprop', False)
    if 'retain_grad' in kwargs:
        raise ValueError('chainer.backward: retain_grad is not supported; '
                         'use Variable.backward(retain_grad=True)')
    if 'loss_scale' in kwargs:
        raise ValueError('chainer.backward: loss_scale is not supported; '
                         'use Variable.backward(loss_scale=...)')
    if kwargs:
        raise TypeError('chainer.backward got unexpected keyword '
                        'argument(s): {}'.format(', '.join(sorted(kwargs))))
    if not isinstance(outputs, (tuple, list)):
        raise TypeError('outputs must be a tuple or a list, not {}.'.format(
            type(outputs)))
    given = grad_outputs is not None
    if not given:
        grad_outputs = [None] * len(outputs)
    elif not isinstance(grad_outputs, (tuple, list)):
        raise TypeError(
            'grad_outputs must be a tuple or a list or None, not {}.'.format(
                type(grad_outputs)))
    elif len(grad_outputs) != len(outputs):
        raise ValueError(
            'grad_outputs must be of the same length as outputs.\n'
            'len(outputs) = {}, len(grad_outputs) = {}'.format(
                len(outputs), len(grad_outputs)))
    with using_config('enable_backprop', enable_double_backprop):
        roots = []
        for y, gy in zip(outputs, grad_outputs):
            if not isinstance(y, Variable):
                raise TypeError('chainer.backward: each output must be a '
                                'Variable, got {}'.format(type(y).__name__))
            if gy is None:
                if y.grad_var is None:
                    if not given:
                        warnings.warn(
                            'outputs contains a Variable without grad, or '
                            'duplicate outputs. Note that chainer.backward '
                            'does not set default grad.', RuntimeWarning)
                    continue
                gy = y.grad_var
            elif not isinstance(gy, Variable):
                gy = _new_variable(gy)
            node = y._node
            if node is None or node._creator_node is None:
                continue
            if not given and any([node is n for n, _ in roots]):
                # Chainer uses an output's gradient once.
                warnings.warn(
                    'outputs contains a Variable without grad, or '
                    'duplicate outputs. Note that chainer.backward '
                    'does not set default grad.', RuntimeWarning)
                continue
            roots.append((node, gy))
        if not roots:
            return
        leaves = _run(roots, False, None, True, load_if_new=True)
        for node, _ in roots:
            node._grad_var = None
        _store_leaf_grads(leaves, None)


def _needed_nodes(outputs, inputs):
    """The nodes on some path from an output back to an input."""
    targets = set(x._node for x in inputs)
    needed = set()
    visited = set()
    # Iterative post-order walk over the functions.
    stack = [(y.node, False) for y in outputs]
    while stack:
        node, done = stack.pop()
        if done:
            func = node._creator_node
            if node in targets or (func is not None and func.inputs and any(
                    x in needed for x in func.inputs)):
                needed.add(node)
            continue
        if node in visited:
            continue
        visited.add(node)
        stack.append((node, True))
        func = node._creator_node
        if func is not None and func.inputs:
            for x in func.inputs:
                if x not in visited:
                    stack.append((x, False))
    return needed


def grad(outputs, inputs, grad_outputs, grad_inputs, set_grad, retain_grad,
         enable_double_backprop, loss_scale):
    for x in inputs:
        x.node  # make sure every input has a node
    with using_config('enable_backprop', enable_double_backprop):
        roots = []
        for i, y in enumerate(outputs):
            gy = None if grad_outputs is None else grad_outputs[i]
            if gy is None:
                # chainer.grad seeds every output with ones (any size).
                gy = _ones(y, loss_scale)
            elif not isinstance(gy, Variable):
                gy = _new_variable(gy)
            roots.append((y.node, gy))
        # The grad_inputs join the gradients of their inputs at the start,
        # so they flow on to the inputs upstream of them, as in Chainer.
        if grad_inputs is not None:
            for x, gi in zip(inputs, grad_inputs):
                if gi is not None:
                    if not isinstance(gi, Variable):
                        gi = _new_variable(gi)
                    roots.append((x._node, gi))
        needed = _needed_nodes(outputs, inputs)
        capture = {x._node: None for x in inputs}
        leaves = _run(roots, retain_grad, loss_scale, True, needed, capture)
        ret = []
        for x in inputs:
            node = x._node
            if node._creator_node is None:
                g = _settle(leaves.get(node))
                if type(g) is list:
                    g = leaves[node] = _sum(g)
            else:
                g = capture[node]
            ret.append(_as_variable(g))
        if set_grad:
            for x, g in zip(inputs, ret):
                x.grad_var = g
    return ret
