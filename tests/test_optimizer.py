import numpy as np
import pytest

import chainer
import chainer.functions as F
from chainer import optimizer, optimizer_hooks, optimizers, serializers


class Model(chainer.Link):

    def __init__(self, dtype=np.float32):
        super().__init__()
        with self.init_scope():
            self.W = chainer.Parameter(np.array([0.5, -0.3], dtype))
            self.b = chainer.Parameter(np.array([1.], dtype))


# --- Hyperparameter -------------------------------------------------------------

def test_hyperparameter_parent_fallback():
    parent = optimizer.Hyperparameter()
    parent.lr, parent.momentum = 0.1, 0.9
    child = optimizer.Hyperparameter(parent)
    assert child.parent is parent and parent.parent is None
    assert child.lr == 0.1
    child.lr = 0.5
    assert (child.lr, parent.lr) == (0.5, 0.1)
    assert child.get_dict() == {'lr': 0.5, 'momentum': 0.9}
    assert repr(child) == 'Hyperparameter(lr=0.5, momentum=0.9)'
    with pytest.raises(AttributeError):
        child.nothing
    with pytest.raises(AttributeError):
        optimizer.Hyperparameter().lr


def test_hyperparameter_proxy():
    class Opt(optimizer.GradientMethod):
        lr = optimizer.HyperparameterProxy('lr')

    assert isinstance(Opt.lr, optimizer.HyperparameterProxy)
    opt = Opt()
    opt.lr = 0.3
    assert opt.hyperparam.lr == 0.3 and opt.lr == 0.3
    opt.hyperparam.lr = 0.4
    assert opt.lr == 0.4


# --- UpdateRule -------------------------------------------------------------------

def test_update_rule_defaults():
    rule = optimizer.UpdateRule()
    assert (rule.enabled, rule.t, rule.state, rule.is_elementwise) == \
        (True, 0, None, False)
    assert isinstance(rule.hyperparam, optimizer.Hyperparameter)
    p = chainer.Parameter(np.ones(2, np.float32))
    p.grad = np.ones(2, np.float32)
    with pytest.raises(NotImplementedError):
        rule.update(p)


def test_update_rule_hooks():
    calls = []
    rule = optimizers.SGD(lr=1.).create_update_rule()

    def pre(r, p):
        calls.append(('pre', r is rule, p.array.copy()))

    def post(r, p):
        calls.append(('post', r is rule, p.array.copy()))

    post.timing = 'post'
    rule.add_hook(pre)
    rule.add_hook(post)  # timing='auto' takes the hook's own timing
    rule.add_hook(lambda r, p: calls.append('pre2'), name='x', timing='pre')
    with pytest.raises(KeyError):
        rule.add_hook(pre)
    with pytest.raises(TypeError):
        rule.add_hook(3)
    with pytest.raises(ValueError):
        rule.add_hook(pre, name='y', timing='middle')
    p = chainer.Parameter(np.array([1.], np.float32))
    p.grad = np.array([0.5], np.float32)
    rule.update(p)
    assert [c if isinstance(c, str) else c[:2] for c in calls] == \
        [('pre', True), 'pre2', ('post', True)]
    assert calls[0][2] == 1. and calls[2][2] == 0.5
    rule.remove_hook('x')
    rule.remove_hook('post')
    with pytest.raises(KeyError):
        rule.remove_hook('x')


def test_update_rule_disabled_and_missing_grad():
    rule = optimizers.MomentumSGD().create_update_rule()
    p = chainer.Parameter(np.ones(2, np.float32))
    rule.enabled = False
    p.grad = np.ones(2, np.float32)
    rule.update(p)
    assert rule.t == 0 and rule.state is None
    np.testing.assert_array_equal(p.array, np.ones(2))
    rule.enabled = True
    p.cleargrad()
    rule.update(p)  # as Chainer: counts the step and makes the state
    assert rule.t == 1 and sorted(rule.state) == ['v']
    np.testing.assert_array_equal(p.array, np.ones(2))
    uninit = chainer.Parameter()
    rule2 = optimizers.Adam().create_update_rule()
    rule2.update(uninit)
    assert rule2.state is None


def test_parameter_update_uses_rule():
    p = chainer.Parameter(np.array([2.], np.float32))
    p.update()  # no rule: nothing happens
    p.update_rule = optimizers.SGD(lr=0.5).create_update_rule()
    p.grad = np.array([1.], np.float32)
    p.update()
    np.testing.assert_allclose(p.array, [1.5])


