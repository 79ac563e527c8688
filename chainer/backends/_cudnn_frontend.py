"""cuDNN through NVIDIA's cuDNN Frontend (``pip install nvidia-cudnn-frontend``,
module ``cudnn``, over the ``nvidia-cudnn-cu13`` libraries).

CuPy 14 dropped ``cupy.cudnn``, so Chainer's cuDNN paths come here: the ops
ask :func:`should_use` (``chainer.config.use_cudnn`` with Chainer's
'always' / 'auto' / 'never', the dtype, and whether the frontend offers the
op), then call one of the functions below, which return None when cuDNN
cannot take the case (the op then runs its CuPy kernels).

A graph is built once per geometry and configuration (:func:`graph_key`)
and cached; ``chainer.config.cudnn_deterministic`` drops the plans that
cuDNN marks nondeterministic, ``chainer.config.autotune`` times every plan
on the first call and keeps the fastest, ``use_cudnn_tensor_core`` drops the
tensor-core plans where Chainer would not use them, and plans needing more
workspace than ``cuda.get_max_workspace_size()`` are never chosen.

The frontend is imported on first use, never by ``import chainer``; where
it is missing or broken :func:`enabled` is False and nothing raises.
Its Python graph (1.32) offers convolutions and batch normalization; pooling
(``resample``), softmax and dropout (``rng``) are taken the day the graph
class has builders of those names (:data:`OPS`), and run on CuPy until then.
"""

import collections
import importlib.util
import os
import threading
import types

import numpy

import chainer
from chainer.backends import cuda

# op: the use_cudnn level at which it goes to cuDNN ('==always' where the
# results differ from the CuPy path's in more than rounding: dropout's
# random numbers).
OPS = {
    'conv_fprop': '>=auto', 'conv_dgrad': '>=auto', 'conv_wgrad': '>=auto',
    'batchnorm': '>=auto', 'batchnorm_inference': '>=auto',
    'batchnorm_backward': '>=auto', 'resample': '>=auto',
    'softmax': '>=auto', 'rng': '==always',
}
_TYPES = {numpy.dtype(numpy.float16): 'HALF',
          numpy.dtype(numpy.float32): 'FLOAT',
          numpy.dtype(numpy.float64): 'DOUBLE'}

# How many times each op ran on cuDNN (the tests compare the two paths).
calls = collections.Counter()

_UNSUPPORTED = object()  # a cache entry: cuDNN declined that graph
_cache = {}
_local = threading.local()
_frontend_module = None
_import_error = None
_imported = False
_enabled = None
# Read once, as Chainer read it: CHAINER_CUDNN=0 turns cuDNN off.
_ENV_ENABLED = os.environ.get('CHAINER_CUDNN', '1') != '0'


def _frontend():
    """The ``cudnn`` module (imported once, on first use), or None."""
    global _frontend_module, _import_error, _imported
    if not _imported:
        _imported = True
        try:
            if importlib.util.find_spec('cudnn') is None:
                raise ImportError('No module named cudnn (pip install '
                                  'nvidia-cudnn-frontend nvidia-cudnn-cu13)')
            import cudnn
            if not hasattr(cudnn, 'pygraph'):
                raise ImportError('the module cudnn is not NVIDIA\'s cuDNN '
                                  'Frontend (it has no pygraph)')
            _frontend_module = cudnn
        except Exception as e:  # ImportError, or missing cuDNN libraries
            _import_error = e
    return _frontend_module


def enabled():
    """Whether cuDNN can be used: CuPy with a GPU, the frontend importable,
    and ``CHAINER_CUDNN`` not 0 (decided once)."""
    global _enabled
    if _enabled is None:
        _enabled = bool(cuda.available and _ENV_ENABLED and
                        _frontend() is not None)
    return _enabled


def version():
    """The version of the cuDNN library under the frontend, as Chainer's
    ``cupy.cuda.cudnn.getVersion()`` gave it (e.g. 91900 for 9.19.0)."""
    fe = _frontend()
    if fe is None or not cuda.available:
        raise RuntimeError('cuDNN is not available: {}'.format(
            _import_error or 'no GPU'))
    return int(fe.backend_version())


