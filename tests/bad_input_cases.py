"""A table of one valid call for every public function of
``chainer.functions``, and the bad variants made from it.

Each case is ``(call, args, spec)``: ``call(*args)`` is a valid call;
``spec`` says which arguments are labels/indices, which function accepts
any dtype, and which keyword values are invalid.  :func:`variants` turns a
case into bad calls, each with what it is allowed to do (``'raise'``: it
must raise a clear error; ``'either'``: a result or a clear error).
"""

import numpy

import chainer.functions as F

f32 = numpy.float32
i32 = numpy.int32


def arr(*shape, lo=-1.0, hi=1.0, dtype=f32, seed=0):
    rs = numpy.random.RandomState(seed + len(shape) + sum(shape))
    return rs.uniform(lo, hi, shape).astype(dtype)


def pos(*shape):
    return arr(*shape, lo=0.5, hi=2.0)


def prob(*shape):
    return arr(*shape, lo=0.1, hi=0.9)


def labels(n, k):
    return (numpy.arange(n) % k).astype(i32)


def spec(labels=(), any_dtype=False, scalar_ok=(), bad_kwargs=(),
         label_max=None, int_ok=(), skip=(), none_ok=(),
         label_high_ok=False):
    """``labels``: positions of label/index arguments; ``label_max``: the
    number of classes (labels of it or past it are out of range);
    ``any_dtype``: integer arrays are valid data; ``scalar_ok``/``int_ok``:
    positions where a Python scalar / an integer array is valid;
    ``bad_kwargs``: keyword dicts that must be refused; ``skip``: variant
    kinds that do not apply; ``none_ok``: optional array arguments."""
    return dict(labels=tuple(labels), any_dtype=any_dtype,
                scalar_ok=tuple(scalar_ok), bad_kwargs=list(bad_kwargs),
                label_max=label_max, int_ok=tuple(int_ok), skip=set(skip),
                none_ok=tuple(none_ok), label_high_ok=label_high_ok)


S = spec()
EW = spec()  # an elementwise function of one float array
x23 = arr(2, 3)
img = arr(2, 3, 5, 5)
img1 = arr(2, 1, 5, 5)
seq = arr(1, 2, 3)  # (length, batch, units)


def _lstm_ws(n_layers, n_dirs, n_w, in_size, out):
    ws, bs = [], []
    for layer in range(n_layers * n_dirs):
        w = []
        for j in range(n_w):
            first = j < n_w // 2
            w.append(arr(out, in_size if first and layer < n_dirs else
                         out * n_dirs if first else out, seed=j))
        ws.append(w)
        bs.append([arr(out, seed=j) for j in range(n_w)])
    return ws, bs


def _rnn(f, n_w, n_dirs, has_c):
    def call(hx, x0, x1):
        ws, bs = _lstm_ws(1, n_dirs, n_w, 3, 2)
        c = (arr(n_dirs, 2, 2, seed=1),) if has_c else ()
        return f(1, 0.0, hx, *c, ws, bs, [x0, x1])[-1][0]
    # hx=None is documented: zero initial states
    return (call, [arr(n_dirs, 2, 2), arr(2, 3), arr(1, 3)],
            spec(skip={'rank-', 'rank+', 'empty', 'zero_d'}, none_ok=(0,)))


def _unary(f, x=None, **kw):
    return (lambda a: f(a, **kw), [x23 if x is None else x], EW)


_POOL_BAD = [dict(stride=0), dict(stride=-1), dict(pad=-1)]
_CONV_BAD = [dict(stride=0), dict(dilate=0), dict(pad=-1)]

