"""FunctionNode: one application of an op in the graph, and ``grad()``.

An op subclasses :class:`FunctionNode`: ``forward`` works on raw arrays
(NumPy or CuPy) and says with ``retain_inputs``/``retain_outputs`` what its
backward needs; ``backward`` works on Variables and is built from
differentiable functions, so the gradient can be differentiated again.
"""

import collections
import traceback
import weakref

import numpy

import chainer
from chainer import backend
from chainer.configuration import _local_store
from chainer.variable import (Variable, VariableNode, _new_variable,
                              _wrap_node)

from chainer.graph_optimizations.static_graph_utilities import \
    static_forward_optimizations  # NOQA

_ndarray = numpy.ndarray
_generic = numpy.generic
_asarray = numpy.asarray
_weakref = weakref.ref
_object_new = object.__new__
_RELEASED = object()  # retained arrays dropped by backward(retain_graph=False)
_IN_ORDER = ((), (0,), (0, 1), (0, 1, 2))  # retaining these keeps the tuple


def _array_types():
    return backend._get_array_types()


def _graph_free(retained):
    """True when an op's backward may compute its gradient on the arrays it
    ``retained`` (its ``_retained_in_data`` or ``_retained_out_data``)
    without building nodes: they are still held, backprop is off (no double
    backprop), and no function hook or debug check would see the nodes."""
    if retained is None or retained is _RELEASED:
        return False
    store = _local_store
    return not store.enable_backprop and not store._function_hooks and \
        not store.debug


def _input_type_error(func, inputs):
    # Chainer's words, listing the type of every input's array
    return TypeError(
        'incompatible array types are mixed in the forward input ({}).\n'
        'Actual: {}'.format(func.label, ', '.join(
            str(type(x._data if isinstance(x, Variable) else x))
            for x in inputs)))


def _new_node(data, requires_grad, creator, rank, variable=None):
    node = VariableNode.__new__(VariableNode)
    node._variable = None if variable is None else _weakref(variable)
    node._creator_node = creator
    node._rank = rank
    if data is None:  # a missing input or output
        node.dtype = node.shape = None
    else:
        node.dtype = data.dtype
        node.shape = data.shape
    node.name = None
    node.requires_grad = requires_grad
    node.data = None
    node._grad_var = None
    node._loss_scale = None
    return node


class _InstanceOverridable:
    """The base ``check_type_forward``: one assigned on an instance (a mock,
    say) replaces it for that node and turns its type check on."""

    def __init__(self, func):
        self._func = func
        self.__doc__ = func.__doc__

    def __get__(self, obj, cls=None):
        if obj is None:
            return self._func
        f = obj.__dict__.get('check_type_forward')
        return self._func.__get__(obj, cls) if f is None else f

    def __set__(self, obj, value):
        obj.__dict__['check_type_forward'] = value
        obj._has_type_check = True


def _node_variable(node, data):
    # The node's own Variable while it is alive and still holds ``data``
    # (so graph walkers see Chainer's identities), else a new one over it.
    ref = node._variable
    if ref is not None:
        v = ref()
        if v is not None and v._data is data:
            return v
    return _wrap_node(node, data)


