"""``onnx_chainer.export``: run a model once and write its graph as ONNX."""

import collections
import os
import warnings

import numpy
import onnx
from onnx import helper, numpy_helper

import chainer
from onnx_chainer import functions
from onnx_chainer import onnx_helper
from onnx_chainer.context import Context
from onnx_chainer.graph import Graph
from onnx_chainer.graph import RetainInputHook  # NOQA (onnx_chainer.export's)

MINIMUM_OPSET_VERSION = 7
# The newest opset the converters are checked against (with onnxruntime);
# the default is the newest of this and what the installed onnx knows.
MAXIMUM_OPSET_VERSION = 28


def convert_parameter(parameter, context):
    """The initializer (``TensorProto``) of a Parameter or array, named as
    ``context`` names it."""
    if isinstance(parameter, chainer.Variable):
        array = parameter.array
    else:
        array = parameter
        parameter = chainer.Parameter(array)
    return numpy_helper.from_array(onnx_helper.to_numpy(array),
                                   context.get_name(parameter))


def _opset(opset_version):
    newest = onnx.defs.onnx_opset_version()
    if opset_version is None:
        return min(newest, MAXIMUM_OPSET_VERSION)
    opset_version = int(opset_version)
    if not MINIMUM_OPSET_VERSION <= opset_version <= newest:
        raise ValueError(
            'ONNX export: opset_version must be from {} to {} (the newest '
            'the installed onnx knows), not {}'.format(
                MINIMUM_OPSET_VERSION, newest, opset_version))
    if opset_version > MAXIMUM_OPSET_VERSION:
        warnings.warn(
            'onnx_chainer is checked with opsets {} to {}; the model written '
            'with opset {} may not load'.format(
                MINIMUM_OPSET_VERSION, MAXIMUM_OPSET_VERSION, opset_version))
    return opset_version


# --- inputs -----------------------------------------------------------------

def _is_array(x):
    return isinstance(x, chainer.get_array_types())


def _prepare_inputs(args):
    """``(call args, call kwargs, [(key, Variable)])``: arrays become
    Variables, and each Variable given is an input of the graph."""
    inputs = []

    def take(key, x):
        if _is_array(x):
            x = chainer.Variable(x)
        if isinstance(x, chainer.Variable):
            inputs.append((key, x))
        return x

    if isinstance(args, (list, tuple)):
        return [take(i, a) for i, a in enumerate(args)], {}, inputs
    if isinstance(args, dict):
        return [], {k: take(k, a) for k, a in args.items()}, inputs
    if _is_array(args) or isinstance(args, chainer.Variable):
        return [take(0, args)], {}, inputs
    raise ValueError(
        'ONNX export: args must be a list, tuple, dict, array or Variable, '
        'not {}'.format(type(args).__name__))


def _names_for(what, names, keys, default):
    """The names of the inputs (or outputs) with ``keys``: ``names`` is None,
    a str (one value), a list (by order) or a dict (by key)."""
    n = len(keys)
    if names is None:
        return [default(i) for i in range(n)]
    if isinstance(names, str):
        names = [names]
    if isinstance(names, dict):
        unknown = [k for k in names if k not in keys]
        if unknown:
            raise ValueError(
                'ONNX export: {}_names has keys {} that are not those of the '
                '{}s ({})'.format(what, unknown, what, list(keys)))
        return [names.get(k) or default(i) for i, k in enumerate(keys)]
    names = list(names)
    if len(names) != n:
        raise ValueError(
            'ONNX export: {} {}_names given for {} {}s'.format(
                len(names), what, n, what))
    return names


def _check_shape(shape, x):
    if not isinstance(shape, (tuple, list)) or len(shape) != x.ndim or \
            not all(d is None or isinstance(d, (str, int, numpy.integer))
                    for d in shape):
        raise ValueError(
            'ONNX export: input_shapes needs a tuple of {} dimensions (int '
            'or str) for an input of shape {}, not {!r}'.format(
                x.ndim, x.shape, shape))
    return tuple(d if d is None or isinstance(d, str) else int(d)
                 for d in shape)


def _input_shapes(shapes, inputs, args):
    """The graph's input shapes: ``input_shapes`` checked against the
    inputs (a shape for one input; a list by order; a dict by key)."""
    if shapes is None:
        return [x.shape for _, x in inputs]
    xs = [x for _, x in inputs]
    if isinstance(args, dict) and isinstance(shapes, dict):
        keys = [k for k, _ in inputs]
        if sorted(map(str, shapes)) != sorted(map(str, keys)):
            raise ValueError(
                'ONNX export: input_shapes has keys {}, the inputs {}'.format(
                    list(shapes), keys))
        return [_check_shape(shapes[k], x) for k, x in inputs]
    if isinstance(shapes, tuple) and len(xs) == 1 and \
            not any(isinstance(d, (tuple, list)) for d in shapes):
        return [_check_shape(shapes, xs[0])]
    if not isinstance(shapes, list) or len(shapes) != len(xs):
        raise ValueError(
            'ONNX export: input_shapes must be a shape or a list of {} '
            'shapes, not {!r}'.format(len(xs), shapes))
    return [_check_shape(s, x) for s, x in zip(shapes, xs)]


