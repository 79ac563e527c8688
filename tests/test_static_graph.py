import copy
import pickle

import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import optimizers, serializers
from chainer.graph_optimizations import static_code
from chainer.graph_optimizations._schedule import StaticScheduleFunction


def _dbr():
    return chainer.using_config('use_static_graph', False)


def _replayed(y):
    return isinstance(y.creator_node, StaticScheduleFunction)


class Model(chainer.Chain):

    @chainer.static_graph
    def forward(self, x):
        return F.sum(x * 2)


class Model2(chainer.Chain):

    @chainer.static_graph(minimize_cache_size=True, verbosity_level=0)
    def forward(self, x):
        return F.sum(x * 3)


class MLP(chainer.Chain):

    def __init__(self, n_in=5, n_hidden=7, n_out=3):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(n_in, n_hidden)
            self.l2 = L.Linear(n_hidden, n_hidden)
            self.l3 = L.Linear(n_hidden, n_out)

    @chainer.static_graph
    def forward(self, x):
        h = F.relu(self.l1(x))
        h = F.tanh(self.l2(h))
        return self.l3(h)


class CNN(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.conv = L.Convolution2D(2, 4, 3, pad=1)
            self.bn = L.BatchNormalization(4)
            self.fc = L.Linear(4 * 6 * 6, 3)

    @chainer.static_graph
    def forward(self, x):
        h = F.relu(self.bn(self.conv(x)))
        h = F.max_pooling_2d(h, 2)
        h = F.dropout(h, 0.3)
        return self.fc(h)


class _OneLinear(chainer.Chain):
    """A chain of one Linear link, ``l``; subclasses write the forward."""
    n_in = n_out = 3

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l = L.Linear(self.n_in, self.n_out)


class Shared(_OneLinear):
    n_in = n_out = 4

    @chainer.static_graph
    def forward(self, x):
        h = x
        for _ in range(3):
            h = F.tanh(self.l(h))
        return h + self.l(x)


class TwoOutputs(chainer.Chain):

    def __init__(self, as_list=False):
        super().__init__()
        self.as_list = as_list
        with self.init_scope():
            self.l = L.Linear(3, 2)
            self.b = chainer.Parameter(numpy.arange(2, dtype=numpy.float32))

    @chainer.static_graph
    def forward(self, x, y):
        h = self.l(x)
        out = (F.sigmoid(h) * y, h + self.b)  # broadcast of b, then y
        return list(out) if self.as_list else out


def _twins(cls, *args):
    a = cls(*args)
    b = a.copy(mode='copy')
    return a, b


def _call(model, static, *xs):
    if static:
        return model(*xs)
    with _dbr():
        return model(*xs)


def _both(s, d, *xs):
    """Clears the twins' gradients and calls them on ``xs``: ``s``
    static, ``d`` define-by-run."""
    s.cleargrads()
    d.cleargrads()
    return _call(s, True, *xs), _call(d, False, *xs)


def _step_alike(s, d, i, arrays, make_gy=None):
    """Step ``i`` of the twins on ``arrays`` (each its own Variables):
    both cleared and called (``s`` static, replayed from the third step
    on), their outputs, and after backward (from ``make_gy(y)`` if given)
    the gradients of the inputs and parameters, the same bits.  Returns
    the static output and input Variables."""
    vs = [chainer.Variable(a) for a in arrays]
    vd = [chainer.Variable(a.copy()) for a in arrays]
    s.cleargrads()
    d.cleargrads()
    ys, yd = _call(s, True, *vs), _call(d, False, *vd)
    assert _replayed(ys) == (i > 1)
    _same(ys.array, yd.array)
    if make_gy is not None:
        gy = make_gy(ys)
        ys.grad, yd.grad = gy, gy.copy()
    ys.backward()
    yd.backward()
    for a, b in zip(vs, vd):
        _same(a.grad, b.grad)
    _same_grads(s, d)
    return ys, vs


def _grads(model):
    return {k: p.grad.copy() for k, p in model.namedparams()
            if p.grad is not None}


def _same(a, b):
    numpy.testing.assert_array_equal(a, b)


def _same_sums(a, b):
    """Gradients of a weight applied several times: define-by-run sums its
    products in one GEMM, in the order its engine visits them
    (chainer._backprop.LeafSum), which a replay need not share; equal to
    float32 rounding."""
    numpy.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-12)


def _close(a, b):
    numpy.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def _same_grads(s, d, check=_same):
    """Checks that two models hold gradients for the same parameters, and
    equal ones; returns the first model's."""
    gs, gd = _grads(s), _grads(d)
    assert gs.keys() == gd.keys()
    for k in gs:
        check(gs[k], gd[k])
    return gs


def test_static_graph_runs_define_by_run():
    x = chainer.Variable(numpy.ones(3, numpy.float32))
    y = Model()(x)
    y.backward()
    assert y.array.item() == 6.
    numpy.testing.assert_array_equal(x.grad, [2., 2., 2.])
    assert Model2()(x).array.item() == 9.
    assert issubclass(chainer.warnings.PerformanceWarning, RuntimeWarning)