def test_use_fp32_update():
    # Chainer 7.8.1 gives [0.9995, 2.] (float16) with the float32 master
    # copy at [0.9994388, 1.999944].
    model = Model(np.float16)
    model.W.array = np.array([1., 2.], np.float16)
    opt = optimizers.MomentumSGD(lr=0.1)
    opt.use_fp32_update()
    opt.setup(model)
    for _ in range(3):
        model.W.grad = np.array([1e-3, 1e-4], np.float16)
        model.b.grad = np.zeros(1, np.float16)
        opt.update()
    rule = model.W.update_rule
    np.testing.assert_allclose(rule._fp32_param.array,
                               [0.9994388, 1.999944], rtol=1e-6)
    np.testing.assert_array_equal(model.W.array,
                                  np.array([0.9995, 2.], np.float16))
    assert rule.state['v'].dtype == np.float32


# --- Optimizer ----------------------------------------------------------------------

def test_optimizer_class_attributes():
    assert (optimizer.Optimizer.target, optimizer.Optimizer.t,
            optimizer.Optimizer.epoch,
            optimizer.Optimizer.use_auto_new_epoch) == (None, 0, 0, False)
    with pytest.raises(NotImplementedError):
        optimizer.GradientMethod().create_update_rule()


def test_setup():
    model = Model()
    opt = optimizers.SGD()
    with pytest.raises(AttributeError, match='namedparams'):  # as Chainer
        opt.update()
    with pytest.raises(RuntimeError, match='setup'):
        opt.add_hook(optimizer_hooks.WeightDecay(0.1))
    assert opt.setup(model) is opt and opt.target is model
    assert all(isinstance(p.update_rule, optimizers.sgd.SGDRule)
               for p in model.params())
    with pytest.raises(TypeError, match='link'):
        optimizers.SGD().setup(object())


def test_new_epoch():
    opt = optimizers.SGD().setup(Model())
    opt.new_epoch()
    assert opt.epoch == 1
    with pytest.raises(RuntimeError, match='use_auto_new_epoch'):
        opt.new_epoch(auto=True)
    opt.use_auto_new_epoch = True
    opt.new_epoch(auto=True)
    assert opt.epoch == 2
    with pytest.raises(RuntimeError, match='duplicated'):
        opt.new_epoch()
    assert opt.epoch == 2


def test_update_with_lossfun():
    model = Model()
    opt = optimizers.SGD(lr=0.1).setup(model)
    model.W.grad = np.full(2, 100., np.float32)  # cleared before backward

    def lossfun(x, scale=1.):
        return F.sum(model.W * x) * scale

    opt.update(lossfun, np.array([1., 2.], np.float32), scale=2.)
    np.testing.assert_allclose(model.W.array, [0.5 - 0.2, -0.3 - 0.4])
    # b had no gradient: reallocated as zeros, so it did not move
    np.testing.assert_array_equal(model.b.grad, [0.])
    np.testing.assert_array_equal(model.b.array, [1.])
    assert opt.t == 1 and model.W.update_rule.t == 1
    opt.update()  # reuse the gradients as they are
    np.testing.assert_allclose(model.W.array, [0.5 - 0.4, -0.3 - 0.8])
    assert opt.t == 2


def test_optimizer_hooks_order():
    calls = []
    model = Model()
    opt = optimizers.SGD(lr=1.).setup(model)

    class PerParam:
        name = 'per_param'
        call_for_each_param = True

        def __call__(self, rule, param):
            calls.append(('per_param', type(rule).__name__, param.name))

    def whole(o):
        calls.append(('whole', o is opt, o.t))

    def after(o):
        calls.append(('after', o.t))

    opt.add_hook(PerParam())
    opt.add_hook(whole)
    opt.add_hook(after, timing='post')
    with pytest.raises(KeyError):
        opt.add_hook(whole)
    with pytest.raises(ValueError):
        opt.call_hooks('middle')
    for p in model.params():
        p.grad = np.zeros_like(p.array)
    opt.update()
    assert calls == [('per_param', 'SGDRule', 'W'),
                     ('per_param', 'SGDRule', 'b'),
                     ('whole', True, 0), ('after', 1)]
    opt.remove_hook('whole')
    calls.clear()
    opt.update()
    assert [c[0] for c in calls] == ['per_param', 'per_param', 'after']


def test_use_cleargrads_deprecated():
    opt = optimizers.SGD()
    with pytest.warns(DeprecationWarning):
        opt.use_cleargrads()


# --- loss scaling -------------------------------------------------------------------

