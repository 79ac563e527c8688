"""The legacy ``Function`` (forward and backward on arrays), adapted onto
:class:`~chainer.FunctionNode`, and the backprop mode switches."""

import collections
import contextlib

import chainer
from chainer import backend
from chainer.configuration import using_config
from chainer.function_node import FunctionNode
from chainer.variable import _check_grad, _new_variable


@contextlib.contextmanager
def no_backprop_mode():
    """Within this block, no computational graph is recorded.

    >>> import numpy as np
    >>> import chainer
    >>> x = chainer.Variable(np.array([1.], np.float32))
    >>> with chainer.no_backprop_mode():
    ...     y = x + 1
    >>> y.creator is None
    True
    """
    with using_config('enable_backprop', False):
        yield


@contextlib.contextmanager
def force_backprop_mode():
    """Within this block, the graph is recorded (even inside
    :func:`no_backprop_mode`)."""
    with using_config('enable_backprop', True):
        yield


class FunctionAdapter(FunctionNode):
    """A FunctionNode that runs a legacy :class:`Function`."""

    def __init__(self, function):
        self._function = function
        self._own_scalars = type(function).__module__.startswith('chainer.')

    @property
    def function(self):
        """The adapted :class:`Function`."""
        return self._function

    @property
    def label(self):
        return self._function.label

    @property
    def _impl_name(self):
        return type(self._function).__name__

    @property
    def _has_type_check(self):
        f = self._function
        return type(f).check_type_forward is not \
            Function.check_type_forward or \
            'check_type_forward' in getattr(f, '__dict__', ())

    def check_type_forward(self, in_types):
        self._function.check_type_forward(in_types)

    def forward(self, inputs):
        # Legacy functions keep all their inputs unless they say otherwise.
        self.retain_inputs(range(len(inputs)))
        outputs = self._function.forward(inputs)
        if not isinstance(outputs, tuple):
            raise TypeError(
                'forward output must be a tuple ({})\nActual: {}'.format(
                    self.label, type(outputs)))
        return outputs

    def backward(self, target_input_indexes, grad_outputs):
        in_data = [None] * len(self.inputs)
        data = self._retained_in_data
        if data is not None:
            if type(data) is not tuple:
                from chainer.function_node import _released_error
                raise _released_error(self)
            for i, d in zip(self._input_indexes_to_retain, data):
                in_data[i] = d
        in_data = tuple(in_data)
        gys = tuple(None if g is None else g.array for g in grad_outputs)
        device = backend.get_device_from_array(*(in_data + gys))
        with chainer.using_device(device):
            gxs = self._function.backward(in_data, gys)
        if not isinstance(gxs, (tuple, list)):
            raise TypeError(
                '{}.backward must return a tuple of arrays, got {}'.format(
                    self.label, type(gxs).__name__))
        if len(gxs) < len(self.inputs):  # (extra ones are ignored, as Chainer)
            raise ValueError(
                '{}.backward returned {} gradients for {} inputs'.format(
                    self.label, len(gxs), len(self.inputs)))
        ret = []
        for i in target_input_indexes:
            gx = gxs[i]
            if gx is None:
                ret.append(None)
                continue
            node = self.inputs[i]
            _check_legacy_grad(self, i, node, gx)
            ret.append(gx)
        if chainer.config.enable_backprop:
            # Double backprop: the gradients hang on a node that refuses
            # to be differentiated, as Chainer refuses.
            gys = tuple([g for g in grad_outputs if g is not None])
            arrays = tuple([g for g in ret if g is not None])
            if gys and arrays:
                outs = iter(_LegacyGrad(self._function, arrays).apply(gys))
                return tuple([None if g is None else next(outs)
                              for g in ret])
        return tuple([None if g is None else _new_variable(g) for g in ret])


class _LegacyGrad(FunctionNode):
    """The gradients computed by a legacy Function's backward, recorded
    for double backprop, which it does not support."""

    _legacy_grad = True

    def __init__(self, function, gxs):
        self._name = type(function).__name__
        self._gxs = gxs

    def forward(self, inputs):
        gxs, self._gxs = self._gxs, None
        return gxs

    def backward(self, indexes, grad_outputs):
        raise RuntimeError(
            'cannot twice-differentiate an old style Function "{}"'.format(
                self._name))


def _check_legacy_grad(adapter, index, node, gx):
    try:
        _check_grad(gx, node.shape, node.dtype)
    except (TypeError, ValueError) as e:
        from chainer._backprop import has_a_bug
        raise has_a_bug(adapter, e) from None


class Function:
    """The legacy (old-style) differentiable function.

    A subclass implements ``forward`` (or ``forward_cpu``/``forward_gpu``)
    and ``backward`` (or ``backward_cpu``/``backward_gpu``), both on tuples
    of arrays.  Calling the function applies it and returns a Variable (or a
    tuple of them for several outputs).  New code should write a
    :class:`~chainer.FunctionNode`, whose backward is differentiable.
    """

    _node = None
    _local_function_hooks = None

    def __call__(self, *inputs):
        node = FunctionAdapter(self)
        self._node = node
        # The node shares the hook dict, so that a hook added to the
        # Function after the call (as Chainer) sees its backward.
        node._local_function_hooks = self.local_function_hooks
        ret = node.apply(inputs)
        if len(ret) == 1:
            return ret[0]
        return ret

    @property
    def node(self):
        """The FunctionAdapter of the last application."""
        if self._node is None:
            self._node = FunctionAdapter(self)
        return self._node

    @property
    def inputs(self):
        return self.node.inputs

    @property
    def outputs(self):
        return self.node.outputs

    @property
    def rank(self):
        return self.node.rank

    @property
    def stack(self):
        return self.node.stack

    @property
    def label(self):
        return type(self).__name__

    @property
    def output_data(self):
        node = self.node
        if node._retained_out_data is None:
            raise RuntimeError('retained output data is gone')
        return node.output_data

    @property
    def local_function_hooks(self):
        if self._local_function_hooks is None:
            self._local_function_hooks = collections.OrderedDict()
        return self._local_function_hooks

    def check_type_forward(self, in_types):
        pass

    def forward(self, inputs):
        if inputs and backend.is_gpu_array(inputs[0]):
            return self.forward_gpu(inputs)
        return self.forward_cpu(inputs)

    def forward_cpu(self, inputs):
        raise NotImplementedError()

    def forward_gpu(self, inputs):
        raise NotImplementedError()

    def backward(self, inputs, grad_outputs):
        arrays = [a for a in inputs + grad_outputs if a is not None]
        if arrays and backend.is_gpu_array(arrays[0]):
            return self.backward_gpu(inputs, grad_outputs)
        return self.backward_cpu(inputs, grad_outputs)

    def backward_cpu(self, inputs, grad_outputs):
        return tuple(None for _ in inputs)

    def backward_gpu(self, inputs, grad_outputs):
        return tuple(None for _ in inputs)

    def unchain(self):
        self.node.unchain()

    # The same registration as a FunctionNode's (local_function_hooks).
    add_hook = FunctionNode.add_hook
    delete_hook = FunctionNode.delete_hook

    def retain_inputs(self, indexes):
        """Keeps only the given inputs for backward (call in forward)."""
        self.node.retain_inputs(indexes)

    def retain_outputs(self, indexes, retain_after_backward=False):
        """Keeps the given outputs for backward (call in forward)."""
        self.node.retain_outputs(indexes)