def test_mlp_outputs_and_gradients_bit_identical():
    s, d = _twins(MLP)
    rng = numpy.random.RandomState(0)
    for i in range(7):  # recorded, checked, then backward recorded too
        x = rng.randn(6, 5).astype(numpy.float32)
        xs, xd = chainer.Variable(x), chainer.Variable(x.copy())
        s.cleargrads()
        d.cleargrads()
        ys, yd = _call(s, True, xs), _call(d, False, xd)
        assert _replayed(ys) == (i > 1)  # recorded twice, then replayed
        assert not _replayed(yd)
        _same(ys.array, yd.array)
        gy = rng.randn(*ys.shape).astype(numpy.float32)
        ys.grad, yd.grad = gy, gy.copy()
        ys.backward()
        yd.backward()
        _same(xs.grad, xd.grad)
        assert len(_same_grads(s, d)) == 6


def test_cnn_batchnorm_dropout():
    s, d = _twins(CNN)
    rng = numpy.random.RandomState(1)
    for i in range(6):
        x = rng.randn(2, 2, 12, 12).astype(numpy.float32)
        s.cleargrads()
        d.cleargrads()
        numpy.random.seed(i)
        ys = s(x)
        numpy.random.seed(i)
        with _dbr():
            yd = d(x)
        assert _replayed(ys) == (i > 1)
        _same(ys.array, yd.array)
        F.sum(ys * ys).backward()
        F.sum(yd * yd).backward()
        _same_grads(s, d)
        # running statistics are updated by the replayed op
        _same(s.bn.avg_mean, d.bn.avg_mean)
        _same(s.bn.avg_var, d.bn.avg_var)
    # dropout draws anew at each replay
    numpy.random.seed(5)
    y1 = s(x).array
    y2 = s(x).array
    assert not numpy.array_equal(y1, y2)
    with _dbr():
        d(x)
        d(x)
    # test mode is another schedule
    with chainer.using_config('train', False):
        for _ in range(3):
            ys = s(x)
        with _dbr():
            yd = d(x)
    assert _replayed(ys)
    _same(ys.array, yd.array)


def test_shared_parameters():
    s, d = _twins(Shared)
    x = numpy.random.RandomState(2).randn(3, 4).astype(numpy.float32)
    for i in range(6):
        ys, yd = _both(s, d, x)
        F.sum(ys).backward()
        F.sum(yd).backward()
        _same(ys.array, yd.array)
        _same_sums(s.l.W.grad, d.l.W.grad)
        _same_sums(s.l.b.grad, d.l.b.grad)
    assert _replayed(ys)


@pytest.mark.parametrize('as_list', [False, True])
def test_multiple_outputs_and_broadcasting(as_list):
    s, d = _twins(TwoOutputs, as_list)
    rng = numpy.random.RandomState(3)
    for i in range(7):
        x = rng.randn(4, 3).astype(numpy.float32)
        y = rng.randn(1, 2).astype(numpy.float32)
        vs = [chainer.Variable(x), chainer.Variable(y)]
        vd = [chainer.Variable(x.copy()), chainer.Variable(y.copy())]
        s.cleargrads()
        d.cleargrads()
        os_, od = _call(s, True, *vs), _call(d, False, *vd)
        assert type(os_) is (list if as_list else tuple)
        for a, b in zip(os_, od):
            _same(a.array, b.array)
        # only the first output gets a gradient at i == 1
        if i == 1:
            F.sum(os_[0]).backward()
            F.sum(od[0]).backward()
        else:
            chainer.backward([os_[0], os_[1]],
                             [numpy.ones((4, 2), 'f'),
                              numpy.full((4, 2), 2, 'f')])
            chainer.backward([od[0], od[1]],
                             [numpy.ones((4, 2), 'f'),
                              numpy.full((4, 2), 2, 'f')])
        for a, b in zip(vs, vd):
            _same(a.grad, b.grad)
        _same_grads(s, d)
    assert _replayed(os_[0])


def test_two_calls_before_backward():
    # Each replay has its own ops: a second call does not disturb the
    # first one's backward (siamese use).
    s, d = _twins(MLP)
    rng = numpy.random.RandomState(4)
    x1, x2 = (rng.randn(2, 5).astype(numpy.float32) for _ in range(2))
    _call(s, True, x1)
    _call(s, True, x1)
    outs = []
    for m, static in ((s, True), (d, False)):
        m.cleargrads()
        a, b = _call(m, static, x1), _call(m, static, x2)
        F.sum(a * b).backward()
        outs.append((a, b))
    assert _replayed(outs[0][0]) and _replayed(outs[0][1])
    _same_grads(s, d, _same_sums)


def test_optimizer_steps_match_define_by_run():
    for make in (optimizers.SGD, optimizers.Adam):
        s, d = _twins(MLP)
        opt_s, opt_d = make(), make()
        opt_s.setup(s)
        opt_d.setup(d)
        rng = numpy.random.RandomState(5)
        for i in range(8):
            x = rng.randn(8, 5).astype(numpy.float32)
            t = rng.randint(0, 3, 8).astype(numpy.int32)
            opt_s.update(lambda: F.softmax_cross_entropy(s(x), t))
            with _dbr():
                opt_d.update(lambda: F.softmax_cross_entropy(d(x), t))
        for (k, p), (_, q) in zip(s.namedparams(), d.namedparams()):
            _same(p.array, q.array)


def _n_schedules(model):
    return len(model.schedule_manager.schedules)


