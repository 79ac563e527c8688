"""CaffeFunction: each layer type against NumPy (or chainer.functions) on
hand-made model files, the old V1 format, forward's rules and bad files."""

import pickle

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.exporters.caffe import _write_blob
from chainer.links.caffe import _caffe_pb
from chainer.links.caffe import CaffeFunction

pytest.importorskip('google.protobuf')


def _add(net, name, kind, bottom=(), top=None, blobs=(), **params):
    """Appends a layer; ``params``: ``convolution_param={...}`` and so on."""
    layer = net.layer.add(name=name, type=kind)
    layer.bottom.extend(bottom)
    layer.top.extend([name] if top is None else top)
    for key, fields in params.items():
        getattr(layer, key).MergeFrom(
            type(getattr(layer, key))(**fields))
    for a in blobs:
        _write_blob(layer.blobs.add(), numpy.asarray(a, numpy.float32))
    return layer


def _load(tmp_path, net, name='m.caffemodel'):
    path = str(tmp_path / name)
    with open(path, 'wb') as f:
        f.write(net.SerializeToString())
    return CaffeFunction(path)


def _rand(*shape):
    return numpy.random.uniform(-1, 1, shape).astype(numpy.float32)


def test_convolutions_as_chainer(tmp_path):
    net = _caffe_pb.NetParameter()
    _add(net, 'input', 'Input', top=['data'])
    W1, b1 = _rand(6, 2, 3, 2), _rand(6)
    _add(net, 'conv', 'Convolution', ['data'], blobs=[W1, b1],
         convolution_param=dict(num_output=6, kernel_h=3, kernel_w=2,
                                stride_h=2, stride_w=1, pad=[1, 0],
                                dilation=[2], group=2))
    W2 = _rand(6, 2, 3, 3)
    _add(net, 'deconv', 'Deconvolution', ['conv'], blobs=[W2],
         convolution_param=dict(num_output=4, kernel_size=[3], stride=[2],
                                bias_term=False, group=2))
    func = _load(tmp_path, net)
    assert func.layers == [('conv', ['data'], ['conv']),
                           ('deconv', ['conv'], ['deconv'])]
    x = _rand(2, 4, 9, 8)
    y, z = func(inputs={'data': x}, outputs=['conv', 'deconv'])
    expected = F.convolution_2d(x, W1, b1, stride=(2, 1), pad=(1, 0),
                                dilate=2, groups=2)
    numpy.testing.assert_allclose(y.array, expected.array, rtol=1e-5)
    expected = F.deconvolution_2d(expected, W2, stride=2, groups=2)
    numpy.testing.assert_allclose(z.array, expected.array, rtol=1e-5)
    assert func.deconv.b is None and func.conv.W.shape == (6, 2, 3, 2)


