"""Running Caffe models: :class:`CaffeFunction` loads a binary
``.caffemodel`` and interprets its layers on Variables."""

import functools
import warnings

import numpy

from chainer import configuration
from chainer import functions as F
from chainer import link
from chainer import variable
from chainer.links.caffe import _caffe_pb
from chainer.links.connection.convolution_2d import Convolution2D
from chainer.links.connection.deconvolution_2d import Deconvolution2D
from chainer.links.connection.linear import Linear
from chainer.links.connection.scale import Scale
from chainer.links.normalization.batch_normalization import \
    BatchNormalization
from chainer.utils import argument


class CaffeFunction(link.Chain):
    """Caffe emulator based on the model file of Caffe.

    Loads a binary ``.caffemodel`` (a ``NetParameter`` with its learned
    blobs, in the current ``layer`` format or the old V1 ``layers``
    format) and runs its layers on Variables, so the computation can be
    differentiated like any other.  Layers with parameters become child
    links named after the layer (``Convolution2D``, ``Deconvolution2D``,
    ``Linear``, ``BatchNormalization``, ``Scale``).

    Supported layer types: Concat, Convolution, Deconvolution, Dropout,
    Eltwise, Flatten, InnerProduct, LRN (across channels), Pooling (max and
    average, as Caffe sizes them), ReLU (leaky with ``negative_slope``),
    Reshape, BatchNorm, Scale, Sigmoid, Slice, Softmax, SoftmaxWithLoss,
    Split and TanH.  Data and Input layers are skipped (the inputs are given
    to :meth:`forward`); any other type is skipped with a warning.

    .. note::

       A layer is ignored at run time when it is disabled, or when some of
       its bottom blobs are neither given nor computed.

    Args:
        model_path (str): Path to the binary-proto model file of Caffe.

    Attributes:
        forwards (dict): A mapping from layer names to corresponding
            functions.
        layers (list): ``(layer name, bottom blob names, top blob names)``
            of the layers, in the order they run.
        split_map (dict): Blob names made by Split layers -> their source.

    .. admonition:: Example

       To compute the ``fc8`` blob of BVLC's CaffeNet from images::

          func = CaffeFunction('path/to/bvlc_reference_caffenet.caffemodel')
          x = numpy.zeros((10, 3, 227, 227), numpy.float32)  # the images
          y, = func(inputs={'data': x}, outputs=['fc8'])

    Raises:
        FileNotFoundError: ``model_path`` does not exist.
        ValueError: The file is not a binary Caffe model (for example a
            truncated download), has no layers, or a layer's parameters
            are missing or not supported.
    """

    def __init__(self, model_path):
        super().__init__()
        net = _read_net(model_path)
        self.forwards = {}
        self.split_map = {}
        self.layers = []
        for layer in (net.layer or net.layers):
            if isinstance(layer.type, str):
                kind = layer.type
            else:  # V1: an enum
                kind = _V1_TYPES.get(layer.type, str(layer.type))
            setup = _SETUP.get(kind)
            if setup is None:
                warnings.warn(
                    'Skip the layer "{}", since CaffeFunction does not '
                    'support {} layer'.format(layer.name, kind))
                continue
            try:
                fn = setup(self, layer)
            except (IndexError, ValueError) as e:
                raise ValueError('{}: layer "{}" ({}): {}'.format(
                    model_path, layer.name, kind, e)) from None
            if fn is not None:
                self.forwards[layer.name] = fn
                self.layers.append((
                    layer.name,
                    [self.split_map.get(b, b) for b in layer.bottom],
                    list(layer.top)))

    def forward(self, inputs, outputs, disable=(), **kwargs):
        """forward(self, inputs, outputs, disable=())

        Executes a sub-network of the network.

        The layers run in the order of the model file; a layer runs when
        all its bottom blobs are known (given or computed), and its outputs
        become the Variables of its top blobs.

        Args:
            inputs (dict): Blob names -> Variables (or arrays) to start
                from, e.g. ``{'data': x}``.
            outputs (Iterable): Names of the blobs to return.
            disable (Iterable): Names of layers to skip.

        Returns:
            tuple: The Variables of the ``outputs`` blobs, in order.

        Raises:
            KeyError: An output blob was not computed.
        """
        if kwargs:
            argument.check_unexpected_kwargs(
                kwargs, train='train argument is not supported anymore. '
                'Use chainer.using_config')
            argument.assert_kwargs_empty(kwargs)
        blobs = dict(inputs)
        disable = set(disable)
        for name, bottom, top in self.layers:
            if name in disable or any(b not in blobs for b in bottom):
                continue
            ys = self.forwards[name](*[blobs[b] for b in bottom])
            if not isinstance(ys, (tuple, list)):
                ys = ys,
            blobs.update(zip(top, ys))
        missing = [name for name in outputs if name not in blobs]
        if missing:
            raise KeyError(
                'CaffeFunction: blob(s) {} not computed from the inputs {} '
                '(check the blob names and disable)'.format(
                    ', '.join(map(repr, missing)), sorted(inputs)))
        return tuple(blobs[name] for name in outputs)

    def _add_child(self, name, child):
        # A layer named after an attribute ('forward', 'layers', ...) would
        # shadow it.
        if name in self.__dict__ or hasattr(type(self), name):
            raise ValueError('the layer name clashes with an attribute of '
                             'CaffeFunction')
        with self.init_scope():
            setattr(self, name, child)
        return child