def test_static_loss_scale():
    model = Model()
    opt = optimizers.SGD(lr=1.).setup(model)
    opt.loss_scaling(scale=16.)
    opt.update(lambda: F.sum(model.W * 3.))
    # backward saw the scaled loss; the rule divided it back
    np.testing.assert_allclose(model.W.array, [0.5 - 3., -0.3 - 3.])
    assert opt._loss_scale == 16.


def test_dynamic_loss_scaling():
    # The sequence of scales Chainer 7.8.1 gives.
    model = Model()
    opt = optimizers.SGD(lr=0.1).setup(model)
    opt.loss_scaling(interval=2)
    scales = []
    for c in [1., 1., 1., np.nan, 1., 1., 1.]:
        before = model.W.array.copy()
        opt.update(lambda: F.sum(model.W * np.float32(c)))
        scales.append(opt._loss_scale)
        if np.isnan(c):  # an overflowing update is skipped
            np.testing.assert_array_equal(model.W.array, before)
            assert not opt.is_safe_to_update()
        else:
            np.testing.assert_allclose(model.W.array, before - 0.1)
    np.testing.assert_allclose(
        scales, [2., 4., 8., 4., 4 * 2 ** .5, 8., 8 * 2 ** .5])
    assert opt.t == 7 and model.W.update_rule.t == 6
    assert opt.is_safe_to_update()


# --- serialization -----------------------------------------------------------------

def _trained(make_opt, steps=3):
    model = Model()
    opt = make_opt().setup(model)
    for i in range(steps):
        opt.update(lambda: F.sum(model.W * model.W) + F.sum(model.b * i))
    return model, opt


def test_serialize_npz_round_trip(tmp_path):
    model, opt = _trained(lambda: optimizers.Adam(alpha=0.1))
    opt.new_epoch()
    path = str(tmp_path / 'opt.npz')
    serializers.save_npz(path, opt)
    with np.load(path) as f:
        assert sorted(f.files) == ['W/m', 'W/t', 'W/v', 'b/m', 'b/t', 'b/v',
                                   'epoch', 't']
    model2 = Model()
    opt2 = optimizers.Adam(alpha=0.1).setup(model2)
    serializers.load_npz(path, opt2)
    assert (opt2.t, opt2.epoch, model2.W.update_rule.t) == (3, 1, 3)
    for key in ('m', 'v'):
        np.testing.assert_array_equal(model2.W.update_rule.state[key],
                                      model.W.update_rule.state[key])


def test_serialize_into_updated_optimizer():
    _, opt = _trained(lambda: optimizers.MomentumSGD(lr=0.1), steps=2)
    saved = serializers.DictionarySerializer()
    saved.save(opt)
    model2, opt2 = _trained(lambda: optimizers.MomentumSGD(lr=0.1), steps=5)
    serializers.NpzDeserializer(saved.target).load(opt2)
    assert opt2.t == 2 and model2.W.update_rule.t == 2
    np.testing.assert_array_equal(model2.W.update_rule.state['v'],
                                  saved.target['W/v'])


def test_load_missing_state_changes_nothing():
    # saved before the first update: no state arrays (strict load fails)
    opt = optimizers.Adam().setup(Model())
    saved = serializers.DictionarySerializer()
    saved.save(opt)
    assert sorted(saved.target) == ['W/t', 'b/t', 'epoch', 't']
    _, opt2 = _trained(optimizers.Adam)
    fresh = optimizers.Adam().setup(Model())
    with pytest.raises(KeyError):
        serializers.NpzDeserializer(saved.target).load(fresh)
    assert fresh.target.W.update_rule.state is None
    assert fresh.target.W.update_rule.t == 0
    serializers.NpzDeserializer(saved.target, strict=False).load(fresh)
    assert fresh.target.W.update_rule.state is None


def test_failed_load_is_all_or_nothing():
    _, opt = _trained(optimizers.Adam)
    saved = serializers.DictionarySerializer()
    saved.save(opt)
    del saved.target['b/v']
    fresh = optimizers.Adam().setup(Model())
    with pytest.raises(KeyError, match='b/v'):
        serializers.NpzDeserializer(saved.target).load(fresh)
    assert fresh.t == 0
    for p in fresh.target.params():
        assert p.update_rule.state is None and p.update_rule.t == 0


def test_load_into_disabled_rule_without_state():
    saved = serializers.DictionarySerializer()
    saved.save(optimizers.Adam().setup(Model()))
    model = Model()
    opt = optimizers.Adam().setup(model)
    model.W.update_rule.enabled = False
    model.b.update_rule.enabled = False
    serializers.NpzDeserializer(saved.target).load(opt)
    assert model.W.update_rule.state is None


# --- deprecated aliases and exports -------------------------------------------------

