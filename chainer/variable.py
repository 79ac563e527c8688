"""Variable, VariableNode and Parameter.

A :class:`Variable` is the user's handle on an array.  Its
:class:`VariableNode` is the vertex of the graph: shape, dtype, creator,
rank and the gradient.  A node is made only when the variable takes part in
a graph (or asks for a gradient), so arrays computed with backprop off cost
one small object.  The node keeps no reference to its variable and no array
(unless ``retain_data`` was called): a graph keeps alive what backward
needs, nothing more, and a variable the user drops frees its array.
"""

import copy as _copy
import sys as _sys
from weakref import ref as _weakref
import warnings

import numpy

import chainer
from chainer import backend


def _array_types():
    return backend._get_array_types()


def _check_grad_type(var, grad):
    """Validates a gradient array against its variable's data."""
    data = var._data
    if data is None:
        if grad is not None and not isinstance(grad, _array_types()):
            _check_grad(grad, None, None)
        return
    _check_grad(grad, data.shape, data.dtype, type(data))


def _check_grad(grad, shape, dtype, array_type=None):
    """Raises unless ``grad`` is an array of ``shape`` and ``dtype``."""
    if grad is None:
        return
    if not isinstance(grad, _array_types()):
        raise TypeError(
            'Type of grad is invalid:\nExpected: Any of {}\nActual: '
            '{}'.format(_array_types(), type(grad)))
    if array_type is not None and type(grad) is not array_type:
        raise TypeError(
            'Type of data and grad mismatch\ngrad: {} != data: {}'.format(
                type(grad), array_type))
    if grad.dtype != dtype:
        raise TypeError(
            'Dtype of data and grad mismatch\ngrad: {} != data: {}'.format(
                grad.dtype, dtype))
    if grad.shape != shape:
        raise ValueError(
            'Shape of data and grad mismatch\ngrad: {} != data: {}'.format(
                grad.shape, shape))


class VariableNode:
    """The vertex of the computational graph that a Variable stands for.

    It holds what backward needs to know of a variable: its shape, dtype,
    creator (a :class:`~chainer.FunctionNode`), rank and gradient, and its
    array only when :meth:`retain_data` was called.
    """

    __slots__ = ('_creator_node', '_rank', 'dtype', 'shape', 'name',
                 'requires_grad', 'data', '_grad_var', '_loss_scale',
                 '_variable', '__weakref__')

    def __init__(self, variable, name, **kwargs):
        if 'grad' in kwargs:
            raise ValueError(
                'VariableNode: the grad argument is not supported; set the '
                'gradient on the Variable instead')
        self._creator_node = None
        self._rank = 0
        data = variable._data
        self.dtype = None if data is None else data.dtype
        self.shape = None if data is None else data.shape
        self.name = name
        self.requires_grad = variable._requires_grad
        self.data = None
        self._grad_var = None
        self._loss_scale = None
        self._variable = _weakref(variable)

    @property
    def creator_node(self):
        """The :class:`~chainer.FunctionNode` that made this node."""
        return self._creator_node

    @creator_node.setter
    def creator_node(self, func):
        # Removing the creator keeps the rank, as Chainer does.
        self._creator_node = func
        if func is not None:
            self._rank = func.rank + 1

    @property
    def creator(self):
        """The creator: a FunctionNode, or the legacy Function it adapts."""
        func = self._creator_node
        if func is None:
            return None
        return getattr(func, '_function', func)

    @creator.setter
    def creator(self, func):
        self.set_creator(func)

    @property
    def rank(self):
        return self._rank

    @property
    def _requires_grad(self):
        # Chainer's private name of the flag.
        return self.requires_grad

    @_requires_grad.setter
    def _requires_grad(self, value):
        self.requires_grad = value

    @property
    def grad(self):
        gv = self._grad_var
        return None if gv is None else gv._data

    @property
    def grad_var(self):
        return self._grad_var

    @property
    def label(self):
        """Short text of the shape and dtype, e.g. ``(2, 3), float32``."""
        if self.shape is None:
            return 'None'
        if self.shape == ():
            return str(self.dtype)
        return '({}), {}'.format(', '.join(map(str, self.shape)), self.dtype)

    def get_variable(self):
        """The Variable of this node while it is alive; once it is gone,
        a new Variable over this node and its retained data."""
        ref = self._variable
        var = None if ref is None else ref()
        if var is None:
            return _wrap_node(self, self.data)
        return var

    def get_variable_or_none(self):
        """The Variable of this node while it is alive, else None."""
        ref = self._variable
        return None if ref is None else ref()

    def set_creator(self, creator):
        """Sets a FunctionNode or a legacy Function as the creator."""
        self.creator_node = getattr(creator, 'node', creator) \
            if not isinstance(creator, chainer.FunctionNode) else creator

    def set_creator_node(self, creator_node):
        self.creator_node = creator_node

    def unchain(self):
        """Removes the reference to the creator (the rank stays)."""
        self._creator_node = None

    def retain_data(self):
        """Keeps the variable's array in the node (set by the variable)."""
        raise RuntimeError(
            'VariableNode.retain_data: call Variable.retain_data() instead')