def _read_net(path):
    with open(path, 'rb') as f:
        data = f.read()
    net = _caffe_pb.NetParameter()
    try:
        net.ParseFromString(data)
    except Exception as e:  # protobuf's DecodeError, or a RuntimeError
        raise ValueError(
            '{} is not a valid binary Caffe model (.caffemodel): it may be '
            'truncated or in another format ({})'.format(path, e)) from None
    if not net.layer and not net.layers:
        raise ValueError('{} has no layers: not a binary Caffe model '
                         '(.caffemodel)?'.format(path))
    return net


# --- blobs ------------------------------------------------------------------

def _blob(layer, i):
    if len(layer.blobs) <= i:
        raise ValueError('the model has no parameter blob {} (weights '
                         'missing?)'.format(i))
    blob = layer.blobs[i]
    data = blob.data if len(blob.data) else blob.double_data
    array = numpy.array(data, numpy.float32)
    if blob.HasField('shape'):
        shape = tuple(blob.shape.dim)
    else:  # the 4-d shape of old files
        shape = (blob.num, blob.channels, blob.height, blob.width)
    if int(numpy.prod(shape)) != array.size:
        raise ValueError('parameter blob {} has {} values for its shape {}'
                         .format(i, array.size, shape))
    return array.reshape(shape)


def _pair(param, base, default):
    """``(h, w)`` of a size given as ``<base>_h``/``<base>_w``, one value
    or (repeated fields) one value per axis."""
    h, w = base + '_h', base + '_w'
    if h in param.DESCRIPTOR.fields_by_name and (
            param.HasField(h) or param.HasField(w)):
        return getattr(param, h), getattr(param, w)
    value = getattr(param, 'kernel_size' if base == 'kernel' else base)
    if isinstance(value, int):
        return value, value
    if len(value) == 0:
        return default, default
    if len(value) == 1:
        return value[0], value[0]
    if len(value) == 2:
        return tuple(value)
    raise ValueError('only 2-d spatial sizes are supported, got {} {} '
                     'values'.format(len(value), base))


# --- layer setups: each returns the layer's function (None: no layer) -------

def _convolution(self, layer, deconvolution=False):
    param = layer.convolution_param
    if param.axis != 1:
        raise ValueError('channel axis {} is not supported'.format(
            param.axis))
    W = _blob(layer, 0)
    if W.ndim != 4:
        raise ValueError('only 2-d convolutions are supported')
    b = _blob(layer, 1).ravel() if param.bias_term else None
    groups = param.group
    if deconvolution:
        cls, n_in, n_out = Deconvolution2D, W.shape[0], W.shape[1] * groups
    else:
        cls, n_in, n_out = Convolution2D, W.shape[1] * groups, W.shape[0]
    return self._add_child(layer.name, cls(
        n_in, n_out, W.shape[2:], _pair(param, 'stride', 1),
        _pair(param, 'pad', 0), nobias=b is None, initialW=W,
        initial_bias=b, dilate=_pair(param, 'dilation', 1), groups=groups))


def _inner_product(self, layer):
    param = layer.inner_product_param
    if param.axis < 1:
        raise ValueError('axis {} is not supported'.format(param.axis))
    W = _blob(layer, 0)
    W = W.reshape(W.shape[-2:])
    if param.transpose:
        W = W.T
    b = _blob(layer, 1).ravel() if param.bias_term else None
    fc = self._add_child(layer.name, Linear(
        W.shape[1], W.shape[0], nobias=b is None, initialW=W,
        initial_bias=b))
    if param.axis == 1:
        return fc
    return functools.partial(fc, n_batch_axes=param.axis)


def _batch_norm(self, layer):
    param = layer.batch_norm_param
    mean, var = _blob(layer, 0).ravel(), _blob(layer, 1).ravel()
    if len(layer.blobs) > 2:
        # Caffe keeps the statistics multiplied by a factor (its third blob)
        factor = _blob(layer, 2).ravel()[0]
        scale = 0 if factor == 0 else 1 / factor
        mean, var = mean * scale, var * scale
    bn = BatchNormalization(
        mean.size, decay=param.moving_average_fraction, eps=param.eps,
        use_gamma=False, use_beta=False)
    bn.avg_mean[...] = mean
    bn.avg_var[...] = var
    self._add_child(layer.name, bn)
    if param.use_global_stats:
        return functools.partial(_in_test_mode, bn)
    return bn  # batch statistics in training, as Caffe's TRAIN phase


