"""Exporting a model to Caffe: its graph as ``chainer_model.prototxt`` and
its parameters as ``chainer_model.caffemodel``.

The model runs once in test mode; the graph is then read back from the
outputs (each FunctionNode's ``inputs``), in an order where every layer
comes after the layers it reads.  A converter per FunctionNode class
writes the Caffe layer(s); the arrays each node was applied to are
recorded during the run by a function hook, so parameters and statistics
(Parameters, BatchNormalization's running averages) become the blobs.
"""

import collections
import os

import numpy

from chainer import configuration
from chainer import function
from chainer import function_hook
from chainer import variable
from chainer.backends import cuda
from chainer.links.caffe import _caffe_pb
from chainer.links.caffe.caffe_function import _caffe_pool_size
from chainer.utils._atomic import atomic_path


def export(model, args, directory=None, export_params=True,
           graph_name='Graph'):
    """(Experimental) Export a computational graph as Caffe format.

    Runs ``model(*args)`` in test mode (``chainer.config.train`` False) and
    writes the graph that computed the outputs to
    ``<directory>/chainer_model.prototxt`` (the network: an ``Input`` layer
    named ``data`` and one layer per operation) and, with
    ``export_params``, ``<directory>/chainer_model.caffemodel`` (the same
    layers with their parameters).  Layers and their top blobs are named
    ``<label>-<rank>-<k>`` after the FunctionNode's label, rank and count
    (``Convolution2DFunction-0-1``, ``_ + _-3-1``).
    The files are written atomically: an error leaves none behind.

    Supported operations: :func:`~chainer.functions.linear` (InnerProduct),
    :func:`~chainer.functions.convolution_2d` (with groups and dilation)
    and :func:`~chainer.functions.deconvolution_2d` (Convolution,
    Deconvolution), :func:`~chainer.functions.max_pooling_2d` and
    :func:`~chainer.functions.average_pooling_2d` (Pooling, where Chainer
    and Caffe agree on the output size),
    :func:`~chainer.functions.local_response_normalization` (LRN),
    batch normalization in test mode (BatchNorm and Scale),
    :func:`~chainer.functions.relu`, :func:`~chainer.functions.leaky_relu`
    (ReLU), :func:`~chainer.functions.sigmoid` (Sigmoid),
    :func:`~chainer.functions.tanh` (TanH),
    :func:`~chainer.functions.softmax` (Softmax),
    :func:`~chainer.functions.concat` (Concat),
    :func:`~chainer.functions.reshape` (Reshape), and ``+``, ``-``, ``*``
    of same-shaped Variables (Eltwise).  Dropout is the identity in test
    mode and leaves no layer.

    Args:
        model (~chainer.Chain): The model (any callable) to export.
        args (list of ~chainer.Variable): Its arguments (arrays are
            wrapped); the first input blob is ``data``, the next ``data1``,
            ``data2``, ...
        directory (str): The folder to write to; None writes nothing (the
            conversion still runs, so its errors show).
        export_params (bool): Also write the ``.caffemodel`` of parameters.
        graph_name (str): The ``name`` of the Caffe network.

    Raises:
        NotImplementedError: The graph holds an operation that Caffe (or
            this exporter) cannot express; the message names it.
        TypeError: ``model`` did not return Variables.

    .. admonition:: Example

       >>> import numpy as np
       >>> import chainer.links as L
       >>> from chainer.exporters import caffe
       >>> model = L.Linear(3, 2)
       >>> x = np.zeros((1, 3), np.float32)
       >>> caffe.export(model, [x], None, True, 'test')
    """
    if isinstance(args, (tuple, list)):
        args = [variable.as_variable(x) for x in args]
    else:
        args = [variable.as_variable(args)]
    recorder = _Recorder()
    with function.force_backprop_mode(), \
            configuration.using_config('train', False), recorder:
        outputs = model(*args)
    if isinstance(outputs, variable.Variable):
        outputs = [outputs]
    if not isinstance(outputs, (tuple, list)) or not all(
            isinstance(y, variable.Variable) for y in outputs):
        raise TypeError(
            'chainer.exporters.caffe.export: the model must return a '
            'Variable or a tuple/list of Variables, got {}'.format(
                type(outputs).__name__))

    graph = _Graph(graph_name, recorder.inputs)
    graph.build(args, outputs)
    if directory is None:
        return
    from google.protobuf import text_format
    text = text_format.MessageToString(graph.net)
    prototxt = os.path.join(directory, 'chainer_model.prototxt')
    with atomic_path(prototxt) as tmp:
        with open(tmp, 'w') as f:
            f.write(text)
        if export_params:
            graph.fill_blobs()
            data = graph.net.SerializeToString()
            caffemodel = os.path.join(directory, 'chainer_model.caffemodel')
            with atomic_path(caffemodel) as tmp_model:
                with open(tmp_model, 'wb') as f:
                    f.write(data)