def test_key_changes_record_anew():
    m = MLP()
    x = numpy.ones((2, 5), numpy.float32)
    x3 = numpy.ones((3, 5), numpy.float32)
    assert not _replayed(m(x))
    assert _n_schedules(m) == 1
    assert not _replayed(m(x))
    assert _replayed(m(x))
    assert not _replayed(m(x3))  # shape
    assert not _replayed(m(x3)) and _n_schedules(m) == 2
    assert _replayed(m(x3))
    assert _replayed(m(x))  # the first schedule is still there
    with chainer.using_config('train', False):
        assert not _replayed(m(x))
        assert not _replayed(m(x))
        assert _replayed(m(x))
    assert _n_schedules(m) == 3
    for p in m.params():  # dtype of the parameters
        p.array = p.array.astype(numpy.float64)
    assert not _replayed(m(x.astype(numpy.float64)))
    assert _n_schedules(m) == 4
    for p in m.params():
        p.array = p.array.astype(numpy.float32)
    xv = chainer.Variable(x, requires_grad=False)
    with chainer.using_config('enable_backprop', False):
        for _ in range(3):
            y = m(xv)
        assert y.creator is None
    with _dbr():
        _same(y.array, m(x).array)
    # a replaced link is a key change too
    del m.l3
    with m.init_scope():
        m.l3 = L.Linear(7, 3)
    assert not _replayed(m(x))
    assert not _replayed(m(x))
    y = m(x)
    assert _replayed(y)
    with _dbr():
        _same(y.array, m(x).array)


class WithArgs(_OneLinear):

    @chainer.static_graph
    def forward(self, x, scale=1.0, act=None, **kwargs):
        h = self.l(x) * scale
        if act == 'relu':
            h = F.relu(h)
        return h


def test_argument_values_are_keys():
    m = WithArgs()
    x = numpy.random.RandomState(6).randn(2, 3).astype(numpy.float32)
    m(x, 2.0)
    m(x, 2.0)
    assert _replayed(m(x, 2.0))
    y = m(x, 3.0)
    assert not _replayed(y)
    with _dbr():
        _same(m(x, 3.0).array, y.array)
    m(x, 2, act='relu')  # int 2 is not float 2.0
    m(x, 2, act='relu')
    y = m(x, 2, act='relu')
    assert _replayed(y)
    with _dbr():
        _same(m(x, 2, act='relu').array, y.array)
    assert _n_schedules(m) == 3


def test_unkeyable_arguments_run_define_by_run():
    m = WithArgs()
    x = numpy.ones((2, 3), numpy.float32)
    for bad in ([1.0], {'a': 1}, object(), (numpy.ones(1),)):
        y1 = m(x, act=bad)
        y2 = m(x, act=bad)
        assert not _replayed(y1) and not _replayed(y2)
    assert _n_schedules(m) == 0
    assert m.static_schedule is None


def test_use_static_graph_false_attaches_nothing():
    m = MLP()
    with _dbr():
        m(numpy.ones((2, 5), numpy.float32))
    assert not hasattr(m, 'schedule_manager')
    assert not hasattr(m, 'static_schedule')
    m(numpy.ones((2, 5), numpy.float32))
    assert hasattr(m, 'schedule_manager') and hasattr(m, 'static_schedule')


class _Counter(chainer.FunctionHook):
    name = 'counter'


def test_no_graph_built_during_replay(monkeypatch):
    m = MLP()
    x = numpy.ones((2, 5), numpy.float32)
    m(x)
    m(x)
    counts = {'apply': 0, 'init': 0}
    apply, init = chainer.FunctionNode.apply, chainer.Variable.__init__

    def counting_apply(self, inputs):
        counts['apply'] += 1
        return apply(self, inputs)

    def counting_init(self, *a, **k):
        counts['init'] += 1
        return init(self, *a, **k)
    monkeypatch.setattr(chainer.FunctionNode, 'apply', counting_apply)
    monkeypatch.setattr(chainer.Variable, '__init__', counting_init)
    y = m(x)
    assert _replayed(y)
    assert counts == {'apply': 1, 'init': 0}  # the one outer node
    with chainer.using_config('enable_backprop', False):
        m(x)
        m(x)
        counts['apply'] = 0
        m(x)
        assert counts == {'apply': 0, 'init': 0}


def test_function_hooks_and_debug_run_define_by_run():
    m = MLP()
    x = numpy.ones((2, 5), numpy.float32)
    m(x)
    m(x)
    with chainer.function_hooks.TimerHook() as hook:
        y = m(x)
    assert not _replayed(y)
    assert hook.call_history
    with chainer.using_config('debug', True):
        assert not _replayed(m(x))
    assert _replayed(m(x))


