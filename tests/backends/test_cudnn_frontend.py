"""chainer.backends._cudnn_frontend without a GPU: the clean absence of the
frontend, the dispatch decisions, Chainer's arguments in the frontend's
terms, the graph cache keys, and the graph-building calls (against a fake
``cudnn`` module and fake CuPy arrays)."""

import ctypes
import subprocess
import sys
import types

import numpy
import pytest

import chainer
from chainer.backends import _cudnn_frontend as fe
from chainer.backends import cuda
from chainer.utils import conv

FLOATS = (numpy.float16, numpy.float32, numpy.float64)


# --- without the frontend (this machine) ---------------------------------------------

@pytest.mark.skipif(cuda.available, reason='checks the CuPy-less answers')
@pytest.mark.parametrize('use_cudnn', ['always', 'auto', 'never'])
def test_absent_means_disabled_and_no_error(use_cudnn):
    assert cuda.cudnn_enabled is False
    assert fe.enabled() is False
    with chainer.using_config('use_cudnn', use_cudnn):
        for op in fe.OPS:
            assert fe.should_use(op, numpy.float32) is False
        assert chainer.should_use_cudnn('>=auto') is False


def test_import_chainer_never_imports_the_frontend():
    code = ('import sys, chainer\n'
            'from chainer.backends import cuda\n'
            'cuda.cudnn_enabled\n'
            'chainer.should_use_cudnn(">=auto")\n'
            'assert "cudnn" not in sys.modules or cuda.available\n'
            'assert "chainer.backends._cudnn_frontend" not in sys.modules '
            'or cuda.available\n')
    subprocess.run([sys.executable, '-c', code], check=True, timeout=60)


def test_missing_module_is_remembered_not_raised(monkeypatch):
    fe._reset()
    monkeypatch.setattr(fe.importlib.util, 'find_spec', lambda name: None)
    try:
        assert fe._frontend() is None
        assert 'nvidia-cudnn-frontend' in str(fe._import_error)
        assert fe.supports('conv_fprop') is False
    finally:
        fe._reset()


def test_cuda_has_no_other_attributes():
    with pytest.raises(AttributeError, match='no_such_name'):
        cuda.no_such_name


# --- a fake frontend and fake CuPy arrays ------------------------------------------------

class NotSupported(Exception):
    pass


class FakeTensor:

    def __init__(self, graph, name, **kw):
        self.graph, self.name, self.kw = graph, name, kw
        self.output = False

    def set_output(self, value):
        self.output = value
        return self

    def set_data_type(self, dtype):
        self.kw['data_type'] = dtype
        return self

    def set_dim(self, dim):
        self.kw['dim'] = dim
        return self

    def set_stride(self, stride):
        self.kw['stride'] = stride
        return self


class FakeGraph:
    """Records what chainer asks of a pygraph."""

    built = []  # every graph built, in order
    decline = False  # check_support raises the frontend's not-supported

    def __init__(self, **kw):
        self.kw = kw
        self.ops = []
        self.steps = []
        self.notes = []
        self.executed = []
        FakeGraph.built.append(self)

    def tensor(self, name, **kw):
        return FakeTensor(self, name, **kw)

    def _op(self, op, n_out, **kw):
        self.ops.append((op, kw))
        outs = [FakeTensor(self, '{}:{}'.format(op, i)) for i in range(n_out)]
        return outs[0] if n_out == 1 else outs

    def conv_fprop(self, **kw):
        return self._op('conv_fprop', 1, **kw)

    def conv_dgrad(self, **kw):
        return self._op('conv_dgrad', 1, **kw)

    def conv_wgrad(self, **kw):
        return self._op('conv_wgrad', 1, **kw)

    def batchnorm(self, **kw):
        return self._op('batchnorm', 5, **kw)

    def batchnorm_inference(self, **kw):
        return self._op('batchnorm_inference', 1, **kw)

    def batchnorm_backward(self, **kw):
        return self._op('batchnorm_backward', 3, **kw)

    def validate(self):
        self.steps.append('validate')

    def build_operation_graph(self):
        self.steps.append('build_operation_graph')

    def create_execution_plans(self, modes):
        self.steps.append(('create_execution_plans', tuple(modes)))

    def deselect_numeric_notes(self, notes):
        self.notes.extend(notes)

    def deselect_workspace_greater_than(self, size):
        self.steps.append(('workspace_limit', size))

    def check_support(self):
        self.steps.append('check_support')
        if FakeGraph.decline:
            raise NotSupported('declined')

    def build_plans(self, *policy):
        self.steps.append(('build_plans',) + policy)

    def get_workspace_size(self):
        return 0

    def execute(self, pack, workspace, handle=None):
        # addresses only, as the frontend takes them; the host scalars are
        # read now, while the caller keeps them alive
        assert all(type(v) is int for v in pack.values()), pack
        assert type(workspace) is int, workspace
        self.values = {t.name: ctypes.c_float.from_address(v).value
                       for t, v in pack.items()
                       if t.kw.get('is_pass_by_value')}
        self.executed.append((pack, workspace, handle))


