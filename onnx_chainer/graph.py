"""From the recorded define-by-run graph to a list of ONNX nodes.

The export runs the model once under :class:`RetainInputHook`, which lists
every FunctionNode applied, in order, with its input arrays. Walking back
from the outputs (``creator_node``, ``inputs``) gives the functions that
matter; they are converted in the order they ran, so each node's inputs are
made before it. A walk stops at a graph input or a model parameter (named
beforehand in the :class:`~onnx_chainer.context.Context`), and at a value no
recorded function made: an array given to a function, which becomes an
initializer holding the array the function saw.
"""

from onnx import numpy_helper

import chainer
from onnx_chainer import onnx_helper


class RetainInputHook:
    """Records the functions applied in a ``with`` block.

    A FunctionNode keeps its inputs as VariableNodes, which do not keep the
    arrays of a temporary input (an array given to the function, or a
    Variable dropped since). The hook keeps, for each function applied, its
    input arrays (:attr:`calls`), so the export can turn such inputs into
    initializers.

    :attr:`retain_inputs` lists the input arrays of the functions applied
    that are not those of Variables given to the Link being called (those
    the caller holds anyway).

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = chainer.Variable(np.ones(2, np.float32))
    >>> with RetainInputHook() as h:
    ...     y = F.relu(x) + np.ones(2, np.float32)
    >>> [type(f).__name__ for f, _ in h.calls]
    ['ReLU', 'Add']
    """

    name = 'onnx_chainer.RetainInputHook'

    def __init__(self):
        self.calls = []
        self.retain_inputs = []
        self._link_inputs = []  # one set of array ids per Link call in flight
        self._hooks = (_FunctionRecorder(self), _LinkRecorder(self))

    def __enter__(self):
        for hook in self._hooks:
            hook.__enter__()
        return self

    def __exit__(self, *exc):
        for hook in reversed(self._hooks):
            hook.__exit__(*exc)

    def _function_applied(self, function, in_data):
        self.calls.append((function, in_data))
        held = set().union(*self._link_inputs)
        self.retain_inputs.extend(
            a for a in in_data if a is not None and id(a) not in held)

    def _link_called(self, args, kwargs):
        ids = set()
        stack = list(args) + list(kwargs.values())
        while stack:
            a = stack.pop()
            if isinstance(a, chainer.Variable):
                ids.add(id(a.array))
            elif isinstance(a, (list, tuple)):
                stack.extend(a)
            elif isinstance(a, dict):
                stack.extend(a.values())
        self._link_inputs.append(ids)


class _FunctionRecorder(chainer.FunctionHook):
    name = RetainInputHook.name

    def __init__(self, owner):
        self.owner = owner

    def forward_preprocess(self, function, in_data):
        self.owner._function_applied(function, in_data)


class _LinkRecorder(chainer.LinkHook):
    name = RetainInputHook.name

    def __init__(self, owner):
        self.owner = owner

    def forward_preprocess(self, args):
        self.owner._link_called(args.args, args.kwargs)

    def forward_postprocess(self, args):
        self.owner._link_inputs.pop()


def function_key(func):
    """The name a FunctionNode's converter is registered under: its class
    name (the adapted class for a legacy Function, the given name for
    ``as_funcnode``)."""
    name = getattr(func, 'custom_function_node_name', None)
    if name is not None:
        return name
    if isinstance(func, chainer.function.FunctionAdapter):
        return type(func.function).__name__
    return type(func).__name__


class ConverterParams:
    """What a converter gets.

    Attributes:
        func (~chainer.FunctionNode): The function converted.
        opset_version (int): The opset of the export.
        input_names (list of str): The names of its inputs ('' for a
            missing optional one).
        output_names (list of str): The names its outputs must get.
        context (~onnx_chainer.context.Context): The export's names.
        name (str): The function's ONNX name (``ReLU_0``).
        key (str): Its converter name (``ReLU``).
        in_shapes, in_dtypes: Shapes and dtypes of its inputs.
        out_shapes, out_dtypes: Those of its outputs (None where an output
            is no longer referenced).
        in_arrays: Its input arrays, as it saw them.
    """

    def __init__(self, func, opset_version, input_names, output_names,
                 context, name, key, in_arrays):
        self.func = func
        self.opset_version = opset_version
        self.input_names = input_names
        self.output_names = output_names
        self.context = context
        self.name = name
        self.key = key
        self.in_arrays = in_arrays
        self.in_shapes = tuple(n.shape for n in func.inputs)
        self.in_dtypes = tuple(n.dtype for n in func.inputs)
        outs = [ref() for ref in func.outputs]
        self.out_shapes = tuple(None if n is None else n.shape for n in outs)
        self.out_dtypes = tuple(None if n is None else n.dtype for n in outs)

    @property
    def x(self):
        """The name of the first input."""
        return self.input_names[0]

    @property
    def dtype(self):
        """The dtype of the first input."""
        return self.in_dtypes[0]