class _LegacyBindings(types.ModuleType):
    """What ``cupy.cuda.cudnn`` (CuPy's low-level cuDNN bindings, which
    CuPy 14 removed) gave Chainer code besides the calls that CuPy's own
    cuDNN paths made: ``getVersion``.  Installed by chainer.backends.cuda
    where CuPy has no such module; everything else names the frontend."""

    def __init__(self):
        super().__init__('cupy.cuda.cudnn', self.__doc__)
        self.getVersion = version

    def __getattr__(self, name):
        raise AttributeError(
            'cupy.cuda.cudnn has no {!r}: CuPy 14 removed its cuDNN '
            'bindings; chainer-ng reaches cuDNN through NVIDIA\'s cuDNN '
            'Frontend (chainer.backends._cudnn_frontend), and offers '
            'getVersion() here only'.format(name))


def _reset():
    """Forgets the import and the decision (for tests)."""
    global _frontend_module, _import_error, _imported, _enabled
    _frontend_module = _import_error = _enabled = None
    _imported = False
    _cache.clear()
    calls.clear()


def supports(op):
    """Whether the installed frontend has a graph builder for ``op``."""
    fe = _frontend()
    return fe is not None and hasattr(fe.pygraph, op)


def should_use(op, dtype):
    """Whether ``op`` (a key of :data:`OPS`) runs on cuDNN for arrays of
    ``dtype``, after ``chainer.config.use_cudnn``."""
    level = OPS[op]
    if numpy.dtype(dtype) not in _TYPES:
        return False
    return cuda.should_use_cudnn(level) and supports(op)


# --- Chainer's arguments in the frontend's terms -------------------------------

def conv_padding(size, out, k, s, p, d):
    """``(pre, post)`` padding of one axis: Chainer's symmetric ``p``, the
    end grown where ``out`` needs more (``cover_all``, or a deconvolution's
    ``outsize``)."""
    needed = (out - 1) * s + (k - 1) * d + 1 - size - p
    return p, max(p, needed)


def conv_attrs(x_shape, w_shape, y_shape, stride, pad, dilate):
    """The conv attributes for an input of ``x_shape`` convolved with a
    filter of ``w_shape`` into ``y_shape``; groups are implied by the
    filter's channels (``x_shape[1] // w_shape[1]``)."""
    pads = [conv_padding(n, o, k, s, p, d) for n, o, k, s, p, d in zip(
        x_shape[2:], y_shape[2:], w_shape[2:], stride, pad, dilate)]
    extra = max(0, 4 - len(x_shape))  # a 1-D conv is a 2-D one to cuDNN
    return dict(pre_padding=[a for a, _ in pads] + [0] * extra,
                post_padding=[b for _, b in pads] + [0] * extra,
                stride=list(stride) + [1] * extra,
                dilation=list(dilate) + [1] * extra)


def _pad4(shape):
    return list(shape) + [1] * (4 - len(shape))