class _Recorder(function_hook.FunctionHook):
    """Keeps the input arrays of every function applied."""

    name = 'CaffeExporter'

    def __init__(self):
        self.inputs = {}

    def forward_preprocess(self, function, in_data):
        # (the node is kept too, so that its id stays its own)
        self.inputs[id(function)] = (function, in_data)


def _functions(outputs):
    """The functions that computed ``outputs``, each after the functions
    it reads from (an iterative depth-first post-order)."""
    order = []
    seen = set()
    stack = [(y.creator_node, False) for y in reversed(outputs)
             if y.creator_node is not None]
    while stack:
        func, done = stack.pop()
        if done:
            order.append(func)
            continue
        if id(func) in seen:
            continue
        seen.add(id(func))
        stack.append((func, True))
        for node in reversed(func.inputs):
            creator = node.creator_node
            if creator is not None and id(creator) not in seen:
                stack.append((creator, False))
    return order


def _unsupported(func, why=None):
    name = type(func).__name__
    if func.label != name:
        name = '{} ({})'.format(name, func.label)
    message = 'chainer.exporters.caffe: cannot export {} to Caffe'.format(
        name)
    if why is None:
        message += '; supported: {}'.format(', '.join(sorted(_CONVERTERS)))
    else:
        message += ': ' + why
    return NotImplementedError(message)


class _Graph:

    def __init__(self, name, recorded):
        self.net = _caffe_pb.NetParameter(name=name)
        self.recorded = recorded
        self.tops = {}  # id(VariableNode) -> blob name
        self.pending = []  # (layer, arrays): the blobs, added last
        self._counts = collections.defaultdict(dict)

    def add(self, kind, name, bottoms, blobs=(), top=None):
        layer = self.net.layer.add(name=name, type=kind, phase=_caffe_pb.TEST)
        layer.bottom.extend(bottoms)
        layer.top.append(name if top is None else top)
        if blobs:
            self.pending.append((layer, blobs))
        return layer

    def build(self, args, outputs):
        names = ['data'] + ['data{}'.format(i) for i in range(1, len(args))]
        inputs = self.net.layer.add(name='data', type='Input',
                                    phase=_caffe_pb.TEST)
        for name, x in zip(names, args):
            inputs.top.append(name)
            inputs.input_param.shape.add().dim.extend(x.shape)
            self.tops[id(x.node)] = name
        for func in _functions(outputs):
            convert, n_bottoms = _CONVERTERS.get(type(func).__name__,
                                                 (None, 0))
            if convert is None:
                raise _unsupported(func)
            if id(func) not in self.recorded:
                raise _unsupported(func, 'it was applied before the export '
                                   '(not by the model called in export)')
            if len(func.outputs) != 1:
                raise _unsupported(func, 'it has several outputs')
            xs = self.recorded[id(func)][1]
            bottoms = []
            for i, node in enumerate(func.inputs[:n_bottoms or None]):
                if id(node) not in self.tops:
                    raise _unsupported(
                        func, 'its input {} is neither an argument of the '
                        'model nor computed by a layer (a constant?)'.format(
                            i))
                bottoms.append(self.tops[id(node)])
            name = self._name(func)
            y = func.outputs[0]()
            convert(self, func, name, bottoms, xs, y.shape)
            self.tops[id(y)] = name

    def _name(self, func):
        # <label>-<rank>-<k>: the k-th function of that label and rank
        # (Chainer's names: the label is the class name but for the
        # arithmetic operators, such as '_ + _')
        key = '{}-{}'.format(func.label, func.rank)
        count = self._counts[key]
        k = count.setdefault(id(func), len(count) + 1)
        return '{}-{}'.format(key, k)

    def fill_blobs(self):
        for layer, arrays in self.pending:
            for a in arrays:
                _write_blob(layer.blobs.add(), a)
        self.pending = []