class FunctionNode:
    """The base class of differentiable functions (ops).

    A subclass implements :meth:`forward` (or :meth:`forward_cpu` and
    :meth:`forward_gpu`) on arrays and :meth:`backward` on Variables, and is
    applied with :meth:`apply`.

    >>> import numpy as np
    >>> import chainer
    >>> class Square(chainer.FunctionNode):
    ...     def forward(self, inputs):
    ...         self.retain_inputs((0,))
    ...         x, = inputs
    ...         return x * x,
    ...     def backward(self, indexes, grad_outputs):
    ...         x, = self.get_retained_inputs()
    ...         gy, = grad_outputs
    ...         return 2 * x * gy,
    >>> x = chainer.Variable(np.array([3.], dtype=np.float32))
    >>> y, = Square().apply((x,))
    >>> y.backward()
    >>> x.grad
    array([6.], dtype=float32)
    """

    inputs = None
    outputs = None
    rank = 0
    stack = None
    chainerx_device = None
    lazy_grad_sum = False
    is_elementwise = False

    _input_indexes_to_retain = None
    _output_indexes_to_retain = None
    _retained_in_data = None
    _retained_out_data = None
    _local_function_hooks = None
    _has_type_check = False
    _overrides_accumulate = False
    # Whether NumPy scalars from forward (0-d arithmetic gives them) are
    # taken as 0-d arrays: for chainer-ng's own ops; a user's forward gets
    # Chainer's error (set per class, and by FunctionAdapter per Function).
    _own_scalars = True
    # An op may define ``_backward_arrays(indexes, gys)``: its backward on
    # arrays (gys: the output gradients, arrays or None), which the engine
    # calls instead of ``backward`` when no graph is recorded (no double
    # backprop) and no hook or debug check is on.  It returns arrays of the
    # shapes and dtypes of the inputs in ``indexes`` (or None for an input),
    # or None as a whole to leave the case to ``backward``.
    _backward_arrays = None
    # True where ``_backward_arrays`` takes a third argument, the pass's
    # dict of leaf gradients kept as sums (``chainer._backprop.LeafSum``)
    _sums_leaf_grads = False
    # True where ``_backward_arrays`` returns the output's gradient itself
    # whenever the shapes allow (a static schedule then hands it on)
    _hands_gradient_on = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._own_scalars = cls.__module__.startswith('chainer.')
        cls._overrides_accumulate = cls.backward_accumulate is not \
            FunctionNode.backward_accumulate
        if '_has_type_check' in cls.__dict__:
            return
        cls._has_type_check = \
            cls.check_type_forward is not \
            FunctionNode.__dict__['check_type_forward']._func

    def __call__(self, *args, **kwargs):
        raise RuntimeError(
            'FunctionNode object is not callable. Use FunctionNode.apply() '
            'method instead.\nIf you are using legacy Function, use '
            'chainer.Function instead of chainer.FunctionNode.')

    @property
    def label(self):
        """Short text of the function (its class name by default)."""
        return type(self).__name__

    @property
    def _impl_name(self):
        # Chainer's private name: the implementing class (TimerHook keys).
        return type(self).__name__

    @property
    def local_function_hooks(self):
        """Ordered dict of the hooks registered to this function alone."""
        if self._local_function_hooks is None:
            self._local_function_hooks = collections.OrderedDict()
        return self._local_function_hooks

    @property
    def output_data(self):
        """Tuple of the retained output arrays (None for the others)."""
        data = self._retained_out_data
        if data is None or data is _RELEASED:
            raise RuntimeError('retained output data is gone')
        out = [None] * len(self.outputs)
        for i, d in zip(self._output_indexes_to_retain, data):
            out[i] = d
        return tuple(out)

    @property
    def input_layouts(self):
        return (None,) * len(self.inputs or ())

    @property
    def output_layouts(self):
        return (None,) * len(self.outputs or ())

    @output_layouts.setter
    def output_layouts(self, layouts):
        pass

    # --- applying ---------------------------------------------------------

    def apply(self, inputs):
        """Computes the outputs and, with backprop on, records the graph.

        Args:
            inputs: A tuple of input Variables or arrays.

        Returns:
            A tuple of output Variables.
        """
        store = _local_store
        record = store.enable_backprop
        xs = []
        nodes = []
        rank = 0
        requires_grad = False
        if type(inputs) is not tuple and type(inputs) is not list:
            # As Chainer: a Variable or an array given for the tuple fails
            # its truth test (TypeError, or NumPy's ambiguity ValueError).
            not inputs
        for x in inputs:
            if isinstance(x, Variable):
                if x._requires_grad:
                    requires_grad = True
                if record:
                    node = x._node
                    if node is None:
                        node = x.node
                    elif node._rank > rank:
                        rank = node._rank
                    nodes.append(node)
                x = x._data
                if type(x) is not _ndarray:
                    if x is None:
                        raise ValueError(
                            '{}: input {} is a Variable without data (an '
                            'uninitialized Parameter?)'.format(
                                self.label, len(xs)))
                    if not isinstance(x, _array_types()):  # a NumPy scalar
                        raise _input_type_error(self, inputs)
            elif type(x) is _ndarray or isinstance(x, _array_types()):
                if record:
                    nodes.append(_new_node(x, False, None, 0))
            elif x is None and not type(getattr(
                    self, '_function', self)).__module__.startswith(
                        'chainer.'):
                # A missing input of a user's function, as Chainer allows:
                # its forward sees None.  (chainer-ng's own functions
                # refuse it with a clear error.)
                if record:
                    nodes.append(_new_node(None, False, None, 0))
            else:
                raise _input_type_error(self, inputs)
            xs.append(x)
        xs = tuple(xs)

        if self._has_type_check and store.type_check:
            self._check_data_type_forward(xs)

        hooks = store._function_hooks
        local_hooks = self._local_function_hooks
        if hooks or local_hooks:
            hooks = _merged_hooks(hooks, local_hooks)
            for hook in hooks:
                hook.forward_preprocess(self, xs)

        outputs = self.forward(xs)
        y = None  # the array of an op of one output (the hot path below)
        if type(outputs) is not tuple:
            outputs = self._fix_outputs(outputs)
        elif len(outputs) == 1:
            y = outputs[0]
            if type(y) is not _ndarray:
                # NumPy arithmetic on 0-d arrays gives scalars (taken from
                # chainer-ng's own functions only).
                outputs = (_asarray(y),) if self._own_scalars and \
                    isinstance(y, _generic) else self._fix_outputs(outputs)
                y = outputs[0]
        else:
            for out in outputs:
                if type(out) is not _ndarray:
                    outputs = self._fix_outputs(outputs)
                    break

        if hooks or local_hooks:
            for hook in hooks:
                hook.forward_postprocess(self, xs)
        debug = store.debug
        if debug:
            self._check_nan(outputs, 'forward')

        if not record:
            if len(outputs) == 1:
                return _new_variable(outputs[0], requires_grad),
            return tuple([_new_variable(y, requires_grad) for y in outputs])

        # Record the graph.
        self.inputs = tuple(nodes)
        self.rank = rank
        if debug:
            self.stack = traceback.extract_stack()
        rank += 1
        if y is not None:
            # (_new_variable and _new_node inlined: the hot path)
            v = _object_new(Variable)
            v._data = y
            v._requires_grad = requires_grad
            v._name = None
            node = v._node = _object_new(VariableNode)
            node._variable = _weakref(v)
            node._creator_node = self
            node._rank = rank
            node.dtype = y.dtype
            node.shape = y.shape
            node.name = node.data = node._grad_var = node._loss_scale = None
            node.requires_grad = requires_grad
            self.outputs = (_weakref(node),)
            ret = (v,)
        else:
            ret = []
            out_nodes = []
            for y in outputs:
                v = _new_variable(y, requires_grad)
                node = v._node = _new_node(y, requires_grad, self, rank, v)
                ret.append(v)
                out_nodes.append(_weakref(node))
            self.outputs = tuple(out_nodes)
            ret = tuple(ret)

        idx = self._input_indexes_to_retain
        if idx is not None:
            n = len(xs)
            self._retained_in_data = xs if n < 4 and idx == _IN_ORDER[n] \
                else tuple([xs[i] for i in idx])
            for i in idx:  # as Chainer's retain_data of the inputs
                nodes[i].data = xs[i]
        idx = self._output_indexes_to_retain
        if idx is not None:
            n = len(outputs)
            if n == 1 and idx == (0,):
                self._retained_out_data = outputs
                node.data = y
            else:
                self._retained_out_data = tuple([outputs[i] for i in idx])
                out_nodes = self.outputs
                for i in idx:
                    out_nodes[i]().data = outputs[i]
        return ret

    def _fix_outputs(self, outputs):
        """Normalizes what forward returned: a tuple of arrays (NumPy
        scalars, which 0-d arithmetic gives, become 0-d arrays)."""
        if not isinstance(outputs, tuple):
            # (a list is let through for chainer-ng's own functions only;
            # a user's forward gets Chainer's error)
            if isinstance(outputs, list) and self._own_scalars:
                outputs = tuple(outputs)
            else:
                raise TypeError(
                    'forward output must be a tuple ({})\nActual: {}'.format(
                        self.label, type(outputs)))
        fixed = []
        for y in outputs:
            if isinstance(y, numpy.generic) and self._own_scalars:
                # (chainer-ng's own 0-d arithmetic; a user's forward gets
                # Chainer's error below)
                y = numpy.asarray(y)
            elif y is not None and not isinstance(y, _array_types()):
                raise TypeError(  # Chainer's words
                    'forward output must be a tuple of ndarrays.\n'
                    'Function: {}\nActual output types: {}'.format(
                        self.label, tuple(type(o) for o in outputs)))
            fixed.append(y)
        return tuple(fixed)

    def _check_data_type_forward(self, in_data):
        from chainer.utils import type_check
        # First on plain values (cheap); only if that fails, again with
        # expressions, to build the message.
        in_type = type_check.get_light_types(in_data)
        try:
            with type_check.light_mode:
                self.check_type_forward(in_type)
            return
        except type_check.InvalidType:
            pass
        in_type = type_check.get_types(in_data, 'in_types', False)
        with type_check.get_function_check_context(self):
            self.check_type_forward(in_type)

    def _check_nan(self, arrays, phase):
        for a in arrays:
            if a is None:
                continue
            a = getattr(a, 'array', a)
            if a.dtype.kind != 'f':
                continue
            # NaN only, as Chainer: an infinity (log(0), 1 / 0) may be
            # meant and passes
            xp = backend.get_array_module(a)
            if bool(xp.isnan(a).any()):
                raise RuntimeError(
                    'NaN is detected on {} computation of {}'.format(
                        phase, self.label))

    @_InstanceOverridable
    def check_type_forward(self, in_types):
        """Checks the types of the inputs (override with
        :mod:`chainer.utils.type_check` expectations)."""

    def check_layout_forward(self, inputs):
        pass

    def forward_chainerx(self, inputs):
        return chainer.Fallback

    def forward(self, inputs):
        """Computes the outputs from the input arrays.

        By default it calls :meth:`forward_gpu` for CuPy inputs and
        :meth:`forward_cpu` otherwise.  It returns a tuple of arrays.
        """
        if inputs and not isinstance(inputs[0], numpy.ndarray) and \
                backend.is_gpu_array(inputs[0]):
            return self.forward_gpu(inputs)
        return self.forward_cpu(inputs)

    def forward_cpu(self, inputs):
        raise NotImplementedError()

    def forward_gpu(self, inputs):
        raise NotImplementedError()

    def retain_inputs(self, indexes):
        """Keeps the given inputs for backward (call it in forward)."""
        self._input_indexes_to_retain = tuple(indexes)

    def retain_outputs(self, indexes):
        """Keeps the given outputs for backward (call it in forward)."""
        self._output_indexes_to_retain = tuple(indexes)

    # --- backward ---------------------------------------------------------

    def backward(self, target_input_indexes, grad_outputs):
        """Computes the gradients of the inputs.

        Args:
            target_input_indexes (tuple of int): The inputs whose gradients
                are wanted.
            grad_outputs (tuple of Variable or None): The gradients of the
                outputs (None for an output that got none).

        Returns:
            A tuple of Variables (or None), one for each input or one for
            each target index.
        """
        return (None,) * len(self.inputs)

    # A native forward-mode rule, used by chainer.jvp where present:
    # jvp(self, input_tangents) -> one tangent (Variable or None) per output,
    # from one tangent (Variable or None, None meaning zero) per input; it
    # may use the retained inputs and outputs as backward does.  Without one,
    # chainer.jvp derives the rule from backward (chainer/_forward_ad.py).
    jvp = None

    def backward_accumulate(self, target_input_indexes, grad_outputs,
                            grad_inputs):
        """Computes gradients and adds them to ``grad_inputs``."""
        gxs = self.backward(target_input_indexes, grad_outputs)
        len_gxs = len(gxs)
        if len_gxs == len(self.inputs):
            gxs = tuple([gxs[i] for i in target_input_indexes])
        elif len_gxs != len(target_input_indexes):
            raise ValueError(
                '{}.backward returned {} gradients; expected {} (one per '
                'input) or {} (one per target index)'.format(
                    self.label, len_gxs, len(self.inputs),
                    len(target_input_indexes)))
        return tuple([gx if g_input is None else
                      g_input if gx is None else gx + g_input
                      for gx, g_input in zip(gxs, grad_inputs)])

    def get_retained_inputs(self):
        """The inputs kept by :meth:`retain_inputs`, as Variables."""
        data = self._retained_in_data
        if data is None:
            return ()
        if data is _RELEASED:
            raise _released_error(self)
        inputs = self.inputs
        ret = []
        for i, d in zip(self._input_indexes_to_retain, data):
            ret.append(None if d is None else _node_variable(inputs[i], d))
        return tuple(ret)

    def get_retained_outputs(self):
        """The outputs kept by :meth:`retain_outputs`, as Variables."""
        data = self._retained_out_data
        if data is None:
            return ()
        if data is _RELEASED:
            raise _released_error(self)
        ret = []
        outputs = self.outputs
        for i, d in zip(self._output_indexes_to_retain, data):
            if d is None:  # a missing output
                ret.append(None)
                continue
            node = outputs[i]()
            if node is None:
                # The output was dropped: stand a new node in for it so
                # double backprop still reaches this function.
                # (No reference from here to it: that would be a cycle.)
                node = _new_node(d, True, self, self.rank + 1)
                outputs = self.outputs = (
                    outputs[:i] + (weakref.ref(node),) + outputs[i + 1:])
            ret.append(_node_variable(node, d))
        return tuple(ret)

    def _release(self):
        """Drops the retained arrays (backward with retain_graph=False)."""
        if self._retained_in_data is not None:
            self._retained_in_data = _RELEASED
        if self._retained_out_data is not None:
            self._retained_out_data = _RELEASED

    def unchain(self):
        """Removes this function from the graph (its outputs become roots)."""
        for ref in self.outputs or ():
            node = ref()
            if node is not None:
                node.unchain()
        self.inputs = None

    # --- hooks ------------------------------------------------------------

    def add_hook(self, hook, name=None):
        """Registers a function hook to this function alone."""
        if not isinstance(hook, chainer.FunctionHook):
            raise TypeError('add_hook: hook must be a FunctionHook, got '
                            '{}'.format(type(hook).__name__))
        if name is None:
            name = hook.name
        hooks = self.local_function_hooks
        if name in hooks:
            raise KeyError('add_hook: hook {!r} already exists'.format(name))
        hooks[name] = hook
        hook.added(self)

    def delete_hook(self, name):
        """Unregisters the function hook called ``name``."""
        hooks = self.local_function_hooks
        if name not in hooks:
            raise KeyError('delete_hook: no hook named {!r}'.format(name))
        hooks[name].deleted(self)
        del hooks[name]