class OldFakeGraph(FakeGraph):
    """Frontend 1.16: the gradient nodes refuse ``out_dims``."""

    def conv_dgrad(self, **kw):
        if 'out_dims' in kw:
            raise TypeError('conv_dgrad(): incompatible function arguments')
        return self._op('conv_dgrad', 1, **kw)

    def conv_wgrad(self, **kw):
        if 'out_dims' in kw:
            raise TypeError('conv_wgrad(): incompatible function arguments')
        return self._op('conv_wgrad', 1, **kw)


def fake_frontend():
    enum = types.SimpleNamespace
    return types.SimpleNamespace(
        pygraph=FakeGraph,
        data_type=enum(HALF='HALF', FLOAT='FLOAT', DOUBLE='DOUBLE'),
        heur_mode=enum(A='A', FALLBACK='FALLBACK'),
        numerical_note=enum(NONDETERMINISTIC='NONDETERMINISTIC',
                            TENSOR_CORE='TENSOR_CORE'),
        build_plan_policy=enum(ALL='ALL'),
        cudnnGraphNotSupportedError=NotSupported,
        create_handle=lambda: 'handle',
        backend_version=lambda: 91900,
        set_stream=lambda handle, stream: None)


class GArray(numpy.ndarray):
    """A NumPy array that passes for a CuPy one here."""

    device = types.SimpleNamespace(id=0)

    @property
    def data(self):
        return types.SimpleNamespace(ptr=self.__array_interface__['data'][0])


def garray(a):
    return numpy.ascontiguousarray(a).view(GArray)


def fake_cupy():
    def empty(shape, dtype):
        return numpy.empty(shape, dtype).view(GArray)
    stream = types.SimpleNamespace(ptr=0)
    return types.SimpleNamespace(
        empty=empty, empty_like=lambda a: empty(a.shape, a.dtype),
        zeros_like=lambda a: garray(numpy.zeros_like(a)),
        ones_like=lambda a: garray(numpy.ones_like(a)),
        ascontiguousarray=garray, sqrt=numpy.sqrt, uint8=numpy.uint8,
        cuda=types.SimpleNamespace(get_device_id=lambda: 0,
                                   get_current_stream=lambda: stream))


@pytest.fixture
def frontend(monkeypatch):
    """The module with the fake frontend and CuPy in place."""
    fe._reset()
    monkeypatch.setattr(cuda, 'available', True)
    monkeypatch.setattr(cuda, 'cupy', fake_cupy(), raising=False)
    monkeypatch.setattr(fe, '_frontend_module', fake_frontend())
    monkeypatch.setattr(fe, '_imported', True)
    FakeGraph.built = []
    FakeGraph.decline = False
    yield fe
    fe._reset()


# --- dispatch --------------------------------------------------------------------------------

LEVELS = {'always': {'>=auto', '==always'}, 'auto': {'>=auto'}, 'never': set()}


@pytest.mark.parametrize('dtype', FLOATS + (numpy.int32,))
@pytest.mark.parametrize('use_cudnn', ['always', 'auto', 'never'])
def test_dispatch_decisions(frontend, use_cudnn, dtype):
    assert cuda.cudnn_enabled is True
    with chainer.using_config('use_cudnn', use_cudnn):
        for op, level in fe.OPS.items():
            want = (level in LEVELS[use_cudnn] and dtype != numpy.int32
                    and hasattr(FakeGraph, op))
            assert fe.should_use(op, dtype) is want, (op, level)