@pytest.mark.parametrize('name, args', [
    ('WeightDecay', (0.1,)), ('Lasso', (0.1,)), ('GradientClipping', (1.,)),
    ('GradientNoise', (0.1,)), ('GradientHardClipping', (-1., 1.))])
def test_deprecated_hook_aliases(name, args):
    cls = getattr(optimizer, name)
    assert issubclass(cls, getattr(optimizer_hooks, name))
    with pytest.warns(DeprecationWarning,
                      match='chainer.optimizer_hooks.' + name):
        hook = cls(*args)
    assert hook.name == name and hook.timing == 'pre'


def test_exports():
    names = ['AMSBound', 'AMSGrad', 'AdaBound', 'AdaDelta', 'AdaGrad', 'Adam',
             'AdamW', 'CorrectedMomentumSGD', 'MSVAG', 'MomentumSGD',
             'NesterovAG', 'RMSprop', 'RMSpropGraves', 'SGD', 'SMORMS3']
    for name in names:
        assert issubclass(getattr(optimizers, name), optimizer.GradientMethod)
    for name in ['GradientClipping', 'GradientHardClipping', 'GradientLARS',
                 'GradientNoise', 'Lasso', 'WeightDecay']:
        assert callable(getattr(optimizer_hooks, name))


@pytest.mark.parametrize('kwargs,message', [
    (dict(interval=0), 'interval must be greater than or equal to 1'),
    (dict(scale=-1), 'loss_scale must be a positive number'),
    (dict(scale=0), 'loss_scale must be a positive number'),
])
def test_loss_scaling_arguments(kwargs, message):
    opt = chainer.optimizers.SGD()
    with pytest.raises(ValueError, match=message):
        opt.loss_scaling(**kwargs)


def test_update_rule_runs_hooks_and_update_core_for_every_parameter():
    # As Chainer: an uninitialized parameter and one without a gradient go
    # through the hooks and update_core too (on the parameter's device).
    calls = []

    class Rule(optimizer.UpdateRule):
        def update_core_cpu(self, param):
            calls.append(('cpu', param))

        def update_core_gpu(self, param):
            calls.append(('gpu', param))

    rule = Rule()
    rule.add_hook(lambda r, p: calls.append(('hook', p)), name='h')
    uninit = chainer.Parameter()
    nograd = chainer.Parameter(np.ones(2, np.float32))
    rule.update(uninit)
    rule.update(nograd)
    assert calls == [('hook', uninit), ('cpu', uninit),
                     ('hook', nograd), ('cpu', nograd)]
    assert rule.t == 2 and rule.state == {}


def test_hook_timing_other_than_pre_means_post():
    calls = []

    class Hook:
        timing = 'whenever'

        def __call__(self, rule, param):
            calls.append(param.array.copy())

    rule = optimizers.SGD(lr=1.).create_update_rule()
    rule.add_hook(Hook(), name='h')
    p = chainer.Parameter(np.array([1.], np.float32))
    p.grad = np.array([0.5], np.float32)
    rule.update(p)
    assert calls == [0.5]


def test_fp32_update_of_an_uninitialized_float16_parameter():
    seen = []
    rule = optimizer.UpdateRule()
    rule.update_core = lambda param: seen.append(param)
    rule.use_fp32_update()
    init = chainer.initializers.Zero(np.float16)
    p = chainer.Parameter(init)
    rule.update(p)
    assert len(seen) == 1 and seen[0] is not p
    assert seen[0].dtype == np.float32 and seen[0].array is None
    assert p.array is None and p.dtype == np.float16


def test_loss_scale_set_on_the_parameter_is_divided_out():
    p = chainer.Parameter(np.full(3, 2., np.float32))
    p.grad = np.full(3, 20., np.float32)
    p._loss_scale = 10
    assert p._loss_scale == 10
    optimizers.SGD(lr=1.).create_update_rule().update(p)
    np.testing.assert_array_equal(p.array, 0.)
    assert p._loss_scale is None


def test_state_keys_come_from_an_init_state_bound_to_the_rule():
    class Deserializer(chainer.serializer.Deserializer):
        def __call__(self, key, value):
            return {'t': 5, 'a': 1, 'b': np.arange(3.)}[key]

    rule = optimizer.UpdateRule()

    def init_state(param):
        rule.state['a'] = 0
        rule.state['b'] = np.zeros(3)

    rule.init_state = init_state
    rule.serialize(Deserializer())
    assert rule.t == 5 and rule.state['a'] == 1
    np.testing.assert_array_equal(rule.state['b'], [0, 1, 2])