def test_double_backprop_and_hooks_in_backward():
    s, d = _twins(MLP)
    rng = numpy.random.RandomState(13)
    for i in range(4):
        x = rng.randn(2, 5).astype(numpy.float32)
        xs, xd = chainer.Variable(x), chainer.Variable(x.copy())
        ys, yd = _call(s, True, xs), _call(d, False, xd)
        assert _replayed(ys) == (i > 1)
        gs, = chainer.grad([F.sum(ys * ys)], [xs], enable_double_backprop=True)
        gd, = chainer.grad([F.sum(yd * yd)], [xd], enable_double_backprop=True)
        _same(gs.array, gd.array)
        s.cleargrads()
        d.cleargrads()
        F.sum(gs * gs).backward()
        F.sum(gd * gd).backward()
        _close(xs.grad, xd.grad)
        _same_grads(s, d, _close)
    # a function hook active in backward sees the ops of the replay
    for _ in range(3):
        ys = _call(s, True, x)
    assert _replayed(ys)
    yd = _call(d, False, x)
    s.cleargrads()
    d.cleargrads()
    with chainer.function_hooks.TimerHook() as hs:
        F.sum(ys).backward()
    with chainer.function_hooks.TimerHook() as hd:
        F.sum(yd).backward()
    names = [n for n, _ in hs.call_history]
    names.remove('StaticScheduleFunction')
    assert names == [n for n, _ in hd.call_history]
    _same_grads(s, d, _close)


class External(chainer.Chain):

    def __init__(self, other):
        super().__init__()
        self.other = other  # not a child: its parameter is not ours

    @chainer.static_graph
    def forward(self, x):
        return x * self.other


class Odd(chainer.Chain):

    def __init__(self, what):
        super().__init__()
        self.what = what

    @chainer.static_graph
    def forward(self, x):
        y = x * 2
        if self.what == 'dict':
            return {'y': y}
        if self.what == 'arg':
            return x
        return chainer.Variable(y.array + 1)


def test_unsafe_forwards_run_define_by_run():
    p = chainer.Parameter(numpy.full(3, 2., numpy.float32))
    m = External(p)
    x = numpy.ones(3, numpy.float32)
    m(x)
    y = m(x)
    assert not _replayed(y)
    assert 'requires grad' in m.static_schedule.reason
    p.array[...] = 5
    _same(m(x).array, [5, 5, 5])
    for what in ('dict', 'arg', 'new'):
        m = Odd(what)
        xv = chainer.Variable(x)
        m(xv)
        out = m(xv)
        if what == 'dict':
            assert isinstance(out, dict)
        elif what == 'arg':
            assert out is xv
        else:
            _same(out.array, [3, 3, 3])
        assert m.static_schedule.reason


class Detach(_OneLinear):

    @chainer.static_graph
    def forward(self, x):
        h = self.l(x)
        return F.sum(h * h.array)  # the gradient does not flow through .array


def test_array_uses_carry_no_gradient():
    s, d = _twins(Detach)
    x = numpy.random.RandomState(7).randn(2, 3).astype(numpy.float32)
    for i in range(6):
        ys, yd = _both(s, d, x)
        ys.backward()
        yd.backward()
        _same(s.l.W.grad, d.l.W.grad)


class Lazy(_OneLinear):
    n_in, n_out = None, 2

    @chainer.static_graph
    def forward(self, x):
        return self.l(x)


def test_lazy_initialized_parameters():
    m = Lazy()
    x = numpy.ones((2, 4), numpy.float32)
    y1 = m(x)
    # the parameters exist now: a new key, recorded twice
    ys = [m(x) for _ in range(3)]
    assert not _replayed(y1) and [_replayed(y) for y in ys] == \
        [False, False, True]
    _same(y1.array, ys[2].array)


def test_copies_and_pickles_record_anew(tmp_path):
    m = MLP()
    x = numpy.ones((2, 5), numpy.float32)
    m(x)
    m(x)
    for c in (m.copy(), m.copy(mode='copy'), copy.deepcopy(m),
              pickle.loads(pickle.dumps(m))):
        y = c(x)
        assert not _replayed(y)
        assert c.schedule_manager is not m.schedule_manager
        _same(y.array, m(x).array)
        c(x)
        assert _replayed(c(x))
    # serializers: loading parameters is seen by the replay
    path = str(tmp_path / 'm.npz')
    serializers.save_npz(path, m)
    m2 = MLP()
    for _ in range(3):
        m2(x)
    serializers.load_npz(path, m2)
    y = m2(x)
    assert _replayed(y)
    _same(y.array, m(x).array)


def test_minimize_cache_size_and_force_test_define_by_run():
    class M(chainer.Chain):
        @chainer.static_graph(minimize_cache_size=True,
                              force_test_define_by_run=True)
        def forward(self, x):
            return F.identity(x) * 2

    m = M()
    m(numpy.ones(2, 'f'))
    m(numpy.ones(3, 'f'))
    assert _n_schedules(m) == 1
    m(numpy.ones(3, 'f'))
    assert _replayed(m(numpy.ones(3, 'f')))
    with chainer.using_config('train', False):
        for _ in range(3):
            assert not _replayed(m(numpy.ones(3, 'f')))
    with pytest.raises(TypeError):
        chainer.static_graph(bad=1)


def test_static_code_runs_at_each_replay():
    calls = []

    @static_code
    def count(a):
        calls.append(float(a.sum()))

    class M(chainer.Chain):
        def __init__(self):
            super().__init__()
            self.buf = numpy.zeros(2, numpy.float32)

        @chainer.static_graph
        def forward(self, x):
            y = F.identity(x) * 2
            count(self.buf)
            return y

    m = M()
    x = numpy.ones(2, 'f')
    m(x)
    m(x)
    m.buf[...] = 1
    assert _replayed(m(x))
    m.buf[...] = 2
    m(x)
    assert calls == [0., 0., 2., 4.]