def _caffe_pool(x, k, s, p, average):
    # Caffe's pooling loops (pooling_layer.cpp), written out
    n, c, h, w = x.shape
    outs = []
    for size, kk, ss, pp in zip((h, w), k, s, p):
        out = -(-(size + 2 * pp - kk) // ss) + 1
        if pp and (out - 1) * ss >= size + pp:
            out -= 1
        outs.append(out)
    y = numpy.zeros((n, c) + tuple(outs), numpy.float32)
    for i in range(outs[0]):
        for j in range(outs[1]):
            h0, w0 = i * s[0] - p[0], j * s[1] - p[1]
            h1, w1 = min(h0 + k[0], h + p[0]), min(w0 + k[1], w + p[1])
            count = (h1 - h0) * (w1 - w0)
            window = x[:, :, max(h0, 0):min(h1, h), max(w0, 0):min(w1, w)]
            if average:
                y[:, :, i, j] = window.sum(axis=(2, 3)) / count
            else:
                y[:, :, i, j] = window.max(axis=(2, 3))
    return y


@pytest.mark.parametrize('pool', ['MAX', 'AVE'])
@pytest.mark.parametrize('k,s,p,size', [
    ((3, 3), (2, 2), (0, 0), (7, 7)),  # exact
    ((3, 3), (2, 2), (0, 0), (8, 6)),  # rounded up: the last window overhangs
    ((2, 3), (2, 2), (1, 1), (6, 5)),  # the last window starts in the padding
    ((3, 2), (1, 2), (1, 0), (5, 7)),
])
def test_pooling_as_caffe(tmp_path, pool, k, s, p, size):
    net = _caffe_pb.NetParameter()
    _add(net, 'pool', 'Pooling', ['data'], pooling_param=dict(
        pool=getattr(_caffe_pb.PoolingParameter, pool), kernel_h=k[0],
        kernel_w=k[1], stride_h=s[0], stride_w=s[1], pad_h=p[0], pad_w=p[1]))
    x = _rand(2, 3, *size)
    y, = _load(tmp_path, net)(inputs={'data': x}, outputs=['pool'])
    numpy.testing.assert_allclose(
        y.array, _caffe_pool(x, k, s, p, pool == 'AVE'), rtol=1e-5,
        atol=1e-6)


def test_global_pooling_and_square_fields(tmp_path):
    net = _caffe_pb.NetParameter()
    _add(net, 'g', 'Pooling', ['data'], pooling_param=dict(
        pool=_caffe_pb.PoolingParameter.AVE, global_pooling=True))
    _add(net, 'm', 'Pooling', ['data'], pooling_param=dict(
        kernel_size=2, stride=2))
    x = _rand(2, 3, 4, 6)
    g, m = _load(tmp_path, net)(inputs={'data': x}, outputs=['g', 'm'])
    numpy.testing.assert_allclose(g.array, x.mean(axis=(2, 3),
                                                  keepdims=True), rtol=1e-5)
    numpy.testing.assert_array_equal(
        m.array, x.reshape(2, 3, 2, 2, 3, 2).max(axis=(3, 5)))


def test_batch_norm_and_scale(tmp_path):
    net = _caffe_pb.NetParameter()
    mean, var = _rand(3), numpy.random.uniform(1, 2, 3).astype('f')
    gamma, beta = _rand(3), _rand(3)
    # Caffe stores the statistics times a factor, its third blob
    _add(net, 'bn', 'BatchNorm', ['data'], blobs=[mean * 4, var * 4, [4]],
         batch_norm_param=dict(use_global_stats=True, eps=1e-3))
    _add(net, 'scale', 'Scale', ['bn'], blobs=[gamma, beta],
         scale_param=dict(bias_term=True))
    _add(net, 'bn2', 'BatchNorm', ['data'], blobs=[mean, var, [1]])
    _add(net, 'mul', 'Scale', ['data', 'w'], scale_param=dict(axis=0))
    func = _load(tmp_path, net)
    x, w = _rand(4, 3, 2, 2), _rand(4, 3)
    with chainer.using_config('train', False):
        y2, = func(inputs={'data': x}, outputs=['bn2'])
    c = (slice(None), None, None)
    numpy.testing.assert_allclose(
        y2.array, (x - mean[c]) / numpy.sqrt(var[c] + 1e-5), rtol=1e-4,
        atol=1e-5)
    y, y2, m = func(inputs={'data': x, 'w': w},
                    outputs=['scale', 'bn2', 'mul'])
    expected = ((x - mean[c]) / numpy.sqrt(var[c] + 1e-3) * gamma[c] +
                beta[c])
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-4, atol=1e-5)
    # without use_global_stats: batch statistics in training mode
    numpy.testing.assert_allclose(
        y2.array.mean(axis=(0, 2, 3)), numpy.zeros(3), atol=1e-5)
    numpy.testing.assert_allclose(m.array, x * w[:, :, None, None])