class Graph:
    """Converts the functions between the named values and the outputs.

    Args:
        context: The export's Context, with the graph inputs and the model
            parameters named.
        converters (dict): Converter by FunctionNode name.
        opset_version (int): The opset to write.
        calls (list): ``(function, input arrays)`` in the order they ran
            (:attr:`RetainInputHook.calls`).
        output_names (dict): Names the outputs of the graph must get, by
            ``id`` of their VariableNode.
    """

    def __init__(self, context, converters, opset_version, calls,
                 output_names=None):
        self.context = context
        self.preset = output_names or {}  # id(node) -> a graph output's name
        self.converters = converters
        self.opset_version = opset_version
        self.calls = {id(f): (i, f, xs) for i, (f, xs) in enumerate(calls)}
        self.nodes = []
        self.initializers = []  # arrays given to functions
        self.used_params = set()
        self._counts = {}
        self._made = set()     # ids of the nodes converted functions made

    def functions(self, output_nodes):
        """The recorded functions the outputs depend on, in order."""
        known = self.context
        found = {}
        stack = list(output_nodes)
        seen = set()
        while stack:
            node = stack.pop()
            if id(node) in seen or node in known:
                continue
            seen.add(id(node))
            func = node.creator_node
            if func is None or id(func) not in self.calls or \
                    id(func) in found:
                continue
            found[id(func)] = func
            stack.extend(func.inputs)
        return sorted(found.values(), key=lambda f: self.calls[id(f)][0])

    def convert(self, output_nodes):
        """Converts everything the outputs depend on; the nodes go to
        :attr:`nodes`, the arrays given to functions to
        :attr:`initializers`."""
        for func in self.functions(output_nodes):
            self._convert(func)

    def is_made(self, node):
        return id(node) in self._made

    def _function_name(self, key):
        n = self._counts.get(key, 0)
        while self.context.is_used('{}_{}'.format(key, n)):
            n += 1
        self._counts[key] = n + 1
        return self.context.unique_name('{}_{}'.format(key, n))

    def _convert(self, func):
        key = function_key(func)
        converter = self.converters.get(key)
        if converter is None:
            raise ValueError(
                'ONNX export: no converter for the FunctionNode {} (label '
                '{!r}) at opset {}; give one in external_converters, or wrap '
                'the code with onnx_chainer.replace_func.as_funcnode'.format(
                    key, func.label, self.opset_version))
        name = self._function_name(key)
        in_arrays = self.calls[id(func)][2]
        with onnx_helper.set_func_name(name):
            labels = getattr(converter, 'input_labels', None)
            input_names = [
                self._input_name(name, node, in_arrays[i], labels, i)
                for i, node in enumerate(func.inputs)]
            output_names = self._output_names(func, name)
            params = ConverterParams(
                func, self.opset_version, input_names, output_names,
                self.context, name, key, in_arrays)
            try:
                nodes = converter(params)
            except Exception as e:
                if hasattr(e, 'add_note'):  # Python 3.11
                    e.add_note('(ONNX export of {}, FunctionNode {}, at '
                               'opset {})'.format(name, key,
                                                  self.opset_version))
                raise
            if nodes is None:
                nodes = ()
            elif not isinstance(nodes, (list, tuple)):
                nodes = (nodes,)
        self.nodes.extend(self.context.nodes)
        del self.context.nodes[:]
        self._add_nodes(nodes, name, output_names)

    def _add_nodes(self, nodes, name, output_names):
        outs = set(output_names)
        named = False
        for node in nodes:
            if not node.name or node.name == name:
                if not named and outs.intersection(node.output):
                    node.name = name
                    named = True
                else:
                    node.name = node.output[0] if node.output else name
            self.nodes.append(node)

    def _input_name(self, func_name, node, array, labels, i):
        ctx = self.context
        if node in ctx:
            name = ctx.get_name(node)
            if name in ctx.param_names:
                self.used_params.add(name)
            return name
        if array is None:  # a missing optional input
            return ''
        name = ctx.persistents.get(id(array))
        if name is not None:  # an array of the model (avg_mean, ...)
            if ctx.is_used(name):
                return name
            ctx.reserve(name)
        else:
            label = labels[i] if labels and i < len(labels) else \
                'in{}'.format(i)
            name = ctx.unique_name('{}_param_{}'.format(func_name, label))
        ctx.set_name(node, name)
        self.initializers.append(
            numpy_helper.from_array(onnx_helper.to_numpy(array), name))
        return name

    def _output_names(self, func, name):
        ctx = self.context
        n = len(func.outputs)
        names = []
        for j, ref in enumerate(func.outputs):
            node = ref()
            if node is not None and id(node) in self.preset:
                out = self.preset.pop(id(node))  # a graph output's name
                ctx.set_name(node, out)
                names.append(out)
            else:
                # A single output takes the function's name (reserved).
                out = name if n == 1 else ctx.unique_name(
                    '{}_{}'.format(name, j))
                if node is not None:
                    ctx.set_name(node, out)
                names.append(out)
            if node is not None:
                self._made.add(id(node))
        return names