def test_ops_the_frontend_lacks_stay_on_cupy(frontend):
    # The fake (as the frontend's Python graph 1.32) has no resample,
    # softmax or rng builders.
    with chainer.using_config('use_cudnn', 'always'):
        for op in ('resample', 'softmax', 'rng'):
            assert fe.supports(op) is False
            assert fe.should_use(op, numpy.float32) is False
        assert fe.should_use('conv_fprop', numpy.float32) is True


def test_chainer_cudnn_0_turns_it_off(frontend, monkeypatch):
    monkeypatch.setattr(fe, '_ENV_ENABLED', False)
    assert fe.enabled() is False
    assert chainer.should_use_cudnn('>=auto') is False


def test_invalid_use_cudnn_value_raises(frontend):
    with chainer.using_config('use_cudnn', 'sometimes'):
        with pytest.raises(ValueError, match='use_cudnn'):
            fe.should_use('conv_fprop', numpy.float32)


# --- Chainer's arguments in the frontend's terms -------------------------------------------

def _frontend_outsize(size, k, s, pre, post, d):
    # the output size the frontend infers for conv_fprop
    return (size + pre + post - ((k - 1) * d + 1)) // s + 1


@pytest.mark.parametrize('cover_all', [False, True])
def test_conv_padding_gives_chainers_output_size(cover_all):
    for size in range(1, 12):
        for k in (1, 2, 3, 5):
            for s in (1, 2, 3):
                for p in (0, 1, 2):
                    for d in (1, 2):
                        if (k - 1) * d + 1 > size + 2 * p:
                            continue
                        out = conv.get_conv_outsize(size, k, s, p, cover_all,
                                                    d)
                        pre, post = fe.conv_padding(size, out, k, s, p, d)
                        assert pre == p and post >= p
                        assert post == p or cover_all
                        got = _frontend_outsize(size, k, s, pre, post, d)
                        assert got == out, (size, k, s, p, d)


def test_deconv_padding_reaches_the_outsize():
    # the transposed convolution maps y (outsize) back onto x: the conv of
    # y with these paddings has x's size
    for in_size in range(1, 8):
        for k in (1, 3, 4):
            for s in (1, 2):
                for p in (0, 1):
                    for cover_all in (False, True):
                        out = conv.get_deconv_outsize(in_size, k, s, p,
                                                      cover_all)
                        if out <= 0:
                            continue
                        pre, post = fe.conv_padding(out, in_size, k, s, p, 1)
                        got = _frontend_outsize(out, k, s, pre, post, 1)
                        assert got == in_size, (in_size, k, s, p, cover_all)


def test_conv_attrs_stride_dilation_groups():
    x, w = (2, 6, 9, 7), (4, 2, 3, 2)  # groups 3: 6 channels, 2 per filter
    y = (2, 4) + tuple(conv.get_conv_outsize(n, k, s, p, False, d)
                       for n, k, s, p, d in zip((9, 7), (3, 2), (2, 1),
                                                (1, 0), (2, 3)))
    attrs = fe.conv_attrs(x, w, y, (2, 1), (1, 0), (2, 3))
    assert attrs == dict(pre_padding=[1, 0], post_padding=[1, 0],
                         stride=[2, 1], dilation=[2, 3])
    assert x[1] // w[1] == 3


# --- cache keys ------------------------------------------------------------------------------

def _key(arrays, attrs=(), **config):
    with chainer.using_config('use_cudnn', 'auto'):
        with chainer.using_config('cudnn_deterministic',
                                  config.get('deterministic', False)), \
                chainer.using_config('autotune', config.get('autotune', False)), \
                chainer.using_config('use_cudnn_tensor_core',
                                     config.get('tensor_core', 'auto')):
            return fe.graph_key('conv_fprop', arrays, attrs)