def _write_blob(blob, array):
    array = numpy.ascontiguousarray(cuda.to_cpu(array), dtype='<f4')
    blob.shape.dim.extend(array.shape)
    # The packed floats (field 5) written in wire format: a tag, the byte
    # length as a varint, the bytes; much faster than extending blob.data
    # one value at a time.
    raw = array.tobytes()
    n = len(raw)
    length = bytearray()
    while n >= 0x80:
        length.append(n & 0x7f | 0x80)
        n >>= 7
    length.append(n)
    blob.MergeFromString(b'\x2a' + bytes(length) + raw)


# --- converters: (graph, func, name, bottoms, input arrays, output shape) --

def _linear(g, func, name, bottoms, xs, y_shape):
    W = xs[1]
    b = xs[2] if len(xs) == 3 else None
    layer = g.add('InnerProduct', name, bottoms,
                  [W] if b is None else [W, b])
    layer.inner_product_param.num_output = W.shape[0]
    layer.inner_product_param.bias_term = b is not None


def _set_sizes(param, **sizes):
    # one value when both axes agree (Caffe refuses kernel_size together
    # with kernel_h/kernel_w), else <name>_h and <name>_w
    for key, (h, w) in sizes.items():
        if h == w:
            setattr(param, key, h)
        else:
            base = 'kernel' if key == 'kernel_size' else key
            setattr(param, base + '_h', h)
            setattr(param, base + '_w', w)