_VariableNode_new = object.__new__


def _wrap_node(node, data):
    """A Variable over an existing node (for retained inputs/outputs)."""
    v = Variable.__new__(Variable)
    v._data = data
    v._node = node
    v._requires_grad = node.requires_grad
    v._name = node.name
    return v


def _new_variable(data, requires_grad=True):
    """The unchecked constructor used for op outputs."""
    v = Variable.__new__(Variable)
    v._data = data
    v._node = None
    v._requires_grad = requires_grad
    v._name = None
    return v


class Variable:
    """__init__(data=None, *, name=None, grad=None, requires_grad=True)

    An array with a structure to keep track of computation.

    A variable holds a NumPy or CuPy array and, once it takes part in a
    computation with backprop enabled, a node of the computational graph.
    Operators and the functions of :mod:`chainer.functions` applied to
    variables record the graph that :meth:`backward` walks.

    Args:
        data (numpy.ndarray or cupy.ndarray): Initial data array, or None.
        name (str): Name of the variable.
        grad (numpy.ndarray or cupy.ndarray): Initial gradient array.
        requires_grad (bool): Whether backward computes this variable's
            gradient.

    >>> import numpy as np
    >>> x = Variable(np.array([5.], dtype=np.float32))
    >>> y = x ** 2 - 2 * x + 1
    >>> y.backward()
    >>> x.grad
    array([8.], dtype=float32)
    """

    # ``_layout`` is set only on variables of a non-standard memory layout
    # (see chainer.memory_layouts).  ``__dict__`` (made only when used) lets
    # users tag a variable with attributes of their own, as Chainer does.
    __slots__ = ('_data', '_node', '_requires_grad', '_name', '_layout',
                 '__weakref__', '__dict__')
    __array_priority__ = 200
    __hash__ = None
    # Chainer's flag for a variable holding a ChainerX array (never, here).
    _has_chainerx_array = False

    @classmethod
    def _init_unchecked(cls, data=None, name=None, grad=None,
                        requires_grad=True, is_chainerx_array=None,
                        node=None, layout=None):
        """Chainer's unchecked constructor: a variable of ``data`` made
        without the argument checks of ``__init__``."""
        v = cls.__new__(cls)
        v._data = data
        v._node = node
        v._requires_grad = requires_grad
        v._name = name
        if grad is not None:
            v.grad = grad
        return v

    def __init__(self, data=None, *, name=None, grad=None,
                 requires_grad=True, **kwargs):
        self._data = None
        self._node = None
        self._name = name
        layout = None
        if kwargs:
            layout = kwargs.pop('layout', None)
        if kwargs:
            if 'volatile' in kwargs:
                raise ValueError(
                    'volatile argument is not supported anymore. '
                    'Use chainer.using_config')
            from chainer.utils.argument import unexpected_error
            raise unexpected_error('__init__', kwargs)  # Chainer's text
        # Chainer's checks, in its order and words
        if not isinstance(requires_grad, bool):
            raise AssertionError()
        if data is not None and not isinstance(data, _array_types()):
            types = _array_types()
            raise TypeError('{} or {} are expected. Actual: {}'.format(
                ', '.join(str(t) for t in types[:-1]), types[-1],
                type(data)))
        self._data = data
        self._requires_grad = requires_grad
        self._name = name
        # Made at once, as in Chainer (code reaches into ``x._node``).
        node = self._node = _VariableNode_new(VariableNode)
        node._creator_node = None
        node._rank = 0
        if data is None:
            node.dtype = node.shape = None
        else:
            node.dtype = data.dtype
            node.shape = data.shape
        node.name = name
        node.requires_grad = requires_grad
        node.data = node._grad_var = node._loss_scale = None
        node._variable = _weakref(self)
        if grad is not None:
            self.grad = grad
        if layout is not None:
            # ``data`` is the raw array of that layout.
            from chainer import memory_layouts
            memory_layouts._adopt_layout(self, layout)

    # --- the node ---------------------------------------------------------

    @property
    def node(self):
        """The :class:`VariableNode` of this variable in the graph."""
        node = self._node
        if node is None:
            node = self._node = VariableNode(self, self._name)
        return node

    @property
    def creator_node(self):
        """The :class:`~chainer.FunctionNode` that made this variable."""
        node = self._node
        return None if node is None else node._creator_node

    @creator_node.setter
    def creator_node(self, func):
        self.node.creator_node = func

    @property
    def creator(self):
        """The function that made this variable (None for a root)."""
        node = self._node
        return None if node is None else node.creator

    @creator.setter
    def creator(self, func):
        self.node.set_creator(func)

    @property
    def rank(self):
        node = self._node
        return 0 if node is None else node._rank

    @property
    def requires_grad(self):
        """Whether backward computes the gradient of this variable."""
        return self._requires_grad

    def set_creator(self, gen_func):
        """Notifies the variable that ``gen_func`` is its creator."""
        self.node.set_creator(gen_func)

    def set_creator_node(self, fnode):
        """Notifies the variable that ``fnode`` is its creator node."""
        self.node.creator_node = fnode

    @property
    def _grad(self):
        # Chainer's private name of the gradient array.
        node = self._node
        gv = None if node is None else node._grad_var
        return None if gv is None else gv._data

    @property
    def _loss_scale(self):
        # Chainer's private name: the loss scale backward left on this leaf,
        # which the optimizer divides its gradient by (kept on the node).
        node = self._node
        return None if node is None else node._loss_scale

    @_loss_scale.setter
    def _loss_scale(self, value):
        self.node._loss_scale = value

    # --- data -------------------------------------------------------------

    @property
    def array(self):
        """The underlying data array."""
        return self._data

    @array.setter
    def array(self, d):
        # A NumPy scalar (``x.array = x.array.sum()``) is taken, as Chainer
        # takes it; an op given such a variable refuses it.
        if d is not None and not isinstance(d, _array_types()) and \
                not isinstance(d, numpy.generic):
            raise TypeError(
                'Variable.array: expected a numpy or cupy array, got '
                '{}'.format(type(d).__name__))
        self._data = d
        node = self._node
        if node is not None:
            node.dtype = None if d is None else d.dtype
            node.shape = None if d is None else d.shape
            if node.data is not None:
                node.data = d

    data = array
    raw_array = array

    @property
    def shape(self):
        return self._data.shape

    @property
    def ndim(self):
        return self._data.ndim

    @property
    def size(self):
        return self._data.size

    @property
    def dtype(self):
        return self._data.dtype

    @property
    def layout(self):
        return None

    @property
    def name(self):
        return self._name

    @name.setter
    def name(self, n):
        self._name = n
        if self._node is not None:
            self._node.name = n

    @property
    def label(self):
        """Short text of the shape and dtype."""
        if self._data is None:
            return 'None'
        shape = self._data.shape
        if shape == ():
            return str(self._data.dtype)
        return '({}), {}'.format(', '.join(map(str, shape)), self._data.dtype)

    @property
    def xp(self):
        """The array module (numpy or cupy) of the data."""
        data = self._data
        if data is None or isinstance(data, numpy.ndarray):
            return numpy
        return backend.get_array_module(data)

    @property
    def device(self):
        """The :class:`chainer.backend.Device` holding the data."""
        return backend.get_device_from_array(self._data)

    @property
    def T(self):
        """The transpose (:func:`chainer.functions.transpose`)."""
        return chainer.functions.transpose(self)

    def item(self):
        """The single element of the data as a Python scalar."""
        if self._data is None:
            raise ValueError('Variable.item: the variable has no data')
        if self._data.size != 1:
            raise ValueError('can only convert an array of size 1 to a '
                             'Python scalar')
        return self._data.item()

    def __len__(self):
        # (the array's own TypeError for None, 0-d arrays, NumPy scalars)
        return len(self._data)

    # --- gradient ---------------------------------------------------------

    @property
    def grad(self):
        """The gradient array (None when there is none)."""
        node = self._node
        if node is None:
            return None
        gv = node._grad_var
        return None if gv is None else gv._data

    @grad.setter
    def grad(self, g):
        if g is None:
            if self._node is not None:
                self._node._grad_var = None
            return
        _check_grad_type(self, g)
        self.node._grad_var = _new_variable(g)

    @property
    def grad_var(self):
        """The gradient as a Variable (None when there is none)."""
        node = self._node
        return None if node is None else node._grad_var

    @grad_var.setter
    def grad_var(self, g):
        if g is not None:
            if not isinstance(g, Variable):
                raise TypeError(
                    'Variable.grad_var: expected a Variable or None, got '
                    '{}'.format(type(g).__name__))
            _check_grad_type(self, g._data)
            self.node._grad_var = g
        elif self._node is not None:
            self._node._grad_var = None

    def cleargrad(self):
        """Clears the gradient (sets it to None)."""
        node = self._node
        if node is not None:
            node._grad_var = None

    def zerograd(self):
        """Fills the gradient with zeros.

        .. deprecated:: v1.15
           Use :meth:`cleargrad` instead.
        """
        warnings.warn(
            'Variable.zerograd is deprecated. Use Variable.cleargrad '
            'instead.', DeprecationWarning)
        if self._data is None:
            return
        node = self.node
        gv = node._grad_var
        if gv is None or gv._data is None:
            xp = self.xp
            with chainer.using_device(self.device):
                node._grad_var = _new_variable(xp.zeros_like(self._data))
        else:
            gv.unchain()
            gv._data.fill(0)

    def addgrad(self, var):
        """Adds the gradient of ``var`` to the gradient of this variable.

        Works across devices; an uninitialized array here is initialized
        after ``var``.
        """
        if not isinstance(var, Variable):
            raise TypeError('Variable.addgrad: expected a Variable, got '
                            '{}'.format(type(var).__name__))
        src = var.grad_var
        if src is None:
            return
        if self._data is None:
            self.initialize(var.shape)
        device = self.device
        src_data = device.send(src._data)
        data = self._data
        node = self.node
        dst = node._grad_var
        if dst is None:
            _check_grad(src_data, data.shape, data.dtype)
            # (the same array when it is on this device, as in Chainer)
            node._grad_var = _new_variable(src_data)
        elif dst._data.shape == src_data.shape and \
                dst._data.dtype == src_data.dtype:
            node._grad_var = _new_variable(dst._data + src_data)
        else:
            # As Chainer: the sum is the add op's (its InvalidType for two
            # dtypes or shapes that do not broadcast), then checked.
            with chainer.no_backprop_mode():
                g = (_new_variable(src_data) + dst)._data
            _check_grad(g, data.shape, data.dtype)
            node._grad_var = _new_variable(g)

    def initialize(self, shape):
        raise RuntimeError(
            'Variable.addgrad: this variable has no data and cannot be '
            'initialized (only a Parameter can)')

    def copydata(self, var):
        """Copies the data of ``var`` into this variable (across devices)."""
        if not isinstance(var, Variable):
            raise TypeError('Variable.copydata: expected a Variable, got '
                            '{}'.format(type(var).__name__))
        src = var._data
        dst = self._data
        if src is None:
            if dst is None:
                return
            var.initialize(self.shape)
            src = var._data
        if dst is None:
            self.initialize(var.shape)
            dst = self._data
        # (broadcasting, and NumPy's ValueError when it cannot, as Chainer)
        backend.copyto(dst, src)

    # --- graph surgery ----------------------------------------------------

    def retain_data(self):
        """Lets the node keep the data array."""
        self.node.data = self._data

    def unchain(self):
        """Deletes the reference to the creator (the node becomes a root)."""
        node = self._node
        if node is not None:
            node.unchain()

    def unchain_backward(self):
        """Deletes the references between nodes and functions backward.

        After it, backprop stops at this variable, and the part of the graph
        that nothing else refers to is freed (used for truncated BPTT).
        """
        node = self._node
        if node is None:
            return
        stack = [node]
        seen = set()
        while stack:
            n = stack.pop()
            func = n._creator_node
            if func is None:
                continue
            n.unchain()
            if id(func) in seen:
                continue
            seen.add(id(func))
            inputs = func.inputs
            if inputs:
                stack.extend(inputs)
            func.unchain()

    # --- backward ---------------------------------------------------------

    def backward(self, retain_grad=False, enable_double_backprop=False,
                 loss_scale=None, *, retain_graph=True):
        """Runs error backpropagation from this variable.

        Args:
            retain_grad (bool): Keep the gradients of intermediate
                variables (by default they are released as soon as used).
            enable_double_backprop (bool): Record the backward computation
                in the graph, so that the gradients can be differentiated
                again.
            loss_scale (float): Multiplies the initial error (for float16
                training); optimizers divide the gradients back.
            retain_graph (bool): With False, each op's retained arrays are
                released as soon as its backward has used them, saving
                memory; a second backward through the graph then raises.
                (Beyond Chainer, after PyTorch.)
        """
        from chainer import _backprop
        _backprop.backward_from_variable(
            self, retain_grad, enable_double_backprop, loss_scale,
            retain_graph)

    # --- devices ----------------------------------------------------------

    def to_device(self, device):
        """Moves the data and gradient to ``device`` (any device spec)."""
        device = chainer.get_device(device)
        if self._data is not None:
            self.array = device.send(self._data)
        node = self._node
        if node is not None and node._grad_var is not None:
            node._grad_var = _new_variable(device.send(node._grad_var._data))

    def to_cpu(self):
        """Copies the data and gradient to the CPU."""
        self.to_device(backend._cpu_device)

    def to_gpu(self, device=None):
        """Copies the data and gradient to a GPU (the current one by
        default)."""
        from chainer.backends import cuda
        cuda.check_cuda_available()
        if device is None:
            device = cuda.cuda.Device().id
        self.to_device(cuda.GpuDevice.from_device_id(
            int(getattr(device, 'id', device))))

    def to_intel64(self):
        from chainer.backends import intel64
        intel64.check_ideep_available()

    def to_chx(self):
        # Chainer's words where ChainerX is not built in
        raise RuntimeError('ChainerX is not available.')

    def from_chx(self):
        """A no-op: the array is never a ChainerX array here."""

    def as_layout(self, layout):
        """Returns the variable converted to the memory layout ``layout``
        (experimental; see :mod:`chainer.memory_layouts`)."""
        if layout == self.layout:
            return self
        from chainer import memory_layouts
        return memory_layouts.AsLayout(layout).apply((self,))[0]

    # --- shape methods ----------------------------------------------------

    def reshape(self, *shape):
        """Returns a variable of another shape (:func:`F.reshape`)."""
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = shape[0]
        return chainer.functions.reshape(self, tuple(shape))

    def transpose(self, *axes):
        """Permutes the axes (:func:`F.transpose`); no axes reverses them."""
        if len(axes) == 0:
            axes = None
        elif len(axes) == 1 and (axes[0] is None or
                                 isinstance(axes[0], (tuple, list))):
            axes = axes[0]
        return chainer.functions.transpose(self, axes)

    def mean(self, axis=None, *, weights=None, keepdims=False):
        """Average along ``axis`` (:func:`F.average`)."""
        return chainer.functions.average(
            self, axis=axis, weights=weights, keepdims=keepdims)

    # --- printing ---------------------------------------------------------

    def __repr__(self):
        return variable_repr(self)

    def __str__(self):
        return variable_str(self)

    def summary(self):
        """``'<variable NAME>'``, or ``'<variable at 0x...>'``."""
        if self._name:
            return '<variable {}>'.format(self._name)
        return '<variable at 0x{:x}>'.format(id(self))

    def debug_print(self):
        """A multi-line report of the variable: device, shape, dtype,
        statistics of the data and the gradient."""
        data = self._data
        lines = [self.summary()]
        if data is None:
            lines.extend(['- device: None', '- backend: None', '- shape: None',
                          '- dtype: None', '- statistics: None'])
        else:
            xp = self.xp
            lines.append('- device: {}'.format(
                'CPU' if xp is numpy else self.device))
            lines.append('- backend: {}'.format(type(data)))
            lines.append('- shape: {}'.format(data.shape))
            lines.append('- dtype: {}'.format(data.dtype))
            lines.append('- statistics: {}'.format(_stats(data)))
        grad = self.grad
        if grad is None:
            lines.append('- grad: None')
        elif (grad == 0).all():
            lines.append('- grad: 0')
        else:
            lines.append('- grad: {}'.format(_stats(grad)))
        return '\n'.join(lines)

    # --- Python protocol --------------------------------------------------

    def __pos__(self):
        return self

    def __copy__(self):
        v = Variable.__new__(type(self))
        v._data = self._data
        v._node = None
        v._requires_grad = self._requires_grad
        v._name = self._name
        if self._node is not None and self._node._grad_var is not None:
            v.node._grad_var = self._node._grad_var
        # a user's own attributes come along (deepcopy and pickle drop them)
        v.__dict__.update(self.__dict__)
        return v

    def __reduce__(self):
        return _rebuild_variable, (type(self), self._data, self._name,
                                   self.grad, self._requires_grad)

    def _compare_error(self, op):
        raise TypeError('Variables do not support {} operator. '
                        'You could use `array` attribute instead.'.format(op))

    def __lt__(self, other):
        self._compare_error('<')

    def __le__(self, other):
        code = _sys._getframe(1).f_code
        if code.co_name == 'isclose' and 'numpy' in code.co_filename:
            # numpy.isclose (allclose, testing.assert_allclose) on Variables:
            # NumPy 2 compares the object arrays first, where NumPy 1 (whose
            # words Chainer users saw) failed in isfinite before.
            raise TypeError(
                "ufunc 'isfinite' not supported for the input types, and the "
                'inputs could not be safely coerced to any supported types '
                "according to the casting rule ''safe''")
        self._compare_error('<=')

    def __eq__(self, other):
        self._compare_error('==')

    def __ne__(self, other):
        self._compare_error('!=')

    def __gt__(self, other):
        self._compare_error('>')

    def __ge__(self, other):
        self._compare_error('>=')

    def __bool__(self):
        raise TypeError('Variables cannot be evaluated as Python bool.')

    __nonzero__ = __bool__


