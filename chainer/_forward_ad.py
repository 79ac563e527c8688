"""Forward-mode derivatives: Jacobian-vector products over a recorded graph.

:func:`jvp` walks the functions between ``inputs`` and ``outputs`` in rank
order (the order they ran) and pushes a tangent through each one. A function
with a ``jvp`` method gives the output tangents directly from the input
tangents (a native forward rule). For any other function the rule is derived
from its backward: ``backward`` is linear in the output gradient ``u``, so
with the graph of ``u`` recorded, differentiating ``<backward(u), t>`` with
respect to ``u`` gives ``J t``. That costs a small backward pass per
function, and works for every function that supports double backprop.
"""

import contextlib

import numpy

import chainer
from chainer import _backprop
from chainer import backend
from chainer.configuration import using_config
from chainer.variable import Variable

# Switched off by gradient_check.check_jvp to compare every native rule with
# the rule derived from the function's backward.
_native_rules = True
_registered = False


@contextlib.contextmanager
def _derived_rules_only():
    global _native_rules
    saved, _native_rules = _native_rules, False
    try:
        yield
    finally:
        _native_rules = saved


def _as_tangent(t, x, i):
    if t is None:
        return None
    if not isinstance(t, Variable):
        if not isinstance(t, backend._get_array_types()):
            raise TypeError(
                'jvp: tangents[{}] must be None, a Variable or an array, '
                'but got {}'.format(i, type(t).__name__))
        t = Variable(t, requires_grad=False)
    if t.shape != x.shape:
        raise ValueError(
            'jvp: tangents[{}] must have the shape of inputs[{}], {}, but '
            'has shape {}'.format(i, i, x.shape, t.shape))
    if t.dtype != x.dtype:
        raise TypeError(
            'jvp: tangents[{}] must have the dtype of inputs[{}], {}, but '
            'has dtype {}'.format(i, i, x.dtype, t.dtype))
    if x.dtype.kind != 'f':
        raise TypeError(
            'jvp: inputs[{}] has dtype {}; only floating-point inputs have '
            'tangents (give None)'.format(i, x.dtype))
    return t


def _functions_between(outputs, input_nodes):
    """The functions on a path from an input to an output, in the order
    they ran, and the variable nodes on those paths."""
    on_path = {}  # id(variable node) -> node: reaches an output
    funcs = {}
    stack = [y.node for y in outputs]
    while stack:
        vnode = stack.pop()
        if id(vnode) in on_path:
            continue
        on_path[id(vnode)] = vnode
        if id(vnode) in input_nodes:
            continue  # an input's own creator is not differentiated
        func = vnode.creator_node
        if func is not None and id(func) not in funcs:
            funcs[id(func)] = func
            stack.extend(func.inputs)
    # Keep the functions that an input reaches, in rank (= run) order.
    reached = set(input_nodes)
    ordered = []
    for func in sorted(funcs.values(), key=lambda f: f.rank):
        if any(id(x) in reached for x in func.inputs):
            ordered.append(func)
            for ref in func.outputs:
                y = ref()
                if y is not None:
                    reached.add(id(y))
    return ordered, on_path


def _array_module(tangents):
    """NumPy or CuPy, after the first tangent given (a Variable)."""
    return backend.get_array_module(
        next(t for t in tangents if t is not None).array)


def _derived_rule(func, in_tangents, out_nodes, double):
    """``J t`` of one function from its backward (see the module's note)."""
    if isinstance(func, chainer.FunctionAdapter):
        raise TypeError(
            'jvp: {} is a legacy chainer.Function, whose backward works on '
            'arrays and cannot be differentiated; write it as a FunctionNode '
            'or give it a jvp method'.format(func.label))
    # Any u gives the rule (backward is linear in it); a random one also
    # shows a backward that is not differentiable: its result is then
    # non-zero without a graph back to u.
    xp = _array_module(in_tangents)
    rs = numpy.random.RandomState(0)
    us = tuple(None if y is None else Variable(
        xp.asarray(rs.standard_normal(y.shape), y.dtype))
        for y in out_nodes)
    targets = tuple(i for i, t in enumerate(in_tangents) if t is not None)
    ys, ts = [], []
    with using_config('enable_backprop', True):
        gxs = func.backward(targets, us)
        if len(gxs) == len(func.inputs) and len(gxs) != len(targets):
            gxs = tuple(gxs[i] for i in targets)
        for i, gx in zip(targets, gxs):
            if gx is None:
                continue
            gx = _backprop._fit(func, i, func.inputs[i], gx)
            if gx.creator_node is None and not any(gx is u for u in us):
                if bool(backend.get_array_module(gx.array).any(gx.array)):
                    raise TypeError(
                        'jvp: the backward of {} is not differentiable with '
                        'respect to its output gradients (it does not '
                        'support double backprop); give it a jvp '
                        'method'.format(func.label))
                continue
            ys.append(gx)
            ts.append(in_tangents[i])
    live_us = [u for u in us if u is not None]
    if not ys:
        return (None,) * len(us)
    got = chainer.grad(ys, live_us, grad_outputs=ts,
                       enable_double_backprop=double)
    got = iter(got)
    return tuple(None if u is None else next(got) for u in us)