# --- outputs ----------------------------------------------------------------

def _flatten_outputs(outputs):
    """``([Variable], keys)`` of what the model returned."""
    if isinstance(outputs, chainer.Variable):
        return [outputs], [0]
    if isinstance(outputs, dict):
        keys, values = list(outputs), list(outputs.values())
    elif isinstance(outputs, (list, tuple)):
        values = list(outputs)
        keys = list(range(len(values)))
    else:
        raise RuntimeError(
            'ONNX export: unexpected output type from the model: {} (it must '
            'return a Variable, or a list, tuple or dict of Variables)'.format(
                type(outputs).__name__))
    if not values:
        raise ValueError('ONNX export: the model returned no output')
    for v in values:
        if not isinstance(v, chainer.Variable):
            raise ValueError(
                'ONNX export: the outputs must be Chainer Variables, but one '
                'is {} (a forward that leaves the graph cannot be '
                'traced)'.format(type(v).__name__))
    return values, keys


def _value_info(name, dtype, shape):
    return helper.make_tensor_value_info(
        name, onnx_helper.np_dtype_to_tensor_type(dtype), shape)


def _tensor_info(tensor):
    return helper.make_tensor_value_info(tensor.name, tensor.data_type,
                                         tensor.dims)


# --- the model --------------------------------------------------------------

def _check(model, external_converters, external_opset_imports):
    try:
        onnx.checker.check_model(model)
    except onnx.checker.ValidationError as e:
        if not external_converters or external_opset_imports:
            raise
        warnings.warn(
            'The ONNX checker refused the model, which has operators of '
            'external_converters; it is kept unchecked (set '
            'external_opset_imports for operators of another domain). The '
            'error:\n{}'.format(e), UserWarning)


def _infer_output_shapes(model):
    # With customized input shapes, the output shapes follow from them.
    for output in model.graph.output:
        output.type.tensor_type.ClearField('shape')
    inferred = onnx.shape_inference.infer_shapes(model)
    return inferred if len(inferred.graph.output) == len(
        model.graph.output) else model


def _write(filename, model, save_text):
    if filename is None:
        return
    data = model.SerializeToString()
    if hasattr(filename, 'write'):
        filename.write(data)
        return
    from chainer.utils._atomic import atomic_path
    filename = os.fspath(filename)
    text = str(model) if save_text else None
    with atomic_path(filename) as tmp, open(tmp, 'wb') as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    if text is not None:
        with atomic_path(filename + '.txt') as tmp, open(tmp, 'w') as f:
            f.write(text)