def _scale(self, layer):
    param = layer.scale_param
    if len(layer.bottom) > 1:  # the scale is the second bottom
        b = _blob(layer, 0) if param.bias_term else None
        scale = Scale(param.axis, None, param.bias_term,
                      None if b is None else b.shape)
        if b is not None:
            scale.bias.b.array[...] = b
    else:
        W = _blob(layer, 0)
        scale = Scale(param.axis, W.shape, param.bias_term)
        scale.W.array[...] = W
        if param.bias_term:
            scale.bias.b.array[...] = _blob(layer, 1).reshape(W.shape)
    return self._add_child(layer.name, scale)


def _pooling(self, layer):
    param = layer.pooling_param
    if param.pool == _caffe_pb.PoolingParameter.STOCHASTIC:
        raise ValueError('stochastic pooling is not supported')
    ksize = None if param.global_pooling else _pair(param, 'kernel', None)
    return functools.partial(
        _pool, average=param.pool == _caffe_pb.PoolingParameter.AVE,
        ksize=ksize, stride=_pair(param, 'stride', 1),
        pad=_pair(param, 'pad', 0))


def _lrn(self, layer):
    param = layer.lrn_param
    if param.norm_region != _caffe_pb.LRNParameter.ACROSS_CHANNELS:
        raise ValueError('within-channel LRN is not supported')
    # Caffe divides alpha by the window size; Chainer does not.
    return functools.partial(
        F.local_response_normalization, n=param.local_size, k=param.k,
        alpha=param.alpha / param.local_size, beta=param.beta)


def _relu(self, layer):
    slope = layer.relu_param.negative_slope
    return functools.partial(F.leaky_relu, slope=slope) if slope else F.relu


def _eltwise(self, layer):
    param = layer.eltwise_param
    return functools.partial(_elementwise, op=param.operation,
                             coeffs=tuple(param.coeff))


def _concat(self, layer):
    param = layer.concat_param
    axis = param.axis
    if not param.HasField('axis') and param.HasField('concat_dim'):
        axis = param.concat_dim
    return functools.partial(_concat_list, axis=axis)


def _slice(self, layer):
    param = layer.slice_param
    axis = param.axis
    if not param.HasField('axis') and param.HasField('slice_dim'):
        axis = param.slice_dim
    points = list(param.slice_point) or len(layer.top)
    return functools.partial(F.split_axis, indices_or_sections=points,
                             axis=axis)


def _softmax(self, layer):
    return functools.partial(F.softmax, axis=layer.softmax_param.axis)


def _softmax_with_loss(self, layer):
    if layer.softmax_param.axis != 1:
        raise ValueError('softmax along axis {} is not supported'.format(
            layer.softmax_param.axis))
    return F.softmax_cross_entropy


def _dropout(self, layer):
    return functools.partial(F.dropout,
                             ratio=layer.dropout_param.dropout_ratio)


def _reshape(self, layer):
    param = layer.reshape_param
    return functools.partial(_caffe_reshape, dims=tuple(param.shape.dim),
                             axis=param.axis, num_axes=param.num_axes)


def _flatten(self, layer):
    param = getattr(layer, 'flatten_param', None)  # V1 has none
    if param is None:
        return functools.partial(_caffe_flatten, axis=1, end_axis=-1)
    return functools.partial(_caffe_flatten, axis=param.axis,
                             end_axis=param.end_axis)


def _split(self, layer):
    source = self.split_map.get(layer.bottom[0], layer.bottom[0])
    for top in layer.top:
        self.split_map[top] = source


def _skip(self, layer):
    return None


_SETUP = {
    'BatchNorm': _batch_norm,
    'Concat': _concat,
    'Convolution': _convolution,
    'Data': _skip,
    'Deconvolution': functools.partial(_convolution, deconvolution=True),
    'Dropout': _dropout,
    'Eltwise': _eltwise,
    'Flatten': _flatten,
    'InnerProduct': _inner_product,
    'Input': _skip,
    'LRN': _lrn,
    'Pooling': _pooling,
    'ReLU': _relu,
    'Reshape': _reshape,
    'Scale': _scale,
    'Sigmoid': lambda self, layer: F.sigmoid,
    'Slice': _slice,
    'Softmax': _softmax,
    'SoftmaxWithLoss': _softmax_with_loss,
    'Split': _split,
    'TanH': lambda self, layer: F.tanh,
}