def _layout(a):
    """``(shape, element strides)`` of an array; cuDNN wants at least 4
    dimensions and non-negative strides."""
    shape = a.shape + (1,) * (4 - a.ndim)
    strides = tuple(s // a.itemsize for s in a.strides) + (1,) * (4 - a.ndim)
    return shape, strides


def graph_key(op, arrays, attrs=()):
    """The cache key of a graph: the op, the device, each array's layout and
    dtype, the op's attributes, and the configuration that changes the plan
    (deterministic, autotune, tensor cores, workspace limit)."""
    config = chainer.config
    dtype = arrays[0].dtype
    return (op, arrays[0].device.id,
            tuple(_layout(a) + (a.dtype.str,) for a in arrays),
            tuple(sorted((k, tuple(v) if isinstance(v, list) else v)
                         for k, v in dict(attrs).items())),
            bool(config.cudnn_deterministic), bool(config.autotune),
            cuda.should_use_cudnn_tensor_core(dtype),
            cuda._max_workspace_size)


# --- graphs ---------------------------------------------------------------------

class _Plan:
    """A built graph and the tensors to bind: ``names`` maps the names used
    by the caller to the graph's tensors."""

    __slots__ = ('graph', 'names', 'workspace', 'tuned')

    def __init__(self, graph, names):
        self.graph = graph
        self.names = names
        self.workspace = 0
        self.tuned = False


def _handle():
    fe = _frontend()
    handles = getattr(_local, 'handles', None)
    if handles is None:
        handles = _local.handles = {}
    device = cuda.cupy.cuda.get_device_id()
    h = handles.get(device)
    if h is None:
        h = handles[device] = fe.create_handle()
    return h


def _data_type(dtype):
    return getattr(_frontend().data_type, _TYPES[numpy.dtype(dtype)])


def _new_graph(dtype):
    fe = _frontend()
    io = _data_type(dtype)
    compute = _data_type(numpy.float64 if dtype == numpy.float64
                         else numpy.float32)
    return fe.pygraph(io_data_type=io, intermediate_data_type=compute,
                      compute_data_type=compute, handle=_handle())


def _tensor(graph, name, a):
    shape, strides = _layout(a)
    return graph.tensor(name=name, dim=list(shape), stride=list(strides),
                        data_type=_data_type(a.dtype))


def _scalar(graph, name):
    # eps and momentum: host float32 values bound at execution
    return graph.tensor(name=name, dim=[1, 1, 1, 1], stride=[1, 1, 1, 1],
                        data_type=_data_type(numpy.float32),
                        is_pass_by_value=True)


def _output(t, shape, dtype):
    shape = _pad4(shape)
    t.set_output(True).set_data_type(_data_type(dtype))
    t.set_dim(shape).set_stride(list(_contiguous_strides(shape)))
    return t


def _contiguous_strides(shape):
    strides, step = [], 1
    for n in reversed(shape):
        strides.append(step)
        step *= max(n, 1)
    return tuple(reversed(strides))


def _build(graph, dtype):
    """validate, lower, plan (after the configuration), check and build."""
    fe = _frontend()
    config = chainer.config
    graph.validate()
    graph.build_operation_graph()
    modes = [fe.heur_mode.A]
    if hasattr(fe.heur_mode, 'FALLBACK'):
        modes.append(fe.heur_mode.FALLBACK)
    graph.create_execution_plans(modes)
    notes = []
    if config.cudnn_deterministic:
        notes.append(fe.numerical_note.NONDETERMINISTIC)
    if not cuda.should_use_cudnn_tensor_core(dtype):
        notes.append(fe.numerical_note.TENSOR_CORE)
    if notes:
        graph.deselect_numeric_notes(notes)
    graph.deselect_workspace_greater_than(cuda._max_workspace_size)
    graph.check_support()
    if config.autotune:
        graph.build_plans(fe.build_plan_policy.ALL)
    else:
        graph.build_plans()


def _plan(key, make):
    """The cached plan of ``key``; ``make()`` builds the graph on a miss.
    None where cuDNN declines the graph (remembered)."""
    plan = _cache.get(key)
    if plan is None:
        fe = _frontend()
        try:
            plan = make()
        except fe.cudnnGraphNotSupportedError:
            plan = _UNSUPPORTED
        else:
            plan.workspace = plan.graph.get_workspace_size()
        _cache[key] = plan
    return None if plan is _UNSUPPORTED else plan


def _pointer(a):
    # the frontend takes plain addresses: host ones for the pass-by-value
    # scalars (NumPy arrays, alive in the caller's dict while it runs)
    return a.ctypes.data if type(a) is numpy.ndarray else a.data.ptr


def _autotune(plan, pack, handle):
    """Times every plan that builds (once per graph) and keeps the
    fastest."""
    cupy = cuda.cupy
    graph = plan.graph
    best = None
    for i in range(graph.get_execution_plan_count()):
        try:
            graph.build_plan_at_index(i)
            size = graph.get_workspace_size_plan_at_index(i)
        except Exception:  # a plan that does not build here is skipped
            continue
        if size > cuda._max_workspace_size:
            continue
        workspace = cupy.empty(size, cupy.uint8) if size else None
        ptr = workspace.data.ptr if size else 0
        start, stop = cupy.cuda.Event(), cupy.cuda.Event()
        graph.execute_plan_at_index(pack, ptr, i, handle)  # warm up
        start.record()
        for _ in range(3):
            graph.execute_plan_at_index(pack, ptr, i, handle)
        stop.record()
        stop.synchronize()  # once per graph, at build time
        elapsed = cupy.cuda.get_elapsed_time(start, stop)
        if best is None or elapsed < best[0]:
            best = (elapsed, i, size)
    if best is not None:
        graph.build_plan_at_index(best[1])
        plan.workspace = best[2]
    plan.tuned = True


def _execute(op, plan, buffers):
    """Runs ``plan`` on the current stream with ``buffers`` (name: array)."""
    cupy = cuda.cupy
    fe = _frontend()
    handle = _handle()
    fe.set_stream(handle, cupy.cuda.get_current_stream().ptr)
    pack = {plan.names[name]: _pointer(a) for name, a in buffers.items()}
    if chainer.config.autotune and not plan.tuned:
        _autotune(plan, pack, handle)
    workspace = cupy.empty(plan.workspace, cupy.uint8) \
        if plan.workspace else None
    plan.graph.execute(pack, 0 if workspace is None else
                       workspace.data.ptr, handle=handle)
    calls[op] += 1


# --- the ops ------------------------------------------------------------------------

def _contiguous(*arrays):
    cupy = cuda.cupy
    return [a if a.flags.c_contiguous else cupy.ascontiguousarray(a)
            for a in arrays]


def _conv(op, names, a, b, out, key_arrays, attrs, node):
    """Runs the cuDNN graph ``node(g, A, B)`` of the inputs ``a``, ``b``
    into ``out`` (``names``: those three), building it once per key; False
    where cuDNN declines."""
    def make():
        g = _new_graph(a.dtype)
        A, B = _tensor(g, names[0], a), _tensor(g, names[1], b)
        Y = _output(node(g, A, B), out.shape, out.dtype)
        _build(g, a.dtype)
        return _Plan(g, dict(zip(names, (A, B, Y))))
    plan = _plan(graph_key(op, key_arrays, attrs), make)
    if plan is None:
        return False
    _execute(op, plan, dict(zip(names, (a, b, out))))
    return True


def _gradient_node(node, shape, **kw):
    """A data or filter gradient node with the output's dims: newer
    frontends (1.32) take ``out_dims``, 1.16 refuses it (the dims are then
    those :func:`_output` sets on the output tensor)."""
    try:
        return node(out_dims=_pad4(shape), **kw)
    except TypeError:
        return node(**kw)


def _add_bias(y, b):
    if b is not None:
        y += b.reshape((1, -1) + (1,) * (y.ndim - 2))
    return y


def convolution(x, W, b, stride, pad, dilate, outs):
    """``y = conv(x, W) (+ b)`` with ``outs`` the output's spatial size
    (``cover_all`` is in it); None where cuDNN declines."""
    x, W = _contiguous(x, W)
    y = cuda.cupy.empty((x.shape[0], W.shape[0]) + tuple(outs), x.dtype)
    attrs = conv_attrs(x.shape, W.shape, y.shape, stride, pad, dilate)
    if not _conv('conv_fprop', ('x', 'W', 'y'), x, W, y, (x, W), attrs,
                 lambda g, X, Wt: g.conv_fprop(image=X, weight=Wt, **attrs)):
        return None
    return _add_bias(y, b)


def deconvolution(x, W, b, stride, pad, dilate, outsize, groups):
    """The transposed convolution (cuDNN's data gradient) of ``x`` through
    ``W`` (``(in_c, out_c / groups, k...)``) into ``outsize`` (+ b)."""
    x, W = _contiguous(x, W)
    y = cuda.cupy.empty((x.shape[0], W.shape[1] * groups) + tuple(outsize),
                        x.dtype)
    attrs = conv_attrs(y.shape, W.shape, x.shape, stride, pad, dilate)
    if not _conv('conv_dgrad', ('x', 'W', 'y'), x, W, y, (x, W, y), attrs,
                 lambda g, X, Wt: _gradient_node(
                     g.conv_dgrad, y.shape, loss=X, filter=Wt, **attrs)):
        return None
    return _add_bias(y, b)


def convolution_filter_grad(x, gy, ksize, stride, pad, dilate, groups):
    """``gW`` of ``y = conv(x, W)`` for the output gradient ``gy``."""
    x, gy = _contiguous(x, gy)
    gW = cuda.cupy.empty((gy.shape[1], x.shape[1] // groups) + tuple(ksize),
                         x.dtype)
    attrs = conv_attrs(x.shape, gW.shape, gy.shape, stride, pad, dilate)
    if not _conv('conv_wgrad', ('x', 'gy', 'gW'), x, gy, gW, (x, gy, gW),
                 attrs, lambda g, X, GY: _gradient_node(
                     g.conv_wgrad, gW.shape, image=X, loss=GY, **attrs)):
        return None
    return gW


def _bn_shape(x):
    """x as (N, C, S, 1): batch normalization over every axis but 1."""
    rest = 1
    for n in x.shape[2:]:
        rest *= n
    return (x.shape[0], x.shape[1], rest, 1)


def _stats_dtype(dtype):
    return numpy.float64 if dtype == numpy.float64 else numpy.float32


def batch_normalization(x, gamma, beta, eps, running_mean=None,
                        running_var=None, decay=0.9):
    """Training-mode batch normalization over every axis but 1; returns
    ``(y, mean, inv_std)`` (float32 statistics for float16/32) and updates
    the running statistics in place (Chainer's ``decay`` is cuDNN's
    ``1 - momentum``).  None where cuDNN declines."""
    cupy = cuda.cupy
    x4 = _contiguous(x)[0].reshape(_bn_shape(x))
    c = x.shape[1]
    sdt = _stats_dtype(x.dtype)
    gamma, beta = (a.astype(sdt, copy=False).reshape(1, c, 1, 1)
                   for a in (gamma, beta))
    running = running_mean is not None
    y = cupy.empty_like(x4)
    mean = cupy.empty((1, c, 1, 1), sdt)
    inv_std = cupy.empty((1, c, 1, 1), sdt)

    def make():
        # the running statistics are bound always (frontend 1.16 requires
        # them); without Chainer's, scratch ones are updated and dropped
        g = _new_graph(x.dtype)
        X = _tensor(g, 'x', x4)
        G, B = _tensor(g, 'gamma', gamma), _tensor(g, 'beta', beta)
        names = {'x': X, 'gamma': G, 'beta': B,
                 'eps': _scalar(g, 'eps'), 'momentum': _scalar(g, 'momentum'),
                 'rm': _tensor(g, 'rm', mean), 'rv': _tensor(g, 'rv', mean)}
        Y, M, IV, NM, NV = g.batchnorm(
            input=X, scale=G, bias=B, in_running_mean=names['rm'],
            in_running_var=names['rv'], epsilon=names['eps'],
            momentum=names['momentum'])
        names['y'] = _output(Y, y.shape, y.dtype)
        names['mean'] = _output(M, mean.shape, sdt)
        names['inv_std'] = _output(IV, mean.shape, sdt)
        names['next_rm'] = _output(NM, mean.shape, sdt)
        names['next_rv'] = _output(NV, mean.shape, sdt)
        _build(g, x.dtype)
        return _Plan(g, names)
    plan = _plan(graph_key('batchnorm', (x4, gamma)), make)
    if plan is None:
        return None
    buffers = {'x': x4, 'gamma': gamma, 'beta': beta, 'y': y, 'mean': mean,
               'inv_std': inv_std,
               'eps': numpy.array([eps], numpy.float32),
               'momentum': numpy.array([1 - decay], numpy.float32)}
    if running:
        rm = running_mean.astype(sdt).reshape(1, c, 1, 1)
        rv = running_var.astype(sdt).reshape(1, c, 1, 1)
    else:
        rm, rv = cupy.zeros_like(mean), cupy.ones_like(mean)
    buffers.update(rm=rm, rv=rv, next_rm=cupy.empty_like(rm),
                   next_rv=cupy.empty_like(rv))
    _execute('batchnorm', plan, buffers)
    if running:
        running_mean[...] = buffers['next_rm'].reshape(c)
        running_var[...] = buffers['next_rv'].reshape(c)
    return y.reshape(x.shape), mean.reshape(c), inv_std.reshape(c)


def fixed_batch_normalization(x, gamma, beta, mean, var, eps):
    """Inference-mode batch normalization with the given statistics."""
    cupy = cuda.cupy
    x4 = _contiguous(x)[0].reshape(_bn_shape(x))
    c = x.shape[1]
    sdt = _stats_dtype(x.dtype)
    gamma, beta, mean = (a.astype(sdt, copy=False).reshape(1, c, 1, 1)
                         for a in (gamma, beta, mean))
    inv_std = (1 / cupy.sqrt(var.astype(sdt) + eps)).reshape(1, c, 1, 1)
    y = cupy.empty_like(x4)

    def make():
        g = _new_graph(x.dtype)
        names = {k: _tensor(g, k, a) for k, a in (
            ('x', x4), ('mean', mean), ('inv_std', inv_std),
            ('gamma', gamma), ('beta', beta))}
        Y = g.batchnorm_inference(
            input=names['x'], mean=names['mean'],
            inv_variance=names['inv_std'], scale=names['gamma'],
            bias=names['beta'])
        names['y'] = _output(Y, y.shape, y.dtype)
        _build(g, x.dtype)
        return _Plan(g, names)
    plan = _plan(graph_key('batchnorm_inference', (x4, gamma)), make)
    if plan is None:
        return None
    _execute('batchnorm_inference', plan, {
        'x': x4, 'mean': mean, 'inv_std': inv_std, 'gamma': gamma,
        'beta': beta, 'y': y})
    return y.reshape(x.shape)


def batch_normalization_grad(x, gamma, mean, inv_std, gy):
    """``(gx, ggamma, gbeta)`` of training-mode batch normalization, from
    the statistics that :func:`batch_normalization` returned."""
    cupy = cuda.cupy
    x4 = _contiguous(x)[0].reshape(_bn_shape(x))
    gy4 = _contiguous(gy)[0].reshape(x4.shape)
    c = x.shape[1]
    sdt = _stats_dtype(x.dtype)
    gamma, mean, inv_std = (a.astype(sdt, copy=False).reshape(1, c, 1, 1)
                            for a in (gamma, mean, inv_std))
    gx = cupy.empty_like(x4)
    ggamma = cupy.empty((1, c, 1, 1), sdt)
    gbeta = cupy.empty((1, c, 1, 1), sdt)

    def make():
        g = _new_graph(x.dtype)
        names = {k: _tensor(g, k, a) for k, a in (
            ('gy', gy4), ('x', x4), ('gamma', gamma), ('mean', mean),
            ('inv_std', inv_std))}
        DX, DG, DB = g.batchnorm_backward(
            grad=names['gy'], input=names['x'], scale=names['gamma'],
            mean=names['mean'], inv_variance=names['inv_std'])
        names['gx'] = _output(DX, gx.shape, gx.dtype)
        names['ggamma'] = _output(DG, ggamma.shape, sdt)
        names['gbeta'] = _output(DB, gbeta.shape, sdt)
        _build(g, x.dtype)
        return _Plan(g, names)
    plan = _plan(graph_key('batchnorm_backward', (x4, gy4, gamma)), make)
    if plan is None:
        return None
    _execute('batchnorm_backward', plan, {
        'gy': gy4, 'x': x4, 'gamma': gamma, 'mean': mean,
        'inv_std': inv_std, 'gx': gx, 'ggamma': ggamma, 'gbeta': gbeta})
    return gx.reshape(x.shape), ggamma.reshape(c), gbeta.reshape(c)


def clear_cache():
    """Drops every cached graph (and what cuDNN declined)."""
    _cache.clear()