CASES = {
    # elementwise and unary math
    **{n: _unary(getattr(F, n)) for n in [
        'absolute', 'arctan', 'ceil', 'cos', 'cosh', 'elu', 'erf', 'erfc',
        'erfcx', 'exp', 'expm1', 'hard_sigmoid', 'leaky_relu', 'log_ndtr', 'ndtr', 'relu', 'relu6',
        'selu', 'sigmoid', 'sin', 'sinh', 'softplus', 'square',
        'tan', 'tanh']},
    'clipped_relu': _unary(F.clipped_relu),
    # integer input is documented for these (the result keeps its dtype)
    **{n: (lambda a, _f=getattr(F, n): _f(a), [x23], spec(int_ok=(0,)))
       for n in ['ceil', 'floor', 'fix', 'sign']},
    'identity': (lambda a: F.identity(a), [x23], spec(any_dtype=True)),
    **{n: _unary(getattr(F, n), pos(2, 3)) for n in [
        'log', 'log10', 'log1p', 'log2', 'sqrt', 'rsqrt', 'digamma',
        'lgamma']},
    **{n: _unary(getattr(F, n), prob(2, 3)) for n in [
        'arccos', 'arcsin', 'arctanh', 'erfinv', 'ndtri']},
    'erfcinv': _unary(F.erfcinv, pos(2, 3) * 0.5),
    'zeta': (lambda a: F.zeta(2.0, a), [pos(2, 3) + 1], EW),
    'polygamma': (lambda n, a: F.polygamma(n, a),
                  [numpy.ones((2, 3), i32), pos(2, 3)],
                  spec(int_ok=(0,), any_dtype=False)),
    'swish': (lambda a, b: F.swish(a, b), [x23, arr(3)], S),
    'prelu': (lambda a, w: F.prelu(a, w), [x23, arr(3)], S),
    'rrelu': (lambda a: F.rrelu(a), [x23], EW),
    'crelu': (lambda a: F.crelu(a), [x23], EW),
    'maxout': (lambda a: F.maxout(a, 3), [arr(2, 6)],
               spec(bad_kwargs=[])),
    'softmax': (lambda a: F.softmax(a), [x23], EW),
    'log_softmax': (lambda a: F.log_softmax(a), [x23], EW),
    'logsumexp': (lambda a: F.logsumexp(a), [x23], EW),
    'gumbel_softmax': (lambda a: F.gumbel_softmax(a), [prob(2, 3)], EW),
    'clip': (lambda a: F.clip(a, -0.5, 0.5), [x23], EW),
    'cast': (lambda a: F.cast(a, numpy.float64), [x23],
             spec(any_dtype=True)),
    'copy': (lambda a: F.copy(a, -1), [x23], spec(any_dtype=True)),
    'lstm': (lambda c, a: F.lstm(c, a), [arr(2, 3), arr(2, 12)], S),
    'slstm': (lambda c1, c2, a, b: F.slstm(c1, c2, a, b),
              [arr(2, 3), arr(2, 3), arr(2, 12), arr(2, 12)], S),
    'tree_lstm': (lambda c1, c2, a: F.tree_lstm(c1, c2, a),
                  [arr(2, 3), arr(2, 3), arr(2, 15)], S),
    # binary math
    **{n: (lambda a, b, _f=getattr(F, n): _f(a, b), [x23, arr(2, 3)], S)
       for n in ['arctan2', 'fmod', 'maximum', 'minimum',
                 'squared_difference', 'absolute_error', 'squared_error']},
    'add': (lambda a, b: F.add(a, b), [x23, arr(2, 3)], S),
    'linear_interpolate': (lambda p, a, b: F.linear_interpolate(p, a, b),
                           [prob(2, 3), x23, arr(2, 3)], S),
    'bias': (lambda a, b: F.bias(a, b, axis=1), [x23, arr(3)], S),
    'scale': (lambda a, b: F.scale(a, b, axis=1), [x23, arr(3)], S),
    'matmul': (lambda a, b: F.matmul(a, b), [x23, arr(3, 4)], S),
    'batch_matmul': (lambda a, b: F.batch_matmul(a, b),
                     [arr(2, 2, 3), arr(2, 3, 4)], S),
    'tensordot': (lambda a, b: F.tensordot(a, b, 1), [x23, arr(3, 4)],
                  S),
    'einsum': (lambda a, b: F.einsum('ij,jk->ik', a, b),
               [x23, arr(3, 4)], S),
    'sparse_matmul': (lambda b: F.sparse_matmul(_coo(x23), b),
                      [arr(3, 4)], S),
    'bilinear': (lambda a, b, w: F.bilinear(a, b, w),
                 [x23, arr(2, 4), arr(3, 4, 5)], S),
    'linear': (lambda a, w, b: F.linear(a, w, b),
               [x23, arr(4, 3), arr(4)], spec(none_ok=(2,))),
    'batch_det': (lambda a: F.batch_det(a), [arr(2, 3, 3) + 3 *
                                             numpy.eye(3, dtype=f32)], S),
    'det': (lambda a: F.det(a), [arr(3, 3) + 3 * numpy.eye(3, dtype=f32)],
            S),
    'batch_inv': (lambda a: F.batch_inv(a), [arr(2, 3, 3) + 3 *
                                             numpy.eye(3, dtype=f32)], S),
    'inv': (lambda a: F.inv(a), [arr(3, 3) + 3 * numpy.eye(3, dtype=f32)],
            S),
    'cholesky': (lambda a: F.cholesky(a),
                 [(numpy.eye(3) * 2 + 0.1).astype(f32)], S),
    'batch_l2_norm_squared': (lambda a: F.batch_l2_norm_squared(a),
                              [x23], S),
    'normalize': (lambda a: F.normalize(a), [x23], S),
    'fft': (lambda a, b: F.fft((a, b))[0], [x23, arr(2, 3)], S),
    'ifft': (lambda a, b: F.ifft((a, b))[0], [x23, arr(2, 3)], S),
    'cumsum': (lambda a: F.cumsum(a, axis=1), [x23],
               spec(bad_kwargs=[dict(axis=5)])),
    'cumprod': (lambda a: F.cumprod(a, axis=1), [x23],
                spec(bad_kwargs=[dict(axis=5)])),
    'sum': (lambda a: F.sum(a, axis=1), [x23],
            spec(bad_kwargs=[dict(axis=5)])),
    'mean': (lambda a: F.mean(a, axis=1), [x23],
             spec(bad_kwargs=[dict(axis=5)])),
    'prod': (lambda a: F.prod(a, axis=1), [x23],
             spec(bad_kwargs=[dict(axis=5)])),
    'max': (lambda a: F.max(a, axis=1), [x23],
            spec(bad_kwargs=[dict(axis=5)])),
    'min': (lambda a: F.min(a, axis=1), [x23],
            spec(bad_kwargs=[dict(axis=5)])),
    'argmax': (lambda a: F.argmax(a, axis=1), [x23],
               spec(any_dtype=True, bad_kwargs=[dict(axis=5)])),
    'argmin': (lambda a: F.argmin(a, axis=1), [x23],
               spec(any_dtype=True, bad_kwargs=[dict(axis=5)])),
    'average': (lambda a, w: F.average(a, axis=1, weights=w),
                [x23, pos(3)], spec(none_ok=(1,))),
    'sum_to': (lambda a: F.sum_to(a, (1, 3)), [x23], spec(any_dtype=True)),
    # array manipulation (any dtype is data)
    **{n: (call, args, spec(any_dtype=True)) for n, call, args in [
        ('broadcast_to', lambda a: F.broadcast_to(a, (4, 2, 3)), [x23]),
        ('expand_dims', lambda a: F.expand_dims(a, 1), [x23]),
        ('flatten', lambda a: F.flatten(a), [x23]),
        ('flip', lambda a: F.flip(a, 1), [x23]),
        ('fliplr', lambda a: F.fliplr(a), [x23]),
        ('flipud', lambda a: F.flipud(a), [x23]),
        ('moveaxis', lambda a: F.moveaxis(a, 0, 1), [x23]),
        ('reshape', lambda a: F.reshape(a, (3, 2)), [x23]),
        ('rollaxis', lambda a: F.rollaxis(a, 1), [x23]),
        ('squeeze', lambda a: F.squeeze(a), [arr(2, 1, 3)]),
        ('swapaxes', lambda a: F.swapaxes(a, 0, 1), [x23]),
        ('tile', lambda a: F.tile(a, 2), [x23]),
        ('transpose', lambda a: F.transpose(a), [x23]),
        ('repeat', lambda a: F.repeat(a, 2, axis=1), [x23]),
        ('diagonal', lambda a: F.diagonal(a), [arr(3, 3)]),
        ('get_item', lambda a: F.get_item(a, (0, slice(1, 3))), [x23]),
        ('pad', lambda a: F.pad(a, 1, 'constant'), [x23]),
        ('depth2space', lambda a: F.depth2space(a, 2), [arr(2, 4, 3, 3)]),
        ('space2depth', lambda a: F.space2depth(a, 2), [arr(2, 1, 4, 4)]),
        ('as_strided', lambda a: F.as_strided(a, (2, 2), (1, 1)), [x23]),
        ('im2col', lambda a: F.im2col(a, 2), [img]),
        ('broadcast', lambda a, b: F.broadcast(a, b)[0], [x23, arr(1, 3)]),
        ('concat', lambda a, b: F.concat((a, b)), [x23, arr(2, 3)]),
        ('stack', lambda a, b: F.stack((a, b)), [x23, arr(2, 3)]),
        ('hstack', lambda a, b: F.hstack((a, b)), [x23, arr(2, 3)]),
        ('vstack', lambda a, b: F.vstack((a, b)), [x23, arr(2, 3)]),
        ('dstack', lambda a, b: F.dstack((a, b)), [x23, arr(2, 3)]),
        ('separate', lambda a: F.separate(a), [x23]),
        ('split_axis', lambda a: F.split_axis(a, 3, 1)[0], [x23]),
        ('pad_sequence', lambda a, b: F.pad_sequence([a, b]),
         [arr(3, 2), arr(2, 2)]),
        ('transpose_sequence', lambda a, b: F.transpose_sequence([a, b])[0],
         [arr(3, 2), arr(2, 2)]),
        ('resize_images', lambda a: F.resize_images(a, (3, 3)), [img]),
        ('scatter_add', lambda a, b: F.scatter_add(a, (0, slice(0, 3)), b),
         [x23, arr(3)]),
    ]},
    'where': (lambda c, a, b: F.where(c, a, b),
              [x23 > 0, x23, arr(2, 3)], spec(int_ok=(0,))),
    'permutate': (lambda a, i: F.permutate(a, i),
                  [x23, numpy.array([1, 0], i32)],
                  spec(labels=(1,), label_max=2, any_dtype=True)),
    'select_item': (lambda a, t: F.select_item(a, t),
                    [x23, labels(2, 3)],
                    spec(labels=(1,), label_max=3, any_dtype=True)),
    'embed_id': (lambda i, w: F.embed_id(i, w), [labels(2, 4), arr(4, 3)],
                 spec(labels=(0,), label_max=4)),
    'shift': (lambda a: F.shift(a), [arr(2, 9, 4, 4)], spec(
        bad_kwargs=[dict(ksize=0), dict(dilate=0)])),
    # connections
    'convolution_1d': (lambda a, w: F.convolution_1d(a, w),
                       [arr(2, 3, 5), arr(4, 3, 2)],
                       spec(bad_kwargs=_CONV_BAD)),
    'convolution_2d': (lambda a, w, b: F.convolution_2d(a, w, b),
                       [img, arr(4, 3, 2, 2), arr(4)],
                       spec(bad_kwargs=_CONV_BAD, none_ok=(2,))),
    'convolution_3d': (lambda a, w: F.convolution_3d(a, w),
                       [arr(1, 2, 3, 3, 3), arr(2, 2, 2, 2, 2)],
                       spec(bad_kwargs=_CONV_BAD)),
    'convolution_nd': (lambda a, w: F.convolution_nd(a, w),
                       [arr(2, 3, 5), arr(4, 3, 2)],
                       spec(bad_kwargs=_CONV_BAD)),
    'deconvolution_1d': (lambda a, w: F.deconvolution_1d(a, w),
                         [arr(2, 3, 5), arr(3, 4, 2)],
                         spec(bad_kwargs=[dict(stride=0)])),
    # (a negative deconvolution pad is defined: the output grows)
    'deconvolution_2d': (lambda a, w: F.deconvolution_2d(a, w),
                         [img, arr(3, 4, 2, 2)],
                         spec(bad_kwargs=[dict(stride=0)])),
    'deconvolution_3d': (lambda a, w: F.deconvolution_3d(a, w),
                         [arr(1, 2, 3, 3, 3), arr(2, 2, 2, 2, 2)],
                         spec(bad_kwargs=[dict(stride=0)])),
    'deconvolution_nd': (lambda a, w: F.deconvolution_nd(a, w),
                         [arr(2, 3, 5), arr(3, 4, 2)],
                         spec(bad_kwargs=[dict(stride=0)])),
    'dilated_convolution_2d': (
        lambda a, w: F.dilated_convolution_2d(a, w, dilate=2),
        [img, arr(4, 3, 2, 2)], spec(bad_kwargs=[dict(stride=0)])),
    'depthwise_convolution_2d': (
        lambda a, w: F.depthwise_convolution_2d(a, w),
        [img, arr(2, 3, 2, 2)], spec(bad_kwargs=[dict(stride=0)])),
    'local_convolution_2d': (lambda a, w: F.local_convolution_2d(a, w),
                             [arr(2, 3, 3, 3), arr(4, 2, 2, 3, 2, 2)],
                             spec(bad_kwargs=[dict(stride=0)])),
    'deformable_convolution_2d_sampler': (
        lambda a, o, w: F.deformable_convolution_2d_sampler(a, o, w),
        [arr(1, 2, 4, 4), arr(1, 8, 3, 3), arr(3, 2, 2, 2)], S),
    # pooling
    **{n: (lambda a, _f=getattr(F, n): _f(a, 2), [img],
           spec(bad_kwargs=[dict(ksize=0)] + _POOL_BAD))
       for n in ['max_pooling_2d', 'average_pooling_2d']},
    **{n: (lambda a, _f=getattr(F, n): _f(a, 2), [arr(2, 3, 5)],
           spec(bad_kwargs=_POOL_BAD))
       for n in ['max_pooling_1d', 'average_pooling_1d', 'max_pooling_nd',
                 'average_pooling_nd']},
    **{n: (lambda a, _f=getattr(F, n): _f(a, 2), [arr(1, 2, 4, 4, 4)],
           spec(bad_kwargs=_POOL_BAD))
       for n in ['max_pooling_3d', 'average_pooling_3d']},
    **{n: (lambda a, _f=getattr(F, n): _f(a, 2), [arr(2, 3, 3)],
           spec(bad_kwargs=[dict(stride=0)]))
       for n in ['unpooling_1d', 'unpooling_nd']},
    'unpooling_2d': (lambda a: F.unpooling_2d(a, 2), [arr(2, 3, 3, 3)],
                     spec(bad_kwargs=[dict(stride=0)])),
    'unpooling_3d': (lambda a: F.unpooling_3d(a, 2), [arr(1, 2, 2, 2, 2)],
                     spec(bad_kwargs=[dict(stride=0)])),
    'upsampling_2d': (
        lambda a, i: F.upsampling_2d(a, i, 2, outsize=(4, 4)),
        [arr(1, 1, 2, 2), numpy.array([[[[0, 1], [2, 3]]]], i32)],
        spec(labels=(1,), label_max=4)),
    'spatial_pyramid_pooling_2d': (
        lambda a: F.spatial_pyramid_pooling_2d(a, 2, pooling='max'),
        [arr(2, 3, 4, 4)],
        spec(bad_kwargs=[dict(pyramid_height=0)])),
    'local_response_normalization': (
        lambda a: F.local_response_normalization(a), [img], S),
    **{n: (lambda a, r, i, _f=getattr(F, n): _f(a, r, i, 2, 1.0),
           [arr(1, 2, 4, 4),
            numpy.array([[0, 0, 3, 3]], f32), numpy.array([0], i32)],
           spec(labels=(2,), label_max=1))
       for n in ['roi_average_pooling_2d', 'roi_max_pooling_2d']},
    **{n: (lambda a, r, i, _f=getattr(F, n): _f(a, r, i, 2, 1.0, 2),
           [arr(1, 2, 4, 4),
            numpy.array([[0, 0, 3, 3]], f32), numpy.array([0], i32)],
           spec(labels=(2,), label_max=1))
       for n in ['roi_average_align_2d', 'roi_max_align_2d']},
    'roi_pooling_2d': (lambda a, r: F.roi_pooling_2d(a, r, 2, 2, 1.0),
                       [arr(1, 2, 4, 4),
                        numpy.array([[0, 0, 0, 3, 3]], f32)], S),
    'spatial_transformer_grid': (
        lambda t: F.spatial_transformer_grid(t, (3, 3)), [arr(2, 2, 3)], S),
    'spatial_transformer_sampler': (
        lambda a, g: F.spatial_transformer_sampler(a, g),
        [img, arr(2, 2, 3, 3)], S),
    # normalization
    'batch_normalization': (
        lambda a, g, b: F.batch_normalization(a, g, b), [x23, pos(3),
                                                         arr(3)],
        spec(bad_kwargs=[dict(eps=0), dict(eps=-1.0)])),
    'fixed_batch_normalization': (
        lambda a, g, b, m, v: F.fixed_batch_normalization(a, g, b, m, v),
        [x23, pos(3), arr(3), arr(3), pos(3)],
        spec(bad_kwargs=[dict(eps=0)])),
    'batch_renormalization': (
        lambda a, g, b, m, v: F.batch_renormalization(
            a, g, b, 3.0, 5.0, running_mean=m, running_var=v),
        [x23, pos(3), arr(3), arr(3), pos(3)], S),
    'fixed_batch_renormalization': (
        lambda a, g, b, m, v: F.fixed_batch_renormalization(a, g, b, m, v),
        [x23, pos(3), arr(3), arr(3), pos(3)], S),
    'layer_normalization': (
        lambda a, g, b: F.layer_normalization(a, g, b), [x23, pos(3),
                                                         arr(3)], S),
    'group_normalization': (
        lambda a, g, b: F.group_normalization(a, 3, g, b),
        [img, pos(3), arr(3)], S),
    'decorrelated_batch_normalization': (
        lambda a: F.decorrelated_batch_normalization(a, groups=1),
        [arr(4, 3)], S),
    'fixed_decorrelated_batch_normalization': (
        lambda a, m, p: F.fixed_decorrelated_batch_normalization(
            a, m, p, groups=1),
        [arr(4, 3), arr(1, 3), numpy.eye(3, dtype=f32)[None]], S),
    # losses and evaluation
    'softmax_cross_entropy': (
        lambda a, t: F.softmax_cross_entropy(a, t), [x23, labels(2, 3)],
        spec(labels=(1,), label_max=3)),
    'accuracy': (lambda a, t: F.accuracy(a, t), [x23, labels(2, 3)],
                 spec(labels=(1,), label_max=3)),
    'binary_accuracy': (lambda a, t: F.binary_accuracy(a, t),
                        [x23, labels(6, 2).reshape(2, 3)],
                        spec(labels=(1,), label_max=2)),
    'sigmoid_cross_entropy': (
        lambda a, t: F.sigmoid_cross_entropy(a, t),
        [x23, labels(6, 2).reshape(2, 3)], spec(labels=(1,), label_max=2)),
    'hinge': (lambda a, t: F.hinge(a, t), [x23, labels(2, 3)],
              spec(labels=(1,), label_max=3)),
    'precision': (lambda a, t: F.precision(a, t)[0], [x23, labels(2, 3)],
                  spec(labels=(1,), label_max=3)),
    'recall': (lambda a, t: F.recall(a, t)[0], [x23, labels(2, 3)],
               spec(labels=(1,), label_max=3)),
    'f1_score': (lambda a, t: F.f1_score(a, t)[0], [x23, labels(2, 3)],
                 spec(labels=(1,), label_max=3)),
    'classification_summary': (
        lambda a, t: F.classification_summary(a, t)[0], [x23, labels(2, 3)],
        spec(labels=(1,), label_max=3)),
    'r2_score': (lambda a, b: F.r2_score(a, b), [x23, arr(2, 3)], S),
    'mean_squared_error': (lambda a, b: F.mean_squared_error(a, b),
                           [x23, arr(2, 3)], S),
    'mean_absolute_error': (lambda a, b: F.mean_absolute_error(a, b),
                            [x23, arr(2, 3)], S),
    'huber_loss': (lambda a, b: F.huber_loss(a, b, 1.0), [x23, arr(2, 3)],
                   spec(bad_kwargs=[dict(delta=-1.0), dict(delta=0.0)])),
    'gaussian_kl_divergence': (lambda m, v: F.gaussian_kl_divergence(m, v),
                               [x23, arr(2, 3)], S),
    # observations and means may be integers or a scalar (they broadcast
    # and promote exactly)
    'gaussian_nll': (lambda a, m, v: F.gaussian_nll(a, m, v),
                     [x23, arr(2, 3), arr(2, 3)],
                     spec(int_ok=(0, 1), scalar_ok=(0, 1))),
    'bernoulli_nll': (lambda a, y: F.bernoulli_nll(a, y),
                      [prob(2, 3), x23], spec(int_ok=(0,), scalar_ok=(0,))),
    'contrastive': (lambda a, b, y: F.contrastive(a, b, y),
                    [x23, arr(2, 3), labels(2, 2)],
                    spec(labels=(2,), label_max=2)),
    'triplet': (lambda a, p, n: F.triplet(a, p, n),
                [x23, arr(2, 3), arr(2, 3, seed=1)], S),
    'cross_covariance': (lambda a, b: F.cross_covariance(a, b),
                         [x23, arr(2, 4)], S),
    'decov': (lambda h: F.decov(h), [x23], S),
    'black_out': (lambda a, t, w, s: F.black_out(a, t, w, s),
                  [x23, labels(2, 4), arr(4, 3),
                   numpy.array([[1, 2], [2, 3]], i32)],
                  spec(labels=(1, 3), label_max=4)),
    'negative_sampling': (
        lambda a, t, w: F.negative_sampling(
            a, t, w, lambda shape: numpy.ones(shape, i32), 2),
        [x23, labels(2, 4), arr(4, 3)], spec(labels=(1,), label_max=4)),
    'connectionist_temporal_classification': (
        lambda a, b, t: F.connectionist_temporal_classification(
            [a, b], t, 0),
        [arr(2, 3), arr(2, 3), numpy.array([[1], [2]], i32)],
        spec(labels=(2,), label_max=3)),
    'crf1d': (lambda c, a, b, y0, y1: F.crf1d(c, [a, b], [y0, y1]),
              [arr(3, 3), x23, arr(2, 3), labels(2, 3), labels(2, 3)],
              spec(labels=(3, 4), label_max=3)),
    'argmax_crf1d': (lambda c, a, b: F.argmax_crf1d(c, [a, b])[0],
                     [arr(3, 3), x23, arr(2, 3)], S),
    'discriminative_margin_based_clustering_loss': (
        lambda e, t: F.discriminative_margin_based_clustering_loss(
            e, t, 0.5, 1.5, 2)[0],
        [arr(1, 2, 3, 3), (numpy.arange(9).reshape(1, 3, 3) % 2).astype(
            i32)],
        # labels past max_embedding_dim are not clustered (documented, and
        # Chainer's own tests rely on it); negative ones are refused
        spec(labels=(1,), label_max=2, label_high_ok=True)),
    # noise and others
    'dropout': (lambda a: F.dropout(a, 0.5), [x23],
                spec(bad_kwargs=[dict(ratio=1.5), dict(ratio=-0.1)])),
    'gaussian': (lambda m, v: F.gaussian(m, v), [x23, arr(2, 3)], S),
    'simplified_dropconnect': (
        lambda a, w: F.simplified_dropconnect(a, w), [x23, arr(4, 3)],
        spec(bad_kwargs=[dict(ratio=1.5)])),
    'zoneout': (lambda h, a: F.zoneout(h, a), [x23, arr(2, 3)],
                spec(bad_kwargs=[dict(ratio=1.5)])),
    'forget': (lambda a, b: F.forget(F.add, a, b), [x23, arr(2, 3)], S),
    'n_step_lstm': _rnn(F.n_step_lstm, 8, 1, True),
    'n_step_bilstm': _rnn(F.n_step_bilstm, 8, 2, True),
    'n_step_gru': _rnn(F.n_step_gru, 6, 1, False),
    'n_step_bigru': _rnn(F.n_step_bigru, 6, 2, False),
    'n_step_rnn': _rnn(F.n_step_rnn, 2, 1, False),
    'n_step_birnn': _rnn(F.n_step_birnn, 2, 2, False),
}