# The V1 enum names of the types above.
_V1_TYPES = {
    getattr(_caffe_pb.V1LayerParameter, v1): name for v1, name in (
        ('CONCAT', 'Concat'), ('CONVOLUTION', 'Convolution'),
        ('DATA', 'Data'), ('DECONVOLUTION', 'Deconvolution'),
        ('DROPOUT', 'Dropout'), ('ELTWISE', 'Eltwise'),
        ('FLATTEN', 'Flatten'), ('INNER_PRODUCT', 'InnerProduct'),
        ('LRN', 'LRN'), ('POOLING', 'Pooling'), ('RELU', 'ReLU'),
        ('SIGMOID', 'Sigmoid'), ('SLICE', 'Slice'), ('SOFTMAX', 'Softmax'),
        ('SOFTMAX_LOSS', 'SoftmaxWithLoss'), ('SPLIT', 'Split'),
        ('TANH', 'TanH'))
}


# --- the functions of the layers (module level, so a CaffeFunction can be
# pickled) -----------------------------------------------------------------

def _in_test_mode(fn, x):
    with configuration.using_config('train', False):
        return fn(x)


def _concat_list(*xs, axis):
    return F.concat(xs, axis)


def _elementwise(*xs, op, coeffs):
    xs = [variable.as_variable(x) for x in xs]  # (inputs may be arrays)
    if op == _caffe_pb.EltwiseParameter.PROD:
        y = xs[0]
        for x in xs[1:]:
            y = y * x
    elif op == _caffe_pb.EltwiseParameter.SUM:
        if coeffs and len(coeffs) != len(xs):
            raise ValueError('Eltwise: {} coefficients for {} inputs'.format(
                len(coeffs), len(xs)))
        y = None
        for i, x in enumerate(xs):
            if coeffs and coeffs[i] != 1:
                x = x * coeffs[i]
            y = x if y is None else y + x
    elif op == _caffe_pb.EltwiseParameter.MAX:
        y = xs[0]
        for x in xs[1:]:
            y = F.maximum(y, x)
    else:
        raise ValueError('Eltwise: unknown operation {}'.format(op))
    return y


def _caffe_reshape(x, dims, axis, num_axes):
    # dims: 0 copies the input's axis, -1 is inferred; only the axes
    # [axis, axis + num_axes) of the input are replaced.
    shape = x.shape
    start = axis if axis >= 0 else len(shape) + axis + 1
    end = len(shape) if num_axes == -1 else start + num_axes
    new = tuple(shape[start + i] if d == 0 else d for i, d in enumerate(dims))
    return F.reshape(x, shape[:start] + new + shape[end:])


def _caffe_flatten(x, axis, end_axis):
    ndim = x.ndim
    axis %= ndim
    end_axis %= ndim
    return F.reshape(x, x.shape[:axis] + (-1,) + x.shape[end_axis + 1:])


def _caffe_pool_size(size, k, s, p):
    # Caffe rounds up, then drops a last window that starts in the padding.
    out = -(-(size + 2 * p - k) // s) + 1
    if p and (out - 1) * s >= size + p:
        out -= 1
    return out


def _pool(x, average, ksize, stride, pad):
    """Caffe's max or average pooling of ``x`` (``ksize`` None: global)."""
    dims = x.shape[2:]
    if ksize is None:
        ksize, stride, pad = dims, (1, 1), (0, 0)
    outs = tuple(_caffe_pool_size(n, k, s, p)
                 for n, k, s, p in zip(dims, ksize, stride, pad))
    if not average:
        y = F.max_pooling_2d(x, ksize, stride, pad, cover_all=True)
        if y.shape[2:] != outs:
            y = y[:, :, :outs[0], :outs[1]]
        return y
    floor = tuple((n + 2 * p - k) // s + 1
                  for n, k, s, p in zip(dims, ksize, stride, pad))
    if floor == outs:
        # every window lies within the padded input: the mean of k*k
        # values (padding counted), as Chainer's
        return F.average_pooling_2d(x, ksize, stride, pad)
    # The last windows overhang the padding: Caffe divides by the part of
    # the window within the padded input.  Pad the overhang with zeros
    # and rescale Chainer's mean by k*k / that count.
    extra = [(o - 1) * s + k - (n + 2 * p)
             for n, k, s, p, o in zip(dims, ksize, stride, pad, outs)]
    x = F.pad(x, ((0, 0), (0, 0), (0, max(extra[0], 0)),
                  (0, max(extra[1], 0))), 'constant')
    y = F.average_pooling_2d(x, ksize, stride, pad)[:, :, :outs[0], :outs[1]]
    counts = []
    for n, k, s, p, o in zip(dims, ksize, stride, pad, outs):
        start = numpy.arange(o) * s - p
        counts.append(numpy.minimum(start + k, n + p) - start)
    ratio = (ksize[0] * ksize[1]) / numpy.outer(counts[0], counts[1])
    return y * y.xp.asarray(ratio.astype(y.dtype))