def _rebuild_variable(cls, data, name, grad, requires_grad):
    if cls is Variable:
        return Variable(data, name=name, grad=grad,
                        requires_grad=requires_grad)
    v = cls.__new__(cls)
    Variable.__init__(v, data, name=name, grad=grad,
                      requires_grad=requires_grad)
    return v


def _stats(a):
    return 'mean={:.8f}, std={:.8f}'.format(float(a.mean()), float(a.std()))


def _array_text(arr, prefix):
    if arr is None:
        return 'None'
    if arr.size > 0 or arr.shape == (0,):
        return numpy.array2string(backend._cpu_device.send(arr),
                                  separator=', ', prefix=prefix + '(')
    return '[], shape={!r}'.format(arr.shape)


def variable_repr(var):
    """The ``repr`` of a variable: ``variable name([...])``."""
    prefix = 'variable ' + var.name if var.name else 'variable'
    return '{}({})'.format(prefix, _array_text(var._data, prefix))


def variable_str(var):
    """The ``str`` of a variable."""
    prefix = 'variable ' + var.name if var.name else 'variable'
    arr = var._data
    if arr is None:
        text = 'None'
    else:
        text = numpy.array2string(backend._cpu_device.send(arr),
                                  prefix=prefix + '(')
    return '{}({})'.format(prefix, text)