def _coo(a):
    from chainer.utils import to_coo
    return to_coo(a)


BAD_KINDS = ('list', 'None', 'str', 'scalar', 'complex', 'int', 'rank-',
             'rank+', 'empty', 'zero_d', 'nan')


def _bad(kind, a):
    if kind == 'list':
        return a.tolist()
    if kind == 'None':
        return None
    if kind == 'str':
        return 'abc'
    if kind == 'scalar':
        return 1.5
    if kind == 'complex':
        return a.astype(numpy.complex64) * (1 + 1j)
    if kind == 'int':
        return a.astype(i32)
    if kind == 'rank-':
        return a[0]
    if kind == 'rank+':
        return a[None]
    if kind == 'empty':
        return a[:0]
    if kind == 'zero_d':
        return numpy.array(a.ravel()[0])
    if kind == 'nan':
        return numpy.full_like(a, numpy.nan)
    raise AssertionError(kind)


def variants(name):
    """(variant id, a no-argument bad call, 'raise' or 'either')."""
    call, args, sp = CASES[name]
    out = []
    for i, a in enumerate(args):
        is_label = i in sp['labels']
        is_int = a.dtype.kind in 'iub'
        for kind in BAD_KINDS:
            expect = 'raise'
            if kind in sp['skip']:
                continue
            if is_int and kind in ('int', 'nan'):
                continue
            if kind == 'scalar' and i in sp['scalar_ok'] or \
                    kind == 'None' and i in sp['none_ok']:
                continue
            bad = _bad(kind, a)
            if kind in ('rank-', 'rank+', 'empty', 'zero_d', 'nan'):
                expect = 'either'
            if kind in ('int', 'complex') and sp['any_dtype'] or \
                    kind == 'int' and i in sp['int_ok']:
                expect = 'either'
            if kind == 'list' and a.ndim == 0:
                continue
            if kind == 'list' and is_label:
                expect = 'either'  # a list of indices is unambiguous
            new = list(args)
            new[i] = bad
            out.append(('{}:{}'.format(i, kind),
                        (lambda n=new: call(*n)), expect))
        if is_label and sp['label_max'] is not None:
            for kind, value in (('label_high', sp['label_max'] + 5),
                                ('label_neg', -3)):
                if kind == 'label_high' and sp['label_high_ok']:
                    continue
                new = list(args)
                t = a.copy()
                t.flat[0] = value
                new[i] = t
                out.append(('{}:{}'.format(i, kind),
                            (lambda n=new: call(*n)), 'raise'))
            new = list(args)
            new[i] = a.astype(f32)
            out.append(('{}:float_label'.format(i),
                        (lambda n=new: call(*n)), 'raise'))
    for j, kw in enumerate(sp['bad_kwargs']):
        out.append(('kw:{}'.format(kw), _with_kwargs(name, kw), 'raise'))
    return out


def _with_kwargs(name, kw):
    func = getattr(F, name)
    call, args, _ = CASES[name]
    first = args[0]

    def run():
        # the keyword goes to the function itself with its first argument
        # and, for poolings/convolutions, the table's second/ksize
        if name.startswith(('max_pooling', 'average_pooling')):
            return func(first, 2, **kw) if 'ksize' not in kw else func(
                first, **kw)
        if name.startswith('unpooling'):
            return func(first, 2, **kw)
        if name == 'spatial_pyramid_pooling_2d':
            return func(first, **kw)
        if name in ('shift', 'cumsum', 'cumprod', 'sum', 'mean', 'prod',
                    'max', 'min', 'argmax', 'argmin', 'dropout'):
            return func(first, **kw)
        if name == 'huber_loss':
            return func(first, args[1], **kw)
        if name in ('batch_normalization', 'fixed_batch_normalization'):
            return func(*args, **kw)
        if name in ('simplified_dropconnect', 'zoneout'):
            return func(*args, **kw)
        if name == 'dilated_convolution_2d':
            return func(*args, dilate=2, **kw)
        return func(*args, **kw)
    return run