def test_graph_keys():
    x = garray(numpy.zeros((2, 3, 5, 5), numpy.float32))
    w = garray(numpy.zeros((4, 3, 3, 3), numpy.float32))
    attrs = fe.conv_attrs(x.shape, w.shape, (2, 4, 3, 3), (1, 1), (0, 0),
                          (1, 1))
    base = _key((x, w), attrs)
    assert base == _key((garray(x.copy()), garray(w.copy())), attrs)
    others = [
        _key((x.astype(numpy.float16).view(GArray), w), attrs),
        _key((garray(numpy.zeros((3, 3, 5, 5), 'f')), w), attrs),
        _key((x.transpose(0, 1, 3, 2).view(GArray), w), attrs),  # strides
        _key((x, w), dict(attrs, stride=[2, 2])),
        _key((x, w), dict(attrs, post_padding=[1, 1])),
        _key((x, w), attrs, deterministic=True),
        _key((x, w), attrs, autotune=True),
        _key((x, w), attrs, tensor_core='always'),
    ]
    assert len(set(others + [base])) == len(others) + 1
    saved = cuda._max_workspace_size  # get_max_... says 0 without cuDNN
    try:
        cuda.set_max_workspace_size(saved * 2)
        assert _key((x, w), attrs) != base
    finally:
        cuda.set_max_workspace_size(saved)


def test_one_dimensional_conv_is_two_dimensional_to_cudnn(frontend):
    x = garray(numpy.ones((2, 3, 9), numpy.float32))
    w = garray(numpy.ones((4, 3, 3), numpy.float32))
    y = fe.convolution(x, w, None, (2,), (1,), (1,), (5,))
    assert y.shape == (2, 4, 5)
    (op, kw), = FakeGraph.built[0].ops
    assert kw['image'].kw['dim'] == [2, 3, 9, 1]
    assert kw['weight'].kw['dim'] == [4, 3, 3, 1]
    assert kw['stride'] == [2, 1] and kw['dilation'] == [1, 1]
    assert kw['pre_padding'] == [1, 0] and kw['post_padding'] == [1, 0]
    gW = fe.convolution_filter_grad(x, garray(numpy.ones((2, 4, 5), 'f')),
                                    (3,), (2,), (1,), (1,), 1)
    assert gW.shape == (4, 3, 3)
    assert FakeGraph.built[1].ops[0][1]['out_dims'] == [4, 3, 3, 1]


def test_layout_pads_to_four_dimensions():
    a = garray(numpy.zeros((2, 3), numpy.float64))
    assert fe._layout(a) == ((2, 3, 1, 1), (3, 1, 1, 1))


# --- graph building against the fake -----------------------------------------------------

def _conv_case(dtype=numpy.float32):
    x = garray(numpy.ones((2, 6, 8, 8), dtype))
    w = garray(numpy.ones((4, 3, 3, 3), dtype))  # groups 2
    b = garray(numpy.arange(4, dtype=dtype))
    # cover_all: 5 outputs where 4 cover the input without it
    outs = tuple(conv.get_conv_outsize(8, 3, 2, 1, True) for _ in range(2))
    assert outs == (5, 5)
    return x, w, b, outs


def test_convolution_builds_once_and_adds_the_bias(frontend):
    x, w, b, outs = _conv_case()
    with chainer.using_config('use_cudnn', 'auto'):
        y = fe.convolution(x, w, b, (2, 2), (1, 1), (1, 1), outs)
        fe.convolution(x, w, b, (2, 2), (1, 1), (1, 1), outs)
    assert len(FakeGraph.built) == 1  # cached
    g = FakeGraph.built[0]
    assert g.kw['io_data_type'] == 'FLOAT'
    assert g.kw['compute_data_type'] == 'FLOAT'
    (op, kw), = g.ops
    assert op == 'conv_fprop'
    assert kw['pre_padding'] == [1, 1] and kw['stride'] == [2, 2]
    assert kw['post_padding'] == [2, 2]  # cover_all
    assert kw['image'].kw['dim'] == [2, 6, 8, 8]
    assert kw['weight'].kw['dim'] == [4, 3, 3, 3]
    assert g.steps[:2] == ['validate', 'build_operation_graph']
    assert ('create_execution_plans', ('A', 'FALLBACK')) in g.steps
    assert ('workspace_limit', cuda._max_workspace_size) in g.steps
    assert ('build_plans',) in g.steps
    # float32 under use_cudnn_tensor_core 'auto': no tensor-core (TF32)
    # plans, as Chainer used tensor cores for float16 only
    assert g.notes == ['TENSOR_CORE']
    assert len(g.executed) == 2 and fe.calls['conv_fprop'] == 2
    pack, workspace, handle = g.executed[0]
    assert workspace == 0 and handle == 'handle'
    assert pack[next(t for t in pack if t.name == 'x')] == x.data.ptr
    # (the fake writes nothing into y: its shape and dtype only)
    assert y.shape == (2, 4) + outs and y.dtype == numpy.float32


