"""Making code that is not a FunctionNode show up as one in the graph.

A function that works on arrays (``np.full(x.shape, v)``, ``x.array + 1``)
leaves the graph, so the export cannot trace through it.
:func:`fake_as_funcnode` (or the decorator :func:`as_funcnode`) wraps it in
a :class:`WrappedFunctionNode` named as asked; a converter of that name
(built in, or given in ``external_converters``) exports it, and backward
runs through the wrapped function where it is differentiable.
"""

import chainer


def _is_var(x):
    return isinstance(x, chainer.Variable)


def _map(structure, fn):
    """``structure`` (nested lists, tuples, dicts) with ``fn`` applied to
    each Variable or array leaf."""
    if isinstance(structure, (list, tuple)):
        return type(structure)(_map(s, fn) for s in structure)
    if isinstance(structure, dict):
        return {k: _map(v, fn) for k, v in structure.items()}
    if _is_var(structure) or isinstance(structure,
                                        chainer.get_array_types()):
        return fn(structure)
    return structure


def _leaves(structure):
    found = []
    _map(structure, found.append)
    return found


class WrappedFunctionNode(chainer.FunctionNode):
    """A FunctionNode that runs ``func(*args, **kwargs)``.

    Its inputs are the Variables found in the arguments (in lists, tuples
    and dicts too), its outputs the arrays and Variables ``func`` returns,
    in the order found. The other arguments are attributes of the node, for
    the converter to read.

    Args:
        name (str): The node's name, under which its converter is looked up.
        func: The function wrapped.
        args (tuple): Its positional arguments.
        kwargs (dict): Its keyword arguments.
        attributes (dict): Attributes to set on the node.
    """

    def __init__(self, name, func, args, kwargs, attributes=None):
        self.custom_function_node_name = name
        self.func = func
        self.args = args
        self.kwargs = kwargs
        self.skeleton = None
        self._internal = None
        for key, value in (attributes or {}).items():
            setattr(self, key, value)

    @property
    def label(self):
        return self.custom_function_node_name

    def forward(self, inputs):
        # The function runs on fresh Variables over the inputs, recording
        # its own graph for backward.
        xs = [chainer.Variable(x) for x in inputs]
        it = iter(xs)
        args = _map(self.args, lambda v: next(it) if _is_var(v) else v)
        kwargs = _map(self.kwargs, lambda v: next(it) if _is_var(v) else v)
        with chainer.force_backprop_mode():
            results = self.func(*args, **kwargs)
        self.skeleton = results
        ys = _leaves(results)
        if not ys:
            raise ValueError(
                '{}: the function wrapped by as_funcnode returned no array '
                'or Variable'.format(self.label))
        self._internal = (xs, ys)
        return tuple(y.array if _is_var(y) else y for y in ys)

    def backward(self, indexes, grad_outputs):
        xs, ys = self._internal
        pairs = [(y, gy) for y, gy in zip(ys, grad_outputs)
                 if _is_var(y) and gy is not None]
        if not pairs:
            return (None,) * len(indexes)
        gxs = chainer.grad([y for y, _ in pairs], [xs[i] for i in indexes],
                           [gy for _, gy in pairs])
        return tuple(gxs)


def _attributes(func, args, kwargs, rename_attributes):
    """The arguments that are not Variables, by name: ``arg<n>`` for a
    positional one and the keyword otherwise (defaults included), renamed
    by ``rename_attributes`` (``(index or keyword, new name)`` pairs)."""
    import inspect
    names = {}
    for index_or_key, new in rename_attributes or ():
        names[index_or_key] = new
    attributes = {}
    try:
        sig = inspect.signature(func)
        bound = sig.bind(*args, **kwargs)
    except (TypeError, ValueError):
        bound = None
    for i, a in enumerate(args):
        if not _leaves(a):
            key = names.get(i, 'arg{}'.format(i))
            attributes[key] = a
    for key, a in kwargs.items():
        if not _leaves(a):
            attributes[names.get(key, key)] = a
    if bound is not None:
        given = set(bound.arguments)
        for p in sig.parameters.values():
            if p.name not in given and p.default is not p.empty:
                attributes.setdefault(names.get(p.name, p.name), p.default)
    return attributes


def fake_as_funcnode(alt_func, name, rename_attributes=None,
                     experimental_warning=True):
    """Makes ``alt_func`` act as a FunctionNode named ``name``.

    The returned function calls ``alt_func`` through a
    :class:`WrappedFunctionNode`: the Variables among its arguments (also
    in lists, tuples and dicts) are the node's inputs, and what it returns
    (arrays or Variables, possibly in lists, tuples and dicts) its outputs,
    given back as Variables in the same structure. The other arguments are
    attributes of the node: ``arg<n>`` for the n-th positional one, the
    keyword for the others (defaults included), or the name
    ``rename_attributes`` gives (a list of ``(index or keyword, name)``).

    >>> import numpy as np
    >>> def add(x, value=1):
    ...     return x.array + value
    >>> add = fake_as_funcnode(add, 'AddConstant', experimental_warning=False)
    >>> y = add(chainer.Variable(np.zeros(2, np.float32)))
    >>> type(y.creator).__name__, y.creator.value
    ('WrappedFunctionNode', 1)

    Args:
        alt_func: The function to call.
        name (str): The node's name (its converter is looked up by it).
        rename_attributes (list): Names of the attributes.
        experimental_warning (bool): Warn that the API is experimental.
    """
    if experimental_warning:
        chainer.utils.experimental('fake_as_funcnode')

    def wrapped(*args, **kwargs):
        inputs = [v for v in _leaves((args, kwargs)) if _is_var(v)]
        if not inputs:
            # Nothing to trace: plain call, as Chainer's.
            return alt_func(*args, **kwargs)
        attributes = _attributes(alt_func, args, kwargs, rename_attributes)
        node = WrappedFunctionNode(name, alt_func, args, kwargs, attributes)
        outputs = iter(node.apply(inputs))
        return _map(node.skeleton, lambda _: next(outputs))

    wrapped.__wrapped__ = alt_func
    return wrapped


def as_funcnode(name, rename_attributes=None):
    """Decorator form of :func:`fake_as_funcnode`.

    >>> @as_funcnode('Shape')
    ... def shape(x):
    ...     return np.array(x.shape)
    """
    def decorator(func):
        return fake_as_funcnode(func, name, rename_attributes, False)
    return decorator