def test_elementwise_and_shape_layers(tmp_path):
    net = _caffe_pb.NetParameter()
    E = _caffe_pb.EltwiseParameter
    _add(net, 'split', 'Split', ['data'], top=['a', 'b'])
    _add(net, 'slice', 'Slice', ['a'], top=['s1', 's2', 's3'],
         slice_param=dict(axis=1, slice_point=[1, 3]))
    _add(net, 'sum', 'Eltwise', ['a', 'b'],
         eltwise_param=dict(coeff=[2, -0.5]))
    _add(net, 'prod', 'Eltwise', ['a', 'b', 'b'],
         eltwise_param=dict(operation=E.PROD))
    _add(net, 'max', 'Eltwise', ['a', 'sum'],
         eltwise_param=dict(operation=E.MAX))
    _add(net, 'cat', 'Concat', ['s3', 's1'], concat_param=dict(concat_dim=1))
    _add(net, 'flat', 'Flatten', ['a'], flatten_param=dict(axis=2))
    _add(net, 'reshape', 'Reshape', ['a'], reshape_param=dict(
        shape=dict(dim=[0, -1, 2]), axis=1))
    _add(net, 'soft', 'Softmax', ['a'], softmax_param=dict(axis=-1))
    _add(net, 'tanh', 'TanH', ['a'])
    _add(net, 'sig', 'Sigmoid', ['a'])
    _add(net, 'leaky', 'ReLU', ['a'], relu_param=dict(negative_slope=0.1))
    _add(net, 'drop', 'Dropout', ['a'], dropout_param=dict(dropout_ratio=.3))
    _add(net, 'lrn', 'LRN', ['a'], lrn_param=dict(local_size=3, alpha=3.))
    func = _load(tmp_path, net)
    assert func.split_map == {'a': 'data', 'b': 'data'}
    x = _rand(2, 4, 3, 2)
    names = ['s1', 's2', 's3', 'sum', 'prod', 'max', 'cat', 'flat',
             'reshape', 'soft', 'tanh', 'sig', 'leaky', 'drop', 'lrn']
    with chainer.using_config('train', False):
        ys = dict(zip(names, [y.array for y in func(
            inputs={'data': x}, outputs=names)]))
    close = numpy.testing.assert_allclose
    close(ys['s2'], x[:, 1:3])
    close(ys['sum'], 1.5 * x)
    close(ys['prod'], x ** 3, rtol=1e-6)
    close(ys['max'], numpy.maximum(x, 1.5 * x))
    close(ys['cat'], numpy.concatenate([x[:, 3:], x[:, :1]], axis=1))
    assert ys['flat'].shape == (2, 4, 6)
    close(ys['reshape'], x.reshape(2, 4, 3, 2))
    assert func.layers[-7][0] == 'reshape'
    e = numpy.exp(x)
    close(ys['soft'], e / e.sum(axis=-1, keepdims=True), rtol=1e-5)
    close(ys['tanh'], numpy.tanh(x), rtol=1e-5)
    close(ys['leaky'], numpy.where(x > 0, x, 0.1 * x))
    close(ys['drop'], x)  # test mode
    # Caffe: x / (k + alpha / n * sum of squares) ** beta
    sq = numpy.pad(x ** 2, ((0, 0), (1, 1), (0, 0), (0, 0)))
    window = sq[:, :-2] + sq[:, 1:-1] + sq[:, 2:]
    close(ys['lrn'], x / (1 + window) ** 0.75, rtol=1e-5)


def test_inner_product_variants(tmp_path):
    net = _caffe_pb.NetParameter()
    W, b = _rand(5, 12), _rand(5)
    _add(net, 'fc', 'InnerProduct', ['data'], blobs=[W, b],
         inner_product_param=dict(num_output=5))
    _add(net, 'fct', 'InnerProduct', ['data'], blobs=[W.T],
         inner_product_param=dict(num_output=5, transpose=True,
                                  bias_term=False))
    _add(net, 'fc2', 'InnerProduct', ['data'], blobs=[W[:, :6]],
         inner_product_param=dict(num_output=5, axis=2, bias_term=False))
    _add(net, 'loss', 'SoftmaxWithLoss', ['fc', 'label'])
    x = _rand(3, 2, 6)
    t = numpy.array([0, 4, 2], numpy.int32)
    fc, fct, fc2, loss = _load(tmp_path, net)(
        inputs={'data': x, 'label': t}, outputs=['fc', 'fct', 'fc2', 'loss'])
    x2 = x.reshape(3, 12)
    numpy.testing.assert_allclose(fc.array, x2 @ W.T + b, rtol=1e-5)
    numpy.testing.assert_allclose(fct.array, x2 @ W.T, rtol=1e-5)
    numpy.testing.assert_allclose(fc2.array, x @ W[:, :6].T, rtol=1e-5)
    numpy.testing.assert_allclose(
        loss.array, F.softmax_cross_entropy(fc, t).array)


def test_v1_layers(tmp_path):
    # the old format: enum types, blob shapes as num/channels/height/width
    net = _caffe_pb.NetParameter()
    V = _caffe_pb.V1LayerParameter
    W, b = _rand(4, 3, 3, 3), _rand(4)
    Wfc, bfc = _rand(2, 16), _rand(2)

    def layer(name, kind, bottom, top, blobs=()):
        layer = net.layers.add(name=name, type=kind)
        layer.bottom.extend(bottom)
        layer.top.extend(top)
        for a in blobs:
            blob = layer.blobs.add()
            blob.num, blob.channels, blob.height, blob.width = \
                (1,) * (4 - a.ndim) + a.shape
            blob.data.extend(a.ravel().tolist())
        return layer

    layer('data', V.DATA, [], ['data', 'label'])
    layer('conv1', V.CONVOLUTION, ['data'], ['conv1'],
          [W, b]).convolution_param.kernel_size.append(3)
    layer('relu1', V.RELU, ['conv1'], ['conv1'])
    pool = layer('pool1', V.POOLING, ['conv1'], ['pool1']).pooling_param
    pool.kernel_size, pool.stride = 2, 2
    layer('fc', V.INNER_PRODUCT, ['pool1'], ['fc'], [Wfc, bfc])
    layer('prob', V.SOFTMAX, ['fc'], ['prob'])
    layer('acc', V.ACCURACY, ['prob', 'label'], ['acc'])
    with pytest.warns(UserWarning, match='Skip the layer "acc"'):
        func = _load(tmp_path, net)
    assert [name for name, _, _ in func.layers] == [
        'conv1', 'relu1', 'pool1', 'fc', 'prob']
    x = _rand(2, 3, 6, 6)
    y, = func(inputs={'data': x}, outputs=['prob'])
    h = F.max_pooling_2d(F.relu(F.convolution_2d(x, W, b)), 2)
    expected = F.softmax(F.linear(h, Wfc, bfc))
    numpy.testing.assert_allclose(y.array, expected.array, rtol=1e-5)
    assert func.fc.W.shape == (2, 16)