def test_tensor_core_and_deterministic_notes(frontend):
    x, w, b, outs = _conv_case()
    with chainer.using_config('use_cudnn', 'auto'), \
            chainer.using_config('cudnn_deterministic', True), \
            chainer.using_config('use_cudnn_tensor_core', 'never'):
        fe.convolution(x, w, None, (2, 2), (1, 1), (1, 1), outs)
    assert FakeGraph.built[0].notes == ['NONDETERMINISTIC', 'TENSOR_CORE']
    x16, w16, _, _ = _conv_case(numpy.float16)
    with chainer.using_config('use_cudnn', 'auto'):
        fe.convolution(x16, w16, None, (2, 2), (1, 1), (1, 1), outs)
    g = FakeGraph.built[1]
    assert g.notes == [] and g.kw['io_data_type'] == 'HALF'
    assert g.kw['compute_data_type'] == 'FLOAT'
    x64, w64, _, _ = _conv_case(numpy.float64)
    with chainer.using_config('use_cudnn', 'auto'):
        fe.convolution(x64, w64, None, (2, 2), (1, 1), (1, 1), outs)
    assert FakeGraph.built[2].kw['compute_data_type'] == 'DOUBLE'
    with chainer.using_config('use_cudnn_tensor_core', 'always'):
        fe.convolution(x, w, None, (2, 2), (1, 1), (1, 1), outs)
    assert FakeGraph.built[3].notes == []


def test_autotune_builds_every_plan(frontend, monkeypatch):
    monkeypatch.setattr(fe, '_autotune', lambda plan, pack, handle:
                        setattr(plan, 'tuned', True))
    x, w, b, outs = _conv_case()
    with chainer.using_config('autotune', True):
        fe.convolution(x, w, None, (2, 2), (1, 1), (1, 1), outs)
    assert ('build_plans', 'ALL') in FakeGraph.built[0].steps


def test_declined_graph_falls_back_and_is_remembered(frontend):
    FakeGraph.decline = True
    x, w, b, outs = _conv_case()
    assert fe.convolution(x, w, b, (2, 2), (1, 1), (1, 1), outs) is None
    assert fe.convolution(x, w, b, (2, 2), (1, 1), (1, 1), outs) is None
    assert len(FakeGraph.built) == 1 and fe.calls['conv_fprop'] == 0


def test_deconvolution_and_filter_grad_graphs(frontend):
    x = garray(numpy.ones((2, 4, 3, 3), numpy.float32))
    w = garray(numpy.ones((4, 3, 4, 4), numpy.float32))  # in 4, out 3*2
    outsize = (6, 6)  # stride 2, pad 1, k 4: (3 - 1) * 2 + 4 - 2
    y = fe.deconvolution(x, w, None, (2, 2), (1, 1), (1, 1), outsize, 2)
    assert y.shape == (2, 6, 6, 6)
    (op, kw), = FakeGraph.built[0].ops
    assert op == 'conv_dgrad' and kw['out_dims'] == [2, 6, 6, 6]
    assert kw['pre_padding'] == [1, 1] and kw['post_padding'] == [1, 1]

    xc = garray(numpy.ones((2, 6, 7, 7), numpy.float32))
    gy = garray(numpy.ones((2, 4, 4, 4), numpy.float32))
    gW = fe.convolution_filter_grad(xc, gy, (3, 3), (2, 2), (1, 1), (1, 1),
                                    2)
    assert gW.shape == (4, 3, 3, 3)
    (op, kw), = FakeGraph.built[1].ops
    assert op == 'conv_wgrad' and kw['out_dims'] == [4, 3, 3, 3]
    assert kw['image'].kw['dim'] == [2, 6, 7, 7]
    assert kw['loss'].kw['dim'] == [2, 4, 4, 4]