def test_updater_and_trainer():
    from chainer import iterators, training
    from chainer.datasets import TupleDataset

    rng = numpy.random.RandomState(8)
    xs = rng.randn(32, 5).astype(numpy.float32)
    data = TupleDataset(xs, rng.randint(0, 3, 32).astype(numpy.int32))
    models = []
    for static in (True, False):
        model = L.Classifier(MLP())
        models.append(model)
    models[1].copyparams(models[0])
    for model, static in zip(models, (True, False)):
        opt = optimizers.MomentumSGD()
        opt.setup(model)
        it = iterators.SerialIterator(data, 8, shuffle=False)
        updater = training.updaters.StandardUpdater(it, opt)
        trainer = training.Trainer(updater, (2, 'epoch'))
        with chainer.using_config('use_static_graph', static):
            trainer.run()
    trained = models[0].predictor.schedule_manager.schedules.values()
    assert [s.verified for s in trained] == [True]  # replayed in training
    for (_, p), (_, q) in zip(models[0].namedparams(),
                              models[1].namedparams()):
        _same(p.array, q.array)


class FromData(chainer.Chain):

    def __init__(self, what):
        super().__init__()
        self.what = what
        self.t = 0

    @chainer.static_graph
    def forward(self, x):
        if self.what == 'array':  # an array made in Python from the data
            return F.relu(x * 1) + numpy.abs(x.array)
        self.t += 1  # a Python counter that sets an op's constant
        return x * float(self.t)


@pytest.mark.parametrize('what', ['array', 'counter'])
def test_values_computed_in_python_are_caught(what):
    m = FromData(what)
    rng = numpy.random.RandomState(9)
    for i in range(4):
        x = chainer.Variable(rng.randn(3).astype(numpy.float32))
        y = m(x)
        assert not _replayed(y)
        with _dbr():
            m.t -= what == 'counter'
            _same(y.array, m(x).array)
    assert 'changed between two calls' in m.static_schedule.reason