def _released_error(func):
    return RuntimeError(
        '{}: trying to backward through the graph a second time, but its '
        'retained arrays were already released by backward(retain_graph='
        'False). Call backward(retain_graph=True) (the default) the first '
        'time to backward twice.'.format(func.label))


def _merged_hooks(global_hooks, local_hooks):
    hooks = list(global_hooks.values()) if global_hooks else []
    if local_hooks:
        hooks.extend(local_hooks.values())
    return hooks


def grad(outputs, inputs, grad_outputs=None, grad_inputs=None,
         set_grad=False, retain_grad=False, enable_double_backprop=False,
         loss_scale=None):
    """Computes the gradients of ``outputs`` with respect to ``inputs``.

    Unlike :meth:`Variable.backward`, the result is returned, not stored in
    the ``grad`` of the inputs (unless ``set_grad``).

    Args:
        outputs (tuple or list of Variable): The outputs to differentiate.
        inputs (tuple or list of Variable): The variables to differentiate
            with respect to.
        grad_outputs: The initial errors (None for ones, allowed for
            one-element outputs).
        grad_inputs: Gradients added to the results.
        set_grad (bool): Also store the results as ``x.grad_var``.
        retain_grad (bool): Keep intermediate gradients.
        enable_double_backprop (bool): Record the graph of the computation.
        loss_scale (float): Multiplies the initial errors.

    Returns:
        A list of Variables (None where no gradient reached an input).

    >>> import numpy as np
    >>> import chainer
    >>> x = chainer.Variable(np.array([2.], dtype=np.float32))
    >>> y = x ** 3
    >>> gx, = chainer.grad([y], [x])
    >>> gx.array
    array([12.], dtype=float32)
    """
    if not isinstance(outputs, (tuple, list)):
        raise TypeError(
            'outputs must be a tuple or a list, not {}.'.format(
                type(outputs)))
    if not isinstance(inputs, (tuple, list)):
        raise TypeError(
            'inputs must be a tuple or a list, not {}.'.format(type(inputs)))
    for name, seq in (('outputs', outputs), ('inputs', inputs)):
        for v in seq:
            if not isinstance(v, Variable):
                raise TypeError('grad: each of {} must be a Variable, got '
                                '{}'.format(name, type(v).__name__))
            if name == 'outputs':
                creator = v.creator_node
                if getattr(creator, '_legacy_grad', False):
                    # A gradient made by a legacy Function's backward.
                    creator.backward((), ())
    if grad_outputs is not None:
        if not isinstance(grad_outputs, (tuple, list)):
            raise TypeError(
                'grad_outputs must be a tuple or a list or None, not '
                '{}.'.format(type(grad_outputs)))
        if len(grad_outputs) != len(outputs):
            raise ValueError(
                'grad_outputs must be of the same length as outputs.\n'
                'len(outputs) = {}, len(grad_outputs) = {}'.format(
                    len(outputs), len(grad_outputs)))
    if grad_inputs is not None:
        if not isinstance(grad_inputs, (tuple, list)):
            raise TypeError(
                'grad_inputs must be a tuple or a list or None, not '
                '{}.'.format(type(grad_inputs)))
        if len(grad_inputs) != len(inputs):
            raise ValueError(
                'grad_inputs must be of the same length as inputs.\n'
                'len(inputs) = {}, len(grad_inputs) = {}'.format(
                    len(inputs), len(grad_inputs)))
    from chainer import _backprop
    return _backprop.grad(
        outputs, inputs, grad_outputs, grad_inputs, set_grad, retain_grad,
        enable_double_backprop, loss_scale)