@pytest.mark.parametrize('shape', [(5, 3), (2, 3, 4, 4), (2, 3, 2, 2, 2)])
def test_batch_normalization_graphs(frontend, shape):
    x = garray(numpy.ones(shape, numpy.float16))
    gamma = garray(numpy.ones(3, numpy.float16))
    beta = garray(numpy.zeros(3, numpy.float16))
    rm = garray(numpy.zeros(3, numpy.float32))
    rv = garray(numpy.ones(3, numpy.float32))
    y, mean, inv_std = fe.batch_normalization(x, gamma, beta, 2e-5, rm, rv,
                                              decay=0.9)
    assert y.shape == shape and y.dtype == numpy.float16
    assert mean.dtype == inv_std.dtype == numpy.float32
    g = FakeGraph.built[0]
    (op, kw), = g.ops
    assert op == 'batchnorm'
    assert kw['input'].kw['dim'][:2] == [shape[0], 3]
    assert len(kw['input'].kw['dim']) == 4
    assert kw['scale'].kw['data_type'] == 'FLOAT'  # float32 parameters
    assert 'in_running_mean' in kw and 'in_running_var' in kw
    assert g.values['momentum'] == numpy.float32(1 - 0.9)  # cuDNN's
    assert g.values['eps'] == numpy.float32(2e-5)

    fe.fixed_batch_normalization(x, gamma, beta, rm, rv, 2e-5)
    assert FakeGraph.built[1].ops[0][0] == 'batchnorm_inference'
    gx, gg, gb = fe.batch_normalization_grad(x, gamma, mean, inv_std,
                                             garray(numpy.ones_like(x)))
    assert FakeGraph.built[2].ops[0][0] == 'batchnorm_backward'
    assert gx.shape == shape and gg.shape == gb.shape == (3,)


def test_batch_normalization_without_running_statistics(frontend):
    x = garray(numpy.ones((4, 3), numpy.float32))
    p = garray(numpy.ones(3, numpy.float32))
    y, mean, inv_std = fe.batch_normalization(x, p, p, 1e-5)
    assert y.shape == (4, 3) and mean.shape == inv_std.shape == (3,)
    # frontend 1.16 requires running statistics: scratch ones are bound
    (op, kw), = FakeGraph.built[0].ops
    assert 'in_running_mean' in kw and 'in_running_var' in kw
    pack = FakeGraph.built[0].executed[0][0]
    assert {'rm', 'rv'} <= {t.name for t in pack}
    assert len(pack) == 12  # the five outputs, the updated statistics too


def test_gradient_graphs_without_out_dims(frontend):
    # a frontend that refuses out_dims (1.16) gets the dims on the output
    fe._frontend_module.pygraph = OldFakeGraph
    x = garray(numpy.ones((2, 4, 3, 3), numpy.float32))
    w = garray(numpy.ones((4, 3, 4, 4), numpy.float32))
    y = fe.deconvolution(x, w, None, (2, 2), (1, 1), (1, 1), (6, 6), 1)
    assert y.shape == (2, 3, 6, 6)
    (op, kw), = FakeGraph.built[0].ops
    assert op == 'conv_dgrad' and 'out_dims' not in kw
    assert FakeGraph.built[0].executed


def test_legacy_bindings_give_the_version(frontend):
    # cupy.cuda.cudnn's stand-in (CuPy 14 has none): Chainer code asks
    # cuda.cuda.cudnn.getVersion()
    legacy = fe._LegacyBindings()
    assert legacy.__name__ == 'cupy.cuda.cudnn'
    assert legacy.getVersion() == 91900
    with pytest.raises(AttributeError, match='convolutionForward.*CuPy 14'):
        legacy.convolutionForward


def test_legacy_bindings_without_the_frontend(monkeypatch):
    fe._reset()
    monkeypatch.setattr(fe, '_imported', True)
    monkeypatch.setattr(fe, '_import_error', ImportError('No module named cudnn'))
    with pytest.raises(RuntimeError, match='cuDNN is not available.*cudnn'):
        fe._LegacyBindings().getVersion()
    fe._reset()