def test_legacy_function_and_nested_static_chains():
    class Square(chainer.Function):
        def forward(self, inputs):
            self.retain_inputs((0,))
            return inputs[0] ** 2,

        def backward(self, inputs, grad_outputs):
            return 2 * inputs[0] * grad_outputs[0],

    class Inner(_OneLinear):
        @chainer.static_graph
        def forward(self, x):
            return Square()(self.l(x))

    class Outer(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.inner = Inner()

        @chainer.static_graph
        def forward(self, x):
            return F.sum(self.inner(x) * 2)

    s, d = _twins(Outer)
    x = numpy.random.RandomState(10).randn(2, 3).astype(numpy.float32)
    for i in range(6):
        ys, yd = _both(s, d, x)
        ys.backward()
        yd.backward()
        _same(ys.array, yd.array)
        _same(s.inner.l.W.grad, d.inner.l.W.grad)
    assert _replayed(ys)
    # the inner chain alone records and replays too
    for _ in range(3):
        y = s.inner(x)
    assert _replayed(y)


class ManyOps(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.conv = L.Convolution2D(2, 3, 3, pad=1)
            self.deconv = L.Deconvolution2D(3, 2, 2, stride=2)
            self.embed = L.EmbedID(5, 4)
            self.lstm = L.LSTM(4, 4)
            self.l = L.Linear(None, 3)
            self.scale = chainer.Parameter(numpy.full((1, 4), 0.5, 'f'))

    @chainer.static_graph
    def forward(self, x, ids):
        h = F.leaky_relu(self.conv(x))
        h = F.average_pooling_2d(h, 2) + F.max_pooling_2d(h, 2)
        h = F.sigmoid(self.deconv(h))
        a, b = F.split_axis(h, 2, axis=1)
        h = F.concat([F.exp(a) * b, F.log(b + 1) - a[:, :, ::2].mean()],
                     axis=1)
        h = F.transpose(F.reshape(h, (h.shape[0], -1)))
        e = F.sum(self.embed(ids), axis=1) * self.scale
        self.lstm.reset_state()
        e = self.lstm(self.lstm(e))
        h = F.matmul(h, F.softmax(e, axis=1))  # (features, 4)
        h = F.elu(self.l(F.transpose(h)))
        return F.mean(F.square(h - F.broadcast_to(F.max(h, axis=1,
                                                        keepdims=True),
                                                  h.shape)))


def test_recorded_backward_of_many_ops_matches_define_by_run():
    rng = numpy.random.RandomState(11)
    x = rng.randn(3, 2, 4, 4).astype(numpy.float32)
    ids = rng.randint(0, 5, (3, 2)).astype(numpy.int32)
    s = ManyOps()
    _call(s, False, x, ids)  # the lazy parameters, before copying
    d = s.copy(mode='copy')
    _call(s, True, x, ids)
    for i in range(7):
        x = rng.randn(3, 2, 4, 4).astype(numpy.float32)
        ids = rng.randint(0, 5, (3, 2)).astype(numpy.int32)
        ys, yd = _both(s, d, x, ids)
        assert _replayed(ys) == (i > 0)
        ys.backward()
        yd.backward()
        _same(ys.array, yd.array)
        assert len(_same_grads(s, d, _same_sums)) >= 10
    recipes = s.static_schedule.recipes.values()
    assert any(r is not False and r.verified for r in recipes)


class FineTune(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.bn = L.BatchNormalization(3)

    @chainer.static_graph
    def forward(self, x):
        return self.bn(x, finetune=True)  # counts batches in Python (N)


def test_link_state_outside_ops_is_a_key():
    s, d = _twins(FineTune)
    rng = numpy.random.RandomState(12)
    for i in range(4):
        x = rng.randn(4, 3).astype(numpy.float32)
        ys, yd = _call(s, True, x), _call(d, False, x)
        assert not _replayed(ys)  # N changes at every call
        _same(ys.array, yd.array)
    assert s.bn.N == d.bn.N == 4
    _same(s.bn.avg_mean, d.bn.avg_mean)
    _same(s.bn.avg_var, d.bn.avg_var)


class WithTable(chainer.Chain):

    def __init__(self):
        super().__init__()
        self.table = numpy.arange(3, dtype=numpy.float32)  # not persistent

    @chainer.static_graph
    def forward(self, x):
        return F.identity(x) + self.table


def test_array_attributes_are_used_as_they_are_now():
    m = WithTable()
    x = numpy.zeros(3, numpy.float32)
    for _ in range(3):
        y = m(x)
    assert _replayed(y)
    m.table[0] = 7  # in place: seen by the replay
    y = m(x)
    assert _replayed(y)
    _same(y.array, [7, 1, 2])
    m.table = numpy.ones(3, numpy.float32)  # replaced: a new key
    y = m(x)
    assert not _replayed(y)
    _same(y.array, [1, 1, 1])


def test_link_hooks_run_define_by_run():
    from chainer.link_hooks import SpectralNormalization
    m = MLP()
    x = numpy.ones((2, 5), numpy.float32)
    m.l1.add_hook(SpectralNormalization())
    for _ in range(3):
        assert not _replayed(m(x))  # Python code around l1
    m.l1.delete_hook('SpectralNormalization')
    for _ in range(3):
        y = m(x)
    assert _replayed(y)
    with chainer.link_hooks.TimerHook():
        assert not _replayed(m(x))


class Reports(_OneLinear):
    n_out = 2

    @chainer.static_graph
    def forward(self, x):
        loss = F.sum(self.l(x))
        chainer.report({'loss': loss}, self)
        return loss


def test_a_forward_that_reports_runs_define_by_run():
    m = Reports()
    x = numpy.ones((2, 3), numpy.float32)
    rep = chainer.Reporter()
    rep.add_observer('m', m)
    for i in range(3):
        observation = {}
        with rep.scope(observation):
            y = m(x)
        assert not _replayed(y)
        assert observation['m/loss'].array == y.array
    assert 'reports' in m.static_schedule.reason
    for _ in range(3):  # no reporter: nothing is reported, it replays
        y = m(x)
    assert _replayed(y)


def test_backward_without_retaining_the_graph():
    m = MLP()
    x = numpy.ones((2, 5), numpy.float32)
    for _ in range(3):
        y = F.sum(m(x))
    y.backward(retain_graph=False)
    with pytest.raises(RuntimeError, match='retained'):
        y.backward()
    y = F.sum(m(x))
    y.backward()
    y.backward()  # retained by default, as define-by-run


def test_only_links_can_be_static():
    class NotALink:
        @chainer.static_graph
        def forward(self, x):
            return x

    with pytest.raises(TypeError, match='Chain'):
        NotALink().forward(numpy.ones(1, 'f'))


class _Shifts(chainer.Chain):

    @chainer.static_graph
    def forward(self, x):
        for _ in range(5):
            x = x * 2 + 1
        return F.sum(x)


def test_replay_hands_on_a_gradient_an_op_passes_through(monkeypatch):
    # AddConstant's gradient is its output's: after the first replay the
    # schedule hands it on without calling the op (and gives the same
    # gradients as define-by-run)
    from chainer.functions.math import basic_math
    calls = []
    step = basic_math.AddConstant._backward_arrays
    monkeypatch.setattr(basic_math.AddConstant, '_backward_arrays',
                        lambda self, *a: calls.append(1) or step(self, *a))
    s, d = _twins(_Shifts)
    x0 = numpy.arange(3, dtype=numpy.float32)
    counts = []
    for i in range(5):
        xs, xd = chainer.Variable(x0.copy()), chainer.Variable(x0.copy())
        _call(s, True, xs).backward()
        with _dbr():
            d(xd).backward()
        _same(xs.grad, xd.grad)
        numpy.testing.assert_array_equal(xs.grad, numpy.full(3, 32.))
        counts.append(len(calls))
    # define-by-run calls it 5 times a step; the replays only at first
    assert counts[-1] - counts[-2] == 5
    assert counts[-2] - counts[-3] == 5


class _TanhLayers(chainer.Chain):
    """Layers of tanh(h @ W) (W transposed or not), affine constants and a
    sum: a schedule whose every op the compiled replay has a kernel for."""

    def __init__(self, dtype, transa=False, transb=False, axis=None,
                 keepdims=False, n=3, width=4):
        super().__init__()
        self.transa, self.transb = transa, transb
        self.axis, self.keepdims = axis, keepdims
        rng = numpy.random.RandomState(7)
        with self.init_scope():
            self.ws = chainer.ChainList()
        for _ in range(n):
            self.ws.add_link(chainer.Link())
            with self.ws[-1].init_scope():
                self.ws[-1].W = chainer.Parameter(
                    (rng.randn(width, width) / width ** .5).astype(dtype))

    @chainer.static_graph
    def forward(self, x):
        h = x
        for link in self.ws:
            if self.transa:
                h = F.matmul(h, link.W, transa=True)
            else:
                h = F.matmul(h, link.W, transb=self.transb)
            h = F.tanh(h) * 1.5 + 0.25
        return F.sum(h, axis=self.axis, keepdims=self.keepdims)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64])
@pytest.mark.parametrize('transa,transb,axis,keepdims', [
    (False, False, None, False), (False, True, 1, False),
    (True, False, (0,), True), (False, False, 0, False)])
def test_compiled_replay_matches_define_by_run(dtype, transa, transb, axis,
                                               keepdims):
    s, d = _twins(_TanhLayers, dtype, transa, transb, axis, keepdims)
    rng = numpy.random.RandomState(3)
    for i in range(4):
        ys, (xs,) = _step_alike(
            s, d, i, [rng.randn(4, 4).astype(dtype)],
            lambda y: numpy.asarray(rng.randn(*y.shape), dtype))
        assert ys.dtype == dtype
    sched = s.static_schedule
    assert sched.compiled is not None
    assert numpy.abs(xs.grad.astype(numpy.float64)).sum() > 0
    # kept for backward: what the gradients read (the products' inputs,
    # tanh's outputs), not the products or the affine steps' outputs
    labels = {step[4]: t.label for step, t in zip(sched.steps,
                                                   sched.templates)}
    assert sorted(labels.get(k) for k in sched.compiled.kept
                  if k in labels) == ['Tanh'] * 3 + ['_ + 0.25'] * 2


@pytest.mark.parametrize('transa,transb', [(False, False), (True, False),
                                           (False, True)])
def test_compiled_replay_of_thin_float32_products(transa, transb):
    # 20 x 20 float32: the C loops' thin products (gy @ W.T, and a.T @ gy
    # computed in the background by the replay) give the bits of
    # define-by-run's, over several layers and steps
    s, d = _twins(_TanhLayers, numpy.float32, transa, transb, None, False, 6,
                  20)
    rng = numpy.random.RandomState(5)
    for i in range(5):
        x0 = rng.randn(20, 20).astype(numpy.float32)
        _, (xs,) = _step_alike(s, d, i, [x0])
    assert s.static_schedule.compiled is not None
    # and they are the gradients (float64 define-by-run, to float32's
    # tolerance)
    d64 = d.copy(mode='copy')
    for p in d64.params():
        p.array = p.array.astype(numpy.float64)
    x64 = chainer.Variable(x0.astype(numpy.float64))
    d64.cleargrads()
    _call(d64, False, x64).backward()
    numpy.testing.assert_allclose(xs.grad, x64.grad, rtol=1e-4, atol=1e-5)
    for (_, p), (_, q) in zip(sorted(s.namedparams()),
                              sorted(d64.namedparams())):
        numpy.testing.assert_allclose(p.grad, q.grad, rtol=1e-4, atol=1e-5)


class _SharedWeight(chainer.Chain):
    """One 20 x 20 float32 weight read by six products (and an outer
    input read twice): their gradients meet in sums, which must wait for
    products computed in the background."""

    def __init__(self):
        super().__init__()
        rng = numpy.random.RandomState(0)
        with self.init_scope():
            self.W = chainer.Parameter(
                (rng.randn(20, 20) / 5).astype(numpy.float32))

    @chainer.static_graph
    def forward(self, x, v):
        h = x
        for _ in range(6):
            h = F.tanh(h @ self.W)
        return F.sum(h @ v + x @ v)


def test_compiled_replay_of_shared_weights():
    s, d = _twins(_SharedWeight)
    rng = numpy.random.RandomState(1)
    for i in range(8):
        _step_alike(s, d, i, [rng.randn(20, 20).astype(numpy.float32)
                              for _ in range(2)])
    assert s.static_schedule.compiled is not None


def test_compiled_replay_double_backprop_and_unlike_gradients():
    s, d = _twins(_TanhLayers, numpy.float64)
    x0 = numpy.random.RandomState(1).randn(4, 4)
    for _ in range(3):
        xs, xd = chainer.Variable(x0), chainer.Variable(x0.copy())
        ys, yd = _call(s, True, xs), _call(d, False, xd)
    sched = s.static_schedule
    assert _replayed(ys) and sched.compiled is not None
    gs, = chainer.grad([ys], [xs], enable_double_backprop=True)
    gd, = chainer.grad([yd], [xd], enable_double_backprop=True)
    _same(gs.array, gd.array)
    F.sum(gs * gs).backward()
    F.sum(gd * gd).backward()
    _close(xs.grad, xd.grad)
    assert numpy.abs(xs.grad).sum() > 0
    # output gradients unlike the outputs are left to the interpreted
    # backward
    vals = sched.compiled.forward([x0] + [p.array for p in sched.params])[1]
    assert sched.compiled.backward(
        sched, vals, (0,), (numpy.ones((), numpy.float32),)) is None
    g, = sched.compiled.backward(sched, vals, (0,), (numpy.ones(()),))
    _same(g, gd.array)


class _SigmoidMLP(MLP):

    @chainer.static_graph
    def forward(self, x):
        return F.sigmoid(super().forward.__wrapped__(self, x))


def test_ops_without_kernels_are_replayed_interpreted():
    s, d = _twins(_SigmoidMLP)
    x = numpy.random.RandomState(2).randn(2, 5).astype(numpy.float32)
    for _ in range(3):
        ys, yd = _both(s, d, x)
    assert _replayed(ys) and s.static_schedule.compiled is None
    F.sum(ys).backward()
    F.sum(yd).backward()
    _same_grads(s, d)


def test_mlp_replay_is_compiled():
    # Linear (each weight read once) and ReLU have kernels; a weight
    # shared by two Linear ops leaves the schedule interpreted (its
    # gradient sums the products' rows in one GEMM there)
    s, d = _twins(MLP)
    x = numpy.random.RandomState(2).randn(2, 5).astype(numpy.float32)
    for _ in range(4):
        ys, yd = _both(s, d, x)
        F.sum(ys * ys).backward()
        F.sum(yd * yd).backward()
        _same(ys.array, yd.array)
        _same_grads(s, d)
    assert s.static_schedule.compiled is not None
    s, d = _twins(Shared)
    x = numpy.random.RandomState(3).randn(2, 4).astype(numpy.float32)
    for _ in range(3):
        ys, yd = _both(s, d, x)
    assert _replayed(ys) and s.static_schedule.compiled is None


class _ResidualRelu(chainer.Chain):
    """relu(h @ W) + h (the sum of two arrays of one shape), and h + h."""

    def __init__(self):
        super().__init__()
        rng = numpy.random.RandomState(11)
        with self.init_scope():
            self.W = chainer.Parameter(rng.randn(6, 6).astype(numpy.float32))

    @chainer.static_graph
    def forward(self, x):
        h = F.relu(x @ self.W) + x
        h = F.relu(h @ self.W) + h
        return F.sum(h + h)


def test_compiled_replay_relu_and_sums():
    s, d = _twins(_ResidualRelu)
    rng = numpy.random.RandomState(8)
    for i in range(4):
        x0 = rng.randn(5, 6).astype(numpy.float32)
        ys, _ = _step_alike(s, d, i, [x0])
    assert s.static_schedule.compiled is not None
    # against float64 arithmetic
    x64, W64 = x0.astype(numpy.float64), d.W.array.astype(numpy.float64)
    h1 = numpy.maximum(x64 @ W64, 0) + x64
    numpy.testing.assert_allclose(
        ys.array, 2 * (numpy.maximum(h1 @ W64, 0) + h1).sum(), rtol=1e-5)


class _Printing(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(3, 4)

    @chainer.static_graph
    def forward(self, x):
        return F.relu(self.l1(x))


def test_prints_chainers_schedule_messages(capsys):
    # Chainer 7.8.1 prints these two messages whatever the verbosity, when
    # its schedules are built (the lines it printed for this program)
    BUILT, BACKWARD = 'end of build_schedule()', \
        'Creating new backward schedule...'
    m = _Printing()
    x = numpy.ones((2, 3), numpy.float32)

    def lines(step):
        step()
        return capsys.readouterr().out.splitlines()

    ys = []
    assert lines(lambda: ys.extend([m(x), m(x), m(x)])) == [BUILT] * 3
    assert lines(lambda: F.sum(ys[-1]).backward()) == [BACKWARD, BUILT]
    # the next iteration takes the first schedule, whose backward is new
    assert lines(lambda: F.sum(m(x)).backward()) == [BACKWARD, BUILT]
    xv = chainer.Variable(x)  # (requires_grad is not in Chainer's key)
    assert lines(lambda: F.sum(m(xv)).backward()) == []
    # a call left without backward holds its schedule: the next one
    # takes the second
    assert lines(lambda: (m(x), F.sum(m(x)).backward())) == [BACKWARD,
                                                             BUILT]
    with chainer.using_config('train', False):
        assert lines(lambda: (m(x), m(x))) == [BUILT]
        y = m(x)
    assert lines(lambda: F.sum(y).backward()) == [BACKWARD, BUILT]
    with chainer.no_backprop_mode():
        assert lines(lambda: m(x)) == []  # (the test key again)
    assert lines(lambda: F.sum(m(numpy.ones((5, 3), 'f'))).backward()) == \
        [BUILT, BACKWARD, BUILT]
    # two calls before one backward: two schedules, two backwards
    m2 = _Printing()
    assert lines(lambda: F.sum(m2(x) + m2(x)).backward()) == [
        BUILT, BUILT, BACKWARD, BUILT, BACKWARD, BUILT]
    assert lines(lambda: F.sum(m2(x) + m2(x)).backward()) == []


def test_chainers_names_in_static_graph_module():
    from chainer.graph_optimizations import static_graph as module
    from chainer.graph_optimizations.static_graph import (
        ScheduleManager, StaticScheduleFunction)
    m = _Printing()
    x = numpy.ones((2, 3), numpy.float32)
    for _ in range(3):
        y = m(x)
    assert isinstance(m.schedule_manager, ScheduleManager)
    assert isinstance(y.creator, StaticScheduleFunction)
    with pytest.raises(AttributeError, match='ArrayInfoX'):
        module.ArrayInfoX
