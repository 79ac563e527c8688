"""Helpers for converters: naming, building nodes, tensor files.

While a FunctionNode is converted, :func:`set_func_name` holds its ONNX name
(``LinearFunction_0``); the temporaries and constants a converter makes are
named after it (``LinearFunction_0_tmp_0``), so every name in a graph is
unique and tells which Chainer function it came from.
"""

import contextlib
import os
import threading

import numpy
from onnx import helper, numpy_helper

_state = threading.local()


@contextlib.contextmanager
def set_func_name(func_name):
    """Within the block, names made here are prefixed with ``func_name``."""
    old = getattr(_state, 'name', None), getattr(_state, 'count', 0)
    _state.name, _state.count = func_name, 0
    try:
        yield
    finally:
        _state.name, _state.count = old


def get_func_name():
    """The ONNX name of the function being converted (None outside)."""
    return getattr(_state, 'name', None)


def _new_name(kind):
    # A fresh ``<func>_<kind>_<n>`` name for the function being converted.
    base = get_func_name() or 'onnx_chainer'
    n = getattr(_state, 'count', 0)
    _state.count = n + 1
    return '{}_{}_{}'.format(base, kind, n)


def make_node(op_type, inputs, outputs, name=None, **kwargs):
    """``onnx.helper.make_node`` whose node is named after the function
    being converted when no ``name`` is given.

    >>> with set_func_name('ReLU_0'):
    ...     make_node('Relu', ['x'], ['y']).name
    'ReLU_0'
    """
    if name is None:
        name = get_func_name() or ''
    return helper.make_node(op_type, list(inputs), list(outputs), name=name,
                            **kwargs)


def make_constant(array, name):
    """A ``Constant`` node whose output ``name`` holds ``array``."""
    tensor = numpy_helper.from_array(numpy.asarray(array), name)
    return helper.make_node('Constant', [], [name], name=name, value=tensor)


class GraphBuilder:
    """Collects the nodes of one converter.

    :meth:`op` adds a node with fresh output names and returns them;
    :meth:`op_output_named` adds one whose outputs are given (the
    function's outputs, usually); :meth:`nodes` gives them all in order.

    >>> with set_func_name('Foo_0'):
    ...     gb = GraphBuilder()
    ...     t = gb.op('Shape', ['x'])
    ...     _ = gb.op_output_named('Size', [t], ['y'])
    >>> [(n.op_type, list(n.output)) for n in gb.nodes()]
    [('Shape', ['Foo_0_tmp_0']), ('Size', ['y'])]
    """

    def __init__(self):
        self._nodes = []

    def op(self, op_type, input_names, num_outputs=1, **kwargs):
        """Adds a node; returns its output name (a tuple of names when
        ``num_outputs`` is not 1)."""
        outputs = [_new_name('tmp') for _ in range(num_outputs)]
        self._nodes.append(helper.make_node(
            op_type, list(input_names), outputs, name=outputs[0], **kwargs))
        return outputs[0] if num_outputs == 1 else tuple(outputs)

    def op_output_named(self, op_type, input_names, output_names, **kwargs):
        """Adds a node whose outputs are ``output_names``."""
        node = make_node(op_type, input_names, output_names, **kwargs)
        self._nodes.append(node)
        return node

    def const(self, array, dtype=None):
        """Adds a ``Constant`` node of ``array``; returns its name."""
        array = numpy.asarray(array, dtype=dtype)
        name = _new_name('const')
        self._nodes.append(make_constant(array, name))
        return name

    def nodes(self, output_names=None):
        """The nodes added so far; with ``output_names``, the outputs of the
        last node are renamed to them."""
        if output_names is not None:
            last = self._nodes[-1]
            del last.output[:]
            last.output.extend(output_names)
            last.name = get_func_name() or last.name
        return tuple(self._nodes)


def write_tensor_pb(filename, name, value):
    """Writes ``value`` (an array) as a TensorProto named ``name``.

    The file is written to a temporary beside it and renamed into place,
    so a failing write leaves nothing behind.
    """
    from chainer.utils._atomic import atomic_path
    tensor = numpy_helper.from_array(numpy.asarray(value), name)
    with atomic_path(filename) as tmp, open(tmp, 'wb') as f:
        f.write(tensor.SerializeToString())
        f.flush()
        os.fsync(f.fileno())


def cleanse_param_name(name):
    """The ONNX name of a parameter from its link path: ``/l1/W`` gives
    ``param_l1_W``.

    >>> cleanse_param_name('/l1/W')
    'param_l1_W'
    """
    return 'param' + name.replace('/', '_')


def is_support_non_standard_domain():
    """Whether the onnx checker skips the schema of ops in domains other
    than the standard one (always, for the onnx versions supported)."""
    return True


def to_numpy(value):
    """A NumPy array of ``value`` (a CuPy array is copied to the host)."""
    import chainer
    if isinstance(value, chainer.get_array_types()):
        value = chainer.backends.cuda.to_cpu(value)
    return numpy.asarray(value)


def np_dtype_to_tensor_type(dtype):
    """The ``TensorProto`` element type of a NumPy dtype."""
    return helper.np_dtype_to_tensor_dtype(numpy.dtype(dtype))