def export(model, args, filename=None, export_params=True, graph_name='Graph',
           save_text=False, opset_version=None, input_names=None,
           output_names=None, train=False, return_named_inout=False,
           external_converters=None, external_opset_imports=None,
           input_shapes=None, no_testcase=False):
    """Exports a Chainer model to ONNX.

    The model runs once, ``y = model(*args)`` (``model(**args)`` for a
    dict), and the graph recorded from the inputs to the outputs is
    converted to an ONNX graph: each FunctionNode by the converter
    registered for its class name, the model's parameters as initializers
    named by their path (``/l1/W`` is ``param_l1_W``), and the arrays given
    to functions on the way as initializers too. The default inputs are
    named ``Input_<n>``, and an output after the function that made it
    (``LinearFunction_1``).

    >>> import numpy as np
    >>> import chainer.links as L
    >>> model = L.Linear(3, 2)
    >>> onnx_model = export(model, np.zeros((1, 3), np.float32))
    >>> [n.op_type for n in onnx_model.graph.node]
    ['Gemm']

    ``external_converters`` maps FunctionNode names to converters of one's
    own (they take ``params``, with ``func``, ``opset_version``,
    ``input_names``, ``output_names`` and ``context``, and return ONNX
    nodes); ``external_opset_imports`` maps the domains of their operators
    to opset versions.

    Args:
        model (~chainer.Chain): The model (any callable that takes the args
            and returns Variables).
        args (array, Variable, list, tuple or dict): Its arguments.
        filename (str or file-like): Where to write the model (the file
            appears only once it is complete). None writes nothing.
        export_params (bool): Whether the parameters are written as
            initializers; if not, they are inputs of the graph.
        graph_name (str): The ``name`` of the ONNX graph.
        save_text (bool): Also write its text form to ``filename + '.txt'``.
        opset_version (int): The ONNX opset, from 7; None for the newest the
            installed onnx knows (up to :data:`MAXIMUM_OPSET_VERSION`).
        input_names (str, list or dict): Names of the graph inputs, by
            order or (for dict args) by key.
        output_names (str, list or dict): Names of the graph outputs, by
            order or (for a dict returned) by key.
        train (bool): Run the model with ``chainer.config.train`` set.
        return_named_inout (bool): Also return the inputs and outputs.
        external_converters (dict): Converters by FunctionNode name, used
            before the built-in ones.
        external_opset_imports (dict): Opset versions by domain.
        input_shapes (tuple, list or dict): Shapes the graph declares for
            its inputs (a str dimension is symbolic, such as a batch size).
        no_testcase (bool): Writing a model to ``filename`` without its
            test case warns that it is deprecated (DeprecationWarning; see
            :func:`~onnx_chainer.export_testcase`), unless this is True.

    Returns:
        onnx.ModelProto, or with ``return_named_inout`` a tuple of it and
        the ordered dicts of the input and output Variables by name.
    """
    if filename is not None and not no_testcase:
        warnings.warn('Exporting ONNX without testcases is deprecated. '
                      'Use export_testcase instead', DeprecationWarning)
    opset_version = _opset(opset_version)
    call_args, call_kwargs, inputs = _prepare_inputs(args)
    shapes = _input_shapes(input_shapes, inputs, args)
    in_names = _names_for('input', input_names, [k for k, _ in inputs],
                          'Input_{}'.format)

    with chainer.using_config('train', train), \
            chainer.using_config('in_recomputing', True), \
            chainer.using_config('enable_backprop', True), \
            functions.rnn.native_rnns([x for _, x in inputs]), \
            RetainInputHook() as hook:
        outputs = model(*call_args, **call_kwargs)
    out_vars, out_keys = _flatten_outputs(outputs)
    out_names = _names_for('output', output_names, out_keys,
                           lambda i: None)

    context = Context(model)
    network_inputs = collections.OrderedDict()
    graph_inputs = []
    for name, (_, x), shape in zip(in_names, inputs, shapes):
        if x in context:  # the same Variable given twice
            continue
        context.reserve(name)
        context.set_name(x, name)
        network_inputs[name] = x
        graph_inputs.append(_value_info(name, x.dtype, shape))
    preset = {}
    for name, v in zip(out_names, out_vars):
        if name is not None:
            context.reserve(name)
            if v not in context:
                preset.setdefault(id(v.node), name)

    converters = functions.converters
    if external_converters:
        converters = dict(converters, **external_converters)
    graph = Graph(context, converters, opset_version, hook.calls, preset)
    graph.convert([v.node for v in out_vars])
    network_outputs = collections.OrderedDict()
    for i, (name, v) in enumerate(zip(out_names, out_vars)):
        name, node = _output(graph, context, v, name, i, network_outputs)
        if node is not None:
            graph.nodes.append(node)
        network_outputs[name] = v

    params = _used_params(context, graph)
    initializers = graph.initializers + context.parameters
    if export_params:
        initializers = params + initializers
    else:
        graph_inputs += [_tensor_info(t) for t in params]
    onnx_model = _make_model(
        graph.nodes, graph_name, graph_inputs,
        [_value_info(name, v.dtype, v.shape)
         for name, v in network_outputs.items()],
        initializers, opset_version, external_opset_imports)
    _check(onnx_model, external_converters, external_opset_imports)
    if input_shapes is not None:
        onnx_model = _infer_output_shapes(onnx_model)
    _write(filename, onnx_model, save_text)
    if return_named_inout:
        return onnx_model, network_inputs, network_outputs
    return onnx_model


def _used_params(context, graph):
    """The initializers of the model's parameters the graph uses."""
    params = []
    for name, param in context.named_params:
        if param.array is None:
            warnings.warn(
                'ONNX export: the parameter {} is not initialized (its link '
                'was not called); it is left out of the graph'.format(name))
        elif name in graph.used_params:
            params.append(convert_parameter(param, context))
    return params


def _make_model(nodes, graph_name, inputs, outputs, initializers,
                opset_version, external_opset_imports):
    opset_imports = [helper.make_opsetid('', opset_version)]
    for domain, version in (external_opset_imports or {}).items():
        opset_imports.append(helper.make_opsetid(domain, version))
    if helper.find_min_ir_version_for(opset_imports[:1]) < 4:
        # IR version 3 wants the initializers among the inputs too.
        inputs = inputs + [_tensor_info(t) for t in initializers]
    graph = helper.make_graph(nodes, graph_name, inputs, outputs,
                              initializer=initializers)
    model = helper.make_model(
        graph, producer_name='Chainer', producer_version=chainer.__version__,
        opset_imports=opset_imports)
    # The oldest IR version of the opset, for the runtimes of its time.
    model.ir_version = helper.find_min_ir_version_for(opset_imports[:1])
    return model


def _output(graph, context, v, want, i, taken):
    """The name of the i-th graph output, and the node that makes it when
    the value is not a function's own output (an input, a parameter, a
    constant, or an output given twice)."""
    node = v.node
    if graph.is_made(node):
        have = context.get_name(node)
        if want in (None, have) and have not in taken:
            return have, None
        name = want or context.unique_name(have)
        return name, helper.make_node('Identity', [have], [name], name=name)
    name = want or context.unique_name('Output_{}'.format(i))
    if node in context:
        have = context.get_name(node)
        if have in context.param_names:
            graph.used_params.add(have)
        return name, helper.make_node('Identity', [have], [name], name=name)
    # A value no recorded function made (F.sign's, say): a constant.
    return name, onnx_helper.make_constant(onnx_helper.to_numpy(v.array), name)