def _small(tmp_path):
    net = _caffe_pb.NetParameter()
    _add(net, 'fc', 'InnerProduct', ['data'], blobs=[_rand(3, 4), _rand(3)],
         inner_product_param=dict(num_output=3))
    _add(net, 'relu', 'ReLU', ['fc'])
    _add(net, 'other', 'ReLU', ['missing'])
    return _load(tmp_path, net)


def test_forward_rules(tmp_path):
    func = _small(tmp_path)
    x = _rand(2, 4)
    y, = func(inputs={'data': x}, outputs=['relu'])
    assert y.creator.label == 'ReLU'
    # a disabled layer and one whose bottoms are missing do not run
    z, = func(inputs={'data': x}, outputs=['fc'], disable=['relu'])
    with pytest.raises(KeyError, match="'relu'"):
        func(inputs={'data': x}, outputs=['relu'], disable=['relu'])
    with pytest.raises(KeyError, match="'other'"):
        func(inputs={'data': x}, outputs=['other'])
    # differentiable like any Chain
    v = chainer.Variable(x)
    F.sum(func(inputs={'data': v}, outputs=['relu'])[0]).backward()
    assert v.grad is not None and func.fc.W.grad is not None
    with pytest.raises(ValueError, match='using_config'):
        func(inputs={'data': x}, outputs=['fc'], train=False)
    with pytest.raises(TypeError, match='foo'):
        func(inputs={'data': x}, outputs=['fc'], foo=1)


def test_pickle(tmp_path):
    func = _small(tmp_path)
    copy = pickle.loads(pickle.dumps(func))
    x = _rand(2, 4)
    numpy.testing.assert_array_equal(
        copy(inputs={'data': x}, outputs=['relu'])[0].array,
        func(inputs={'data': x}, outputs=['relu'])[0].array)


def test_bad_files(tmp_path):
    with pytest.raises(FileNotFoundError):
        CaffeFunction(str(tmp_path / 'missing.caffemodel'))
    net = _caffe_pb.NetParameter()
    _add(net, 'fc', 'InnerProduct', ['data'],
         blobs=[_rand(30, 40), _rand(30)],
         inner_product_param=dict(num_output=30))
    data = net.SerializeToString()
    for name, content, match in [
            ('truncated', data[:len(data) // 2], 'truncated'),
            ('empty', b'', 'no layers'),
            ('text', b'name: "prototxt"\nlayer { name: "x" }\n', 'truncated'),
    ]:
        path = tmp_path / name
        path.write_bytes(content)
        with pytest.raises(ValueError, match=match):
            CaffeFunction(str(path))


@pytest.mark.parametrize('kind,params,match', [
    ('Convolution', dict(convolution_param=dict(num_output=2)),
     'no parameter blob 0'),
    ('InnerProduct', dict(blobs=[numpy.ones((2, 3))]), 'no parameter blob 1'),
    ('Pooling', dict(pooling_param=dict(pool=2)), 'stochastic'),
    ('LRN', dict(lrn_param=dict(norm_region=1)), 'within-channel'),
    ('Convolution', dict(blobs=[numpy.ones((1, 1, 1, 1, 1))],
                         convolution_param=dict(bias_term=False)), '2-d'),
])
def test_unsupported_parameters(tmp_path, kind, params, match):
    net = _caffe_pb.NetParameter()
    _add(net, 'bad', kind, ['data'], **params)
    with pytest.raises(ValueError, match=r'layer "bad" \({}\): .*{}'.format(
            kind, match)):
        _load(tmp_path, net)


def test_layer_name_clashing_with_an_attribute(tmp_path):
    net = _caffe_pb.NetParameter()
    _add(net, 'forward', 'InnerProduct', ['data'],
         blobs=[_rand(2, 2), _rand(2)])
    with pytest.raises(ValueError, match='clashes'):
        _load(tmp_path, net)