def _convolution(g, func, name, bottoms, xs, y_shape):
    if func.ndim != 2:
        raise _unsupported(func, 'only 2-d convolutions are supported')
    x, W = xs[0], xs[1]
    b = xs[2] if len(xs) == 3 else None
    deconvolution = 'Deconvolution' in type(func).__name__
    ksize, stride, pad, dilate = (W.shape[2:], func.stride, func.pad,
                                  func.dilate)
    outs = []
    for n, k, s, p, d in zip(x.shape[2:], ksize, stride, pad, dilate):
        k = d * (k - 1) + 1
        outs.append(s * (n - 1) + k - 2 * p if deconvolution
                    else (n + 2 * p - k) // s + 1)
    if tuple(outs) != tuple(y_shape[2:]):
        raise _unsupported(func, 'its output size {} is not the one Caffe '
                           'computes, {} (cover_all or outsize?)'.format(
                               tuple(y_shape[2:]), tuple(outs)))
    layer = g.add('Deconvolution' if deconvolution else 'Convolution', name,
                  bottoms, [W] if b is None else [W, b])
    param = layer.convolution_param
    param.num_output = (W.shape[1] * func.groups if deconvolution
                        else W.shape[0])
    param.bias_term = b is not None
    # kernel, stride, pad and dilation are repeated fields here: one value
    # for both axes, or (h, w)
    for key, value, default in (('kernel_size', ksize, None),
                                ('stride', stride, 1), ('pad', pad, 0),
                                ('dilation', dilate, 1)):
        if value[0] == value[1]:
            if value[0] != default:
                getattr(param, key).append(value[0])
        else:
            getattr(param, key).extend(value)
    if func.groups != 1:
        param.group = func.groups


def _pooling(g, func, name, bottoms, xs, y_shape):
    if func.ndim != 2:
        raise _unsupported(func, 'only 2-d pooling is supported')
    average = 'Average' in type(func).__name__
    if average and getattr(func, 'pad_value', 0) is None and any(func.pad):
        raise _unsupported(func, 'Caffe counts the padding in the average '
                           '(pad_value=None is not supported)')
    outs = tuple(_caffe_pool_size(n, k, s, p) for n, k, s, p in zip(
        xs[0].shape[2:], func.ksize, func.stride, func.pad))
    if outs != tuple(y_shape[2:]):
        raise _unsupported(func, 'its output size {} is not the one Caffe '
                           'computes, {} (Caffe rounds up: cover_all=True)'
                           .format(tuple(y_shape[2:]), outs))
    layer = g.add('Pooling', name, bottoms)
    param = layer.pooling_param
    param.pool = (_caffe_pb.PoolingParameter.AVE if average
                  else _caffe_pb.PoolingParameter.MAX)
    _set_sizes(param, kernel_size=func.ksize, stride=func.stride)
    if any(func.pad):
        _set_sizes(param, pad=func.pad)


def _lrn(g, func, name, bottoms, xs, y_shape):
    param = g.add('LRN', name, bottoms).lrn_param
    param.local_size = func.n
    param.k = func.k
    param.alpha = func.alpha * func.n  # Caffe divides it by the size
    param.beta = func.beta


def _batch_normalization(g, func, name, bottoms, xs, y_shape):
    x, gamma, beta, mean, var = xs
    if tuple(func.axis) != (0,) + tuple(range(2, x.ndim)) or gamma.ndim != 1:
        raise _unsupported(func, 'Caffe normalizes over the axes but the '
                           'second (channels) only')
    # Caffe splits it: BatchNorm (running mean and variance, and a scale
    # factor of 1 for them) and Scale (gamma and beta).
    bn = g.add('BatchNorm', name + '_bn', bottoms,
               [mean, var, numpy.ones(1, numpy.float32)])
    bn.batch_norm_param.use_global_stats = True
    bn.batch_norm_param.eps = func.eps
    scale = g.add('Scale', name, [name + '_bn'], [gamma, beta])
    scale.scale_param.axis = 1
    scale.scale_param.bias_term = True


def _plain(kind):
    def convert(g, func, name, bottoms, xs, y_shape):
        g.add(kind, name, bottoms)
    return convert


def _leaky_relu(g, func, name, bottoms, xs, y_shape):
    g.add('ReLU', name, bottoms).relu_param.negative_slope = func.slope


def _softmax(g, func, name, bottoms, xs, y_shape):
    axis = func.axis % xs[0].ndim
    layer = g.add('Softmax', name, bottoms)
    if axis != 1:
        layer.softmax_param.axis = axis


def _concat(g, func, name, bottoms, xs, y_shape):
    axis = func.axis % xs[0].ndim
    layer = g.add('Concat', name, bottoms)
    if axis != 1:
        layer.concat_param.axis = axis


def _reshape(g, func, name, bottoms, xs, y_shape):
    dims = list(y_shape)
    if dims and xs[0].ndim and dims[0] == xs[0].shape[0]:
        # Any batch size: Caffe infers a -1. (Caffe's 0, "copy the input's
        # dim", is read as a zero-size dim by Chainer's CaffeFunction.)
        dims[0] = -1
    g.add('Reshape', name, bottoms).reshape_param.shape.dim.extend(dims)


def _eltwise(operation, coeffs=()):
    def convert(g, func, name, bottoms, xs, y_shape):
        if any(x.shape != tuple(y_shape) for x in xs):
            raise _unsupported(func, 'Caffe has no broadcasting (input '
                               'shapes {})'.format([x.shape for x in xs]))
        param = g.add('Eltwise', name, bottoms).eltwise_param
        param.operation = operation
        param.coeff.extend(coeffs)
    return convert


_SUM = _caffe_pb.EltwiseParameter.SUM
_PROD = _caffe_pb.EltwiseParameter.PROD

# FunctionNode class -> (converter, number of inputs that are bottoms, 0:
# all; the others are parameters)
_CONVERTERS = {
    'LinearFunction': (_linear, 1),
    'Convolution2DFunction': (_convolution, 1),
    'ConvolutionND': (_convolution, 1),
    'Deconvolution2DFunction': (_convolution, 1),
    'DeconvolutionND': (_convolution, 1),
    'MaxPoolingND': (_pooling, 1),
    'AveragePooling2D': (_pooling, 1),
    'AveragePoolingND': (_pooling, 1),
    'LocalResponseNormalization': (_lrn, 1),
    'FixedBatchNormalization': (_batch_normalization, 1),
    'ReLU': (_plain('ReLU'), 1),
    'LeakyReLU': (_leaky_relu, 1),
    'Sigmoid': (_plain('Sigmoid'), 1),
    'Tanh': (_plain('TanH'), 1),
    'Softmax': (_softmax, 1),
    'Concat': (_concat, 0),
    'Reshape': (_reshape, 1),
    'Add': (_eltwise(_SUM), 0),
    'MultiAdd': (_eltwise(_SUM), 0),
    'Sub': (_eltwise(_SUM, (1, -1)), 0),
    'Mul': (_eltwise(_PROD), 0),
}