def jvp(outputs, inputs, tangents, *, enable_double_backprop=False):
    """Computes Jacobian-vector products (forward-mode derivatives).

    Given ``outputs`` computed from ``inputs`` (as for :func:`chainer.grad`,
    the graph is already recorded), returns the directional derivative of
    each output along ``tangents``: ``sum_i d(output)/d(inputs[i]) .
    tangents[i]``. A function with a ``jvp(input_tangents)`` method uses it
    (a native rule); any other function gets the rule derived from its
    backward, so every function that supports double backprop works.

    Args:
        outputs (tuple or list of Variable): The outputs.
        inputs (tuple or list of Variable): The variables the tangents are
            given for.
        tangents (tuple or list): One per input: an array or a Variable of
            the input's shape and dtype, or None for a zero tangent.
        enable_double_backprop (bool): Record the graph of the computation,
            so the results can be differentiated again (Hessian-vector
            products, jvp of jvp).

    Returns:
        A list with one Variable per output (None for an output that is not
        of a floating-point dtype).

    >>> import numpy as np
    >>> import chainer
    >>> import chainer.functions as F
    >>> x = chainer.Variable(np.array([1., 2.], np.float32))
    >>> y = x * x + F.sin(x) * 0
    >>> dy, = chainer.jvp([y], [x], [np.array([1., 0.], np.float32)])
    >>> dy.array
    array([2., 0.], dtype=float32)
    """
    for name, seq in (('outputs', outputs), ('inputs', inputs),
                      ('tangents', tangents)):
        if not isinstance(seq, (tuple, list)):
            raise TypeError('jvp: {} must be a tuple or a list, not '
                            '{}'.format(name, type(seq).__name__))
    for name, seq in (('outputs', outputs), ('inputs', inputs)):
        for i, v in enumerate(seq):
            if not isinstance(v, Variable):
                raise TypeError('jvp: {}[{}] must be a Variable, but got '
                                '{}'.format(name, i, type(v).__name__))
    if len(tangents) != len(inputs):
        raise ValueError(
            'jvp: tangents must have one entry per input ({} inputs, {} '
            'tangents)'.format(len(inputs), len(tangents)))
    tangent_of = {}
    input_nodes = {}
    for i, (x, t) in enumerate(zip(inputs, tangents)):
        t = _as_tangent(t, x, i)
        node = x.node
        input_nodes[id(node)] = node
        if t is not None:
            prev = tangent_of.get(id(node))
            tangent_of[id(node)] = t if prev is None else prev + t
    global _registered
    if not _registered:
        from chainer.functions import _jvp_rules
        _jvp_rules.register()
        _registered = True
    double = enable_double_backprop
    funcs, on_path = _functions_between(outputs, input_nodes)
    with using_config('enable_backprop', double):
        for func in funcs:
            in_tangents = tuple(tangent_of.get(id(x)) for x in func.inputs)
            if all(t is None for t in in_tangents):
                continue
            out_nodes = tuple(
                y if y is not None and id(y) in on_path else None
                for y in (ref() for ref in func.outputs))
            rule = getattr(func, 'jvp', None) if _native_rules else None
            if rule is not None:
                out_tangents = rule(in_tangents)
            else:
                out_tangents = _derived_rule(func, in_tangents, out_nodes,
                                             double)
            for y, t in zip(out_nodes, out_tangents):
                if y is not None and t is not None:
                    if not isinstance(t, Variable):
                        t = Variable(t, requires_grad=False)
                    prev = tangent_of.get(id(y))
                    tangent_of[id(y)] = t if prev is None else prev + t
    ret = []
    for y in outputs:
        if y.dtype.kind != 'f':
            ret.append(None)
            continue
        t = tangent_of.get(id(y.node))
        if t is None:
            xp = backend.get_array_module(y.array)
            t = Variable(xp.zeros(y.shape, y.dtype), requires_grad=False)
        ret.append(t)
    return ret