def as_variable(obj):
    """Returns ``obj`` if it is a Variable, else wraps it in one that does
    not require a gradient."""
    if isinstance(obj, Variable):
        return obj
    return Variable(obj, requires_grad=False)


def as_array(obj):
    """Returns the array of a Variable, or ``obj`` unchanged."""
    if isinstance(obj, Variable):
        return obj._data
    return obj


class Parameter(Variable):
    """Parameter(initializer=None, shape=None, name=None)

    A Variable that a :class:`~chainer.Link` holds and an optimizer
    updates.  It can be created before its shape is known and initialized
    later (lazy initialization).

    Args:
        initializer: An array (used as the data), a scalar (a constant
            initializer), an initializer callable, or None (NaN until
            initialized).
        shape (int or tuple): The shape; with it the data is made at once.
        name (str): Name of the parameter.

    >>> import numpy as np
    >>> from chainer import initializers
    >>> p = Parameter(initializers.Constant(2.), (2,))
    >>> p.array
    array([2., 2.], dtype=float32)
    """

    __array_priority__ = 200
    initializer = None
    _initial_device = None
    # The gradient initialize() makes, as Chainer's _grad_initializer: True
    # NaN (a parameter made uninitialized), 'zero' (zerograd before it),
    # False None (made with data, or cleargrad before it).
    _nan_grad = True
    # False while .grad has never been set on an uninitialized parameter:
    # reading it then raises, as Chainer.
    _grad_valid = True
    # Weak references to the parameters sharing the data array with this one
    # (a list made by copy.copy, as in Link.copy's 'share' mode):
    # ``p.array = a`` rebinds them all, as Chainer's shared data cell does.
    _shared = None

    def __init__(self, initializer=None, shape=None, name=None, **kwargs):
        from chainer import initializers
        layout = kwargs.pop('layout', None)
        if kwargs:
            # Python's own text, as for Chainer's (which takes no kwargs)
            raise TypeError("Parameter.__init__() got an unexpected keyword "
                            "argument '{}'".format(next(iter(kwargs))))
        if layout is not None:
            raise ValueError('Parameter: only the standard layout is '
                             'supported')
        if initializer is None:
            initializer = initializers.NaN()
        elif numpy.isscalar(initializer) and \
                not isinstance(initializer, (str, bytes)):
            initializer = initializers.Constant(initializer)
        self.update_rule = None
        self._initial_device = backend._cpu_device
        is_array = isinstance(initializer, _array_types())
        if shape is None:
            if is_array:
                # An array is the data itself; its gradient starts as None
                # (only generated data gets a NaN gradient, as in Chainer).
                super().__init__(initializer, name=name)
                self.initializer = initializers.Constant(initializer)
                self._nan_grad = False
                return
            super().__init__(name=name)
            self.initializer = initializer
            self._grad_valid = False
            return
        if is_array:
            # An array with a shape is a constant broadcast to it.
            xp = backend.get_array_module(initializer)
            initializer = initializers.Constant(initializer)
        else:
            xp = numpy
        super().__init__(
            initializers.generate_array(initializer, shape, xp), name=name)
        self.initializer = initializer
        self._set_nan_grad()
        self._nan_grad = False

    def _set_nan_grad(self):
        data = self._data
        if self._nan_grad == 'zero':
            g = self.xp.zeros_like(data)
        else:
            # NaN in any dtype, as Chainer: an int parameter's gradient is
            # NaN cast (INT_MIN, with NumPy's RuntimeWarning)
            g = self.xp.full_like(data, numpy.nan)
        self.node._grad_var = _new_variable(g)

    @property
    def is_initialized(self):
        """Whether the data array exists."""
        return self._data is not None

    @property
    def dtype(self):
        if self._data is not None:
            return self._data.dtype
        # As Chainer: the initializer's dtype (numpy.dtype(None), that is
        # float64, when it is None), and an error when it has none at all.
        try:
            dtype = self.initializer.dtype
        except AttributeError:
            raise RuntimeError(
                'Dtype of the parameter is not determined yet because it\'s '
                'uninitialized and dtype was not explicitly given.') from None
        return numpy.dtype(dtype)

    def initialize(self, shape):
        """Makes the data array of the given shape with the initializer."""
        from chainer import initializers
        device = self._initial_device or backend._cpu_device
        data = initializers.generate_array(
            self.initializer, shape, device.xp, device=device)
        self.array = data
        if self._nan_grad:
            self._set_nan_grad()
        elif self._node is not None:
            self._node._grad_var = None
        self._grad_valid = True

    def _set_array(self, d):
        Variable.array.fset(self, d)
        if self._shared is not None:
            for ref in self._shared:
                p = ref()
                if p is not None and p is not self:
                    Variable.array.fset(p, d)

    array = property(Variable.array.fget, _set_array,
                     doc=Variable.array.__doc__)
    data = array
    raw_array = array

    @property
    def grad(self):
        if not self._grad_valid:
            raise RuntimeError(
                'Cannot retrieve Variable.grad. Either it must be set '
                'manually or Variable.cleargrad() must be called '
                'beforehand.')
        return Variable.grad.fget(self)

    @grad.setter
    def grad(self, g):
        Variable.grad.fset(self, g)
        self._grad_valid = True

    def cleargrad(self):
        if self._data is None:
            self._nan_grad = False
        self._grad_valid = True
        node = self._node
        if node is not None:
            node._grad_var = None

    def zerograd(self):
        super().zerograd()
        self._grad_valid = True
        if self._data is None:
            # The gradient made by initialize() will be zeros.
            self._nan_grad = 'zero'

    def update(self):
        """Updates the data with its update rule (if any)."""
        if self.update_rule is not None:
            if not self.update_rule.enabled:
                return
            self.update_rule.update(self)

    def to_device(self, device):
        device = chainer.get_device(device)
        if self._data is None:
            if self._shared is not None and device != self._initial_device:
                # As Chainer: a new placeholder, no longer shared.
                self._shared[:] = [r for r in self._shared if r() is not self]
                self._shared = None
            self._initial_device = device
            return
        super().to_device(device)
        self._initial_device = device

    @property
    def device(self):
        """The :class:`chainer.backend.Device` holding the data (a device
        of a user's own Device class given to :meth:`to_device` is kept,
        as Chainer keeps it)."""
        device = self._initial_device
        data = self._data
        if data is None:
            return device or backend._cpu_device
        if device is not None and \
                type(device).__module__.split('.')[0] != 'chainer' and \
                isinstance(data, device.supported_array_types):
            return device
        return backend.get_device_from_array(data)

    def to_gpu(self, device=None):
        from chainer.backends import cuda
        cuda.check_cuda_available()
        if device is None:
            device = cuda.cuda.Device().id
        self.to_device(cuda.GpuDevice.from_device_id(
            int(getattr(device, 'id', device))))

    def _raw_grad(self):
        node = self._node
        gv = None if node is None else node._grad_var
        return None if gv is None else gv._data

    def __copy__(self):
        p = Parameter.__new__(type(self))
        Variable.__init__(p, self._data, name=self._name)
        p._nan_grad = self._nan_grad
        p._grad_valid = self._grad_valid
        if self._raw_grad() is not None:
            p.node._grad_var = _new_variable(self._raw_grad())
        p.initializer = self.initializer
        p.update_rule = self.update_rule
        p._initial_device = self._initial_device
        shared = self._shared
        if shared is None:
            shared = self._shared = [_weakref(self)]
        else:
            shared[:] = [r for r in shared if r() is not None]
        shared.append(_weakref(p))
        p._shared = shared
        attrs = p.__dict__
        for k, v in self.__dict__.items():  # a user's own attributes
            attrs.setdefault(k, v)
        return p

    def __deepcopy__(self, memo):
        p = Parameter.__new__(type(self))
        Variable.__init__(p, _copy.deepcopy(self._data, memo),
                          name=self._name)
        p._nan_grad = self._nan_grad
        p._grad_valid = self._grad_valid
        if self._raw_grad() is not None:
            p.node._grad_var = _new_variable(self._raw_grad().copy())
        p.initializer = self.initializer
        p.update_rule = _copy.deepcopy(self.update_rule, memo)
        p._initial_device = self._initial_device
        return p

    def __reduce__(self):
        return _rebuild_parameter, (self._data, self._name, self._raw_grad(),
                                    self.initializer, self.update_rule,
                                    self._initial_device, self._nan_grad,
                                    self._grad_valid)


def _rebuild_parameter(data, name, grad, initializer, update_rule, device,
                       nan_grad=True, grad_valid=True):
    p = Parameter(initializer if data is None else data, name=name)
    if data is not None:
        p.initializer = initializer
        if grad is not None:
            p.node._grad_var = _new_variable(grad)
        else:
            p.cleargrad()
    p.update_rule = update_rule
    p._initial_device = device
    p._nan_grad = nan_grad
    p._grad_valid = grad_valid
    return p