def test_hooks_per_param_and_reallocation_of_cleared_grads():
    class Net(chainer.Link):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.w = chainer.Parameter(np.ones(2, np.float32))

    net = Net()
    net.w.grad = np.ones(2, np.float32)
    base = optimizer.Optimizer().setup(net)
    seen = []

    class PerParam:
        call_for_each_param = True
        name = 'per'

        def __call__(self, rule, param):
            seen.append((rule, param))

    base.add_hook(PerParam())
    base.call_hooks()
    assert seen == [(None, net.w)]

    opt = optimizers.SGD(lr=1.).setup(net)
    grads = []
    opt.add_hook(lambda o: net.w.cleargrad(), name='clear')
    opt.add_hook(lambda o: grads.append(net.w.grad), name='look')
    opt.update()
    np.testing.assert_array_equal(grads[0], 0.)


def test_update_before_setup_raises_chainers_attribute_error():
    # Chainer 7.8.1 meets the missing target as an attribute of None
    opt = chainer.optimizers.SGD()
    with pytest.raises(AttributeError) as e:
        opt.update()
    assert str(e.value) == "'NoneType' object has no attribute 'namedparams'"
    calls = []
    with pytest.raises(AttributeError) as e:
        opt.update(lambda: calls.append(1))
    assert calls == [1]
    assert str(e.value) == "'NoneType' object has no attribute 'cleargrads'"


def test_new_epoch_misuse_messages_are_chainers():
    import chainer.links as L
    opt = chainer.optimizers.SGD()
    opt.setup(L.Linear(2, 2))
    with pytest.raises(RuntimeError) as e:
        opt.new_epoch(auto=True)
    assert str(e.value) == ('invalid new_epoch call with auto=True.\n'
                            'Fix the updater to set '
                            'optimizer.use_auto_new_epoch = True.')
    opt.use_auto_new_epoch = True
    with pytest.raises(RuntimeError) as e:
        opt.new_epoch()
    assert str(e.value) == ('duplicated new_epoch with the updater.\n'
                            'Pass auto_new_epoch=False to the updater or '
                            'stop calling new_epoch outside the updater.')
    opt.new_epoch(auto=True)
    assert opt.epoch == 1


def test_add_hook_checks_and_timing_fallback_as_chainer():
    import warnings
    import chainer.links as L
    opt = chainer.optimizers.SGD()
    with pytest.raises(RuntimeError, match='not set up'):
        opt.add_hook(3)  # the set-up is checked first
    opt.setup(L.Linear(2, 2))
    with pytest.raises(TypeError, match='^hook function must be callable$'):
        opt.add_hook(3)

    class Hook:
        timing = 'weird'

        def __call__(self, opt):
            pass

    with pytest.raises(ValueError, match='name of the hook function'), \
            warnings.catch_warnings():
        warnings.simplefilter('ignore')  # the timing is read first
        opt.add_hook(Hook())
    with pytest.raises(ValueError) as e:
        opt.add_hook(Hook(), name='h', timing='x')
    assert str(e.value) == "timing must be one of ('pre', 'post', 'auto')"
    # an optimizer's hook with an odd timing falls back to 'pre', warning
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        opt.add_hook(Hook(), name='h')
    assert [str(x.message) for x in w] == [
        "Hook timing attribute not in ('pre', 'post'), defaulting timing "
        "to 'pre'."]
    assert list(opt._pre_update_hooks) == ['h']
    # an update rule's becomes a 'post' hook, silently
    rule = opt.target.W.update_rule
    rule.add_hook(Hook(), name='r')
    assert list(rule._post_update_hooks) == ['r']


def test_dynamic_loss_scaling_warns_for_each_non_finite_gradient():
    # Chainer's warning, once per parameter, naming it, the iteration and
    # the loss scale; the update is skipped
    import chainer.links as L
    model = chainer.Chain()
    with model.init_scope():
        model.l = L.Linear(2, 2)
    opt = optimizers.SGD().setup(model)
    opt.loss_scaling(interval=2)
    before = model.l.W.array.copy()
    x = np.full((1, 2), 1e30, np.float32)

    def loss():
        return chainer.functions.sum(model.l(x) * 1e30)
    with np.errstate(all='ignore'), pytest.warns(UserWarning) as record:
        opt.update(loss)
    messages = [str(w.message) for w in record
                if 'Non finite' in str(w.message)]
    assert messages == [
        'Non finite number found in param.grad of /l/W (iteration: 0, '
        'loss_scale: 1.0)']
    np.testing.assert_array_equal(model.l.W.array, before)
