import os
import warnings

import numpy
import pytest

import chainer
from chainer import initializers
from chainer import link_hook
from chainer.link import Chain, ChainList, Link
from chainer.link_hook import LinkHook
from chainer.serializers.npz import DictionarySerializer, NpzDeserializer
from chainer.variable import Parameter


class Linear(Link):

    def __init__(self, n_in, n_out):
        super().__init__()
        self.n_in, self.n_out = n_in, n_out
        with self.init_scope():
            shape = None if n_in is None else (n_out, n_in)
            self.W = Parameter(initializers.Normal(1.0), shape)
            self.b = Parameter(initializers.Zero(), (n_out,))

    def forward(self, x):
        if not self.W.is_initialized:
            self.W.initialize((self.n_out, x.shape[1]))
        return x @ self.W.array.T + self.b.array

    @property
    def printable_specs(self):
        yield 'in_size', self.n_in
        yield 'out_size', self.n_out


class Net(Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.z = Linear(3, 4)
            self.a = Linear(4, 2)
            self.p = Parameter(numpy.zeros(3, numpy.float32))
            self.q = Parameter()
        self.add_persistent('n', 3)
        self.add_persistent('arr', numpy.ones(2))


class _Rule:
    enabled = True


# --- registration -------------------------------------------------------------

def test_init_scope_registers_params():
    n = Net()
    assert n._params == {'p', 'q'} and n._children == {'a', 'z'}
    assert n._persistent == {'n', 'arr'}
    assert n.p.name == 'p' and n.z.name == 'z' and n.name is None
    assert not n.within_init_scope
    with n.init_scope():
        assert n.within_init_scope
        n.v = chainer.Variable(numpy.zeros(2))  # not a Parameter
        n.x = numpy.zeros(2)
    assert n._params == {'p', 'q'}
    n.outside = Linear(1, 1)
    n.outside_p = Parameter(numpy.zeros(1))
    assert 'outside' not in n._children and 'outside_p' not in n._params


def test_param_name_is_attribute_name():
    link = Link()
    with link.init_scope():
        link.w = Parameter(numpy.zeros(2), name='foo')
    assert link.w.name == 'w'


def test_missing_super_init():
    class Bad(Link):
        def __init__(self):
            with self.init_scope():
                self.p = Parameter(numpy.zeros(2))
    with pytest.raises(RuntimeError, match='__init__'):
        Bad()


def test_add_param_and_persistent():
    link = Link()
    link.add_param('w', (2, 3))
    assert link.w.dtype == numpy.float32 and numpy.isnan(link.w.array).all()
    link.add_param('v', 2, initializer=numpy.arange(2.))
    numpy.testing.assert_array_equal(link.v.array, [0, 1])
    link.add_param('d', (2,), dtype=numpy.float64)
    assert link.d.dtype == numpy.float64
    link.add_param('u')
    assert not link.u.is_initialized
    assert link._params == {'w', 'v', 'd', 'u'}
    with pytest.raises(AttributeError, match='parameter w: attribute exists'):
        link.add_param('w', (2,))
    link.add_persistent('s', 5)
    with pytest.raises(AttributeError, match='persistent value s'):
        link.add_persistent('s', 1)
    link.x = 4
    link.register_persistent('x')
    assert link._persistent == {'s', 'x'}
    with pytest.raises(AttributeError, match='non-existent attribute nope'):
        link.register_persistent('nope')
    del link.w, link.s
    assert 'w' not in link._params and 's' not in link._persistent


def test_legacy_params_kwargs():
    link = Link(a=(2, 3), b=3, c=((2,), numpy.float64))
    assert link.a.shape == (2, 3) and link.b.shape == (3,)
    assert link.c.dtype == numpy.float64


def test_chain_add_link_and_getitem():
    c = Chain(first=Linear(1, 1))
    c.add_link('x', Linear(2, 2))
    assert c['x'] is c.x and c.x.name == 'x' and c._children == {'first',
                                                                  'x'}
    with pytest.raises(AttributeError, match='link x: attribute exists'):
        c.add_link('x', Linear(1, 1))
    with pytest.raises(TypeError, match='non-link'):
        c.add_link('y', 3)
    with pytest.raises(AttributeError):
        c['nope']
    del c.x
    assert c._children == {'first'}


# --- traversal ----------------------------------------------------------------

def test_traversal_is_sorted():
    n = Net()
    assert [p for p, _ in n.namedparams()] == [
        '/p', '/q', '/a/W', '/a/b', '/z/W', '/z/b']
    assert [p for p, _ in n.namedparams(include_uninit=False)] == [
        '/p', '/a/W', '/a/b', '/z/W', '/z/b']
    assert [p for p, _ in n.namedlinks()] == ['/', '/a', '/z']
    assert [p for p, _ in n.namedlinks(skipself=True)] == ['/a', '/z']
    assert list(n.children()) == [n.a, n.z]
    assert list(n.links())[0] is n and len(list(n.params())) == 6
    assert list(Link().children()) == []


def test_count_params_warns_for_uninitialized():
    with pytest.warns(UserWarning, match="'/q' has not been initialized"):
        assert Net().count_params() == 3 + 12 + 4 + 8 + 2


def test_chainlist():
    cl = ChainList(Linear(2, 2), Net())
    assert [p for p, _ in cl.namedparams()][:3] == ['/0/W', '/0/b', '/1/p']
    assert [p for p, _ in cl.namedlinks()] == ['/', '/0', '/1', '/1/a',
                                               '/1/z']
    cl.append(Linear(1, 1))
    cl.insert(0, Linear(3, 3))
    assert len(cl) == 4 and [c.name for c in cl] == ['0', '1', '2', '3']
    cl[0] = Linear(5, 5)
    assert cl[0].W.shape == (5, 5) and cl[0].name == '0'
    del cl[0]
    assert len(cl) == 3 and cl[0].name == '0'
    assert isinstance(cl[0:2], list)
    assert cl.pop().W.shape == (1, 1)
    with pytest.raises(TypeError, match='Link'):
        cl.append(3)
    assert isinstance(cl, __import__('collections').abc.MutableSequence)


# --- grads, copies, update flags ---------------------------------------------

def test_cleargrads_zerograds_addgrads():
    a, b = Net(), Net()
    a.z.W.grad = numpy.full((4, 3), 2, numpy.float32)
    b.z.W.grad = numpy.ones((4, 3), numpy.float32)
    b.z.b.grad = numpy.ones(4, numpy.float32)
    a.z.b.cleargrad()
    a.addgrads(b)
    numpy.testing.assert_array_equal(a.z.W.grad, 3)
    numpy.testing.assert_array_equal(a.z.b.grad, 1)
    a.cleargrads()
    assert all(p.grad is None for p in a.params(include_uninit=False))
    with pytest.warns(DeprecationWarning, match='zerograds'):
        a.zerograds()
    numpy.testing.assert_array_equal(a.z.W.grad, 0)


def test_copyparams():
    a, b = Net(), Net()
    b.arr[:] = 9
    b.n = 5
    a.copyparams(b)
    numpy.testing.assert_array_equal(a.z.W.array, b.z.W.array)
    assert a.z.W.array is not b.z.W.array
    numpy.testing.assert_array_equal(a.arr, 9)
    assert a.n == 5
    b.arr[:] = 1
    a.copyparams(b, copy_persistent=False)
    numpy.testing.assert_array_equal(a.arr, 9)


@pytest.mark.parametrize('mode', ['share', 'copy', 'init'])
def test_copy_modes(mode):
    n = Net()
    n.z.W.grad = numpy.ones((4, 3), numpy.float32)
    c = n.copy(mode=mode)
    assert c is not n and c.z is not n.z and c.z.W is not n.z.W
    assert c.name is None and c.z.name == 'z'
    assert c._params == n._params and c._params is not n._params
    assert not c.q.is_initialized
    assert (c.z.W.array is n.z.W.array) == (mode == 'share')
    assert (c.arr is n.arr) == (mode == 'share')
    same = numpy.array_equal(c.z.W.array, n.z.W.array)
    assert same == (mode != 'init')
    if mode == 'share':
        assert c.z.W.grad is None
    elif mode == 'copy':
        numpy.testing.assert_array_equal(c.z.W.grad, 1)
    else:
        assert numpy.isnan(c.z.W.grad).all()
        numpy.testing.assert_array_equal(c.z.b.array, 0)  # Zero initializer


def test_copy_share_mode_shares_later_array_assignments():
    # As Chainer: the copies share the data cell, not only the array.
    lin = Linear(2, 3)
    c = lin.copy()
    new = numpy.ones((3, 2), numpy.float32)
    lin.W.array = new
    assert c.W.array is new and c.W.shape == (3, 2)
    c.W.data = numpy.zeros((3, 2), numpy.float32)
    assert lin.W.array is c.W.array
    lin.W.grad = numpy.ones((3, 2), numpy.float32)
    assert c.W.grad is None
    # a lazy parameter initialized later shows on its copy too
    link = Link()
    with link.init_scope():
        link.p = Parameter()
    cp = link.copy()
    assert cp.p.grad is None and cp.p.array is None
    link.p.initialize((2,))
    assert cp.p.array is link.p.array
    # 'copy' does not share
    deep = lin.copy(mode='copy')
    lin.W.array = numpy.full((3, 2), 5, numpy.float32)
    numpy.testing.assert_array_equal(deep.W.array, 0)


def test_copy_modes_keep_the_name_except_share():
    lin = Linear(2, 3)
    lin.name = 'a'
    assert lin.copy().name is None
    assert lin.copy(mode='copy').name == 'a'
    assert lin.copy(mode='init').name == 'a'


def test_copy_bad_mode_and_repeat():
    with pytest.raises(ValueError, match="'mode' argument"):
        Net().copy(mode='bad')
    lin = Linear(2, 2)
    r = lin.repeat(3)
    assert type(r).__name__ == 'Sequential' and len(r) == 3
    assert r[0] is not lin
    assert not numpy.array_equal(r[0].W.array, lin.W.array)
    r = lin.repeat(2, mode='copy')
    numpy.testing.assert_array_equal(r[1].W.array, lin.W.array)
    assert lin.repeat(2, mode='share')[0].W.array is lin.W.array
    assert len(lin.repeat(0)) == 0
    with pytest.raises(ValueError):
        lin.repeat(2, mode='x')


def test_update_enabled():
    n = Net()
    assert not n.update_enabled  # no optimizer, no rules
    for p in n.params():
        p.update_rule = _Rule()
    assert n.update_enabled
    n.disable_update()
    assert not n.update_enabled and not n.z.W.update_rule.enabled
    n.z.enable_update()
    assert n.update_enabled and not n.a.W.update_rule.enabled


# --- devices -------------------------------------------------------------------

def test_device_methods():
    n = Net()
    assert n.xp is numpy and n.device == chainer.get_device('@numpy')
    assert n.to_cpu() is n and n.to_device('@numpy') is n
    assert n.to_device(-1) is n and n.from_chx() is n
    assert isinstance(n.arr, numpy.ndarray)
    with pytest.raises(RuntimeError):
        n.to_intel64()
    with pytest.raises(RuntimeError):
        n.to_chx()
    if not chainer.backends.cuda.available:
        with pytest.raises(RuntimeError):
            n.to_gpu()


def test_device_resident_overrides():
    with pytest.raises(TypeError, match='to_device'):
        class Bad(Link):
            def to_device(self, device):
                return self
    with pytest.warns(DeprecationWarning, match='to_cpu'):
        class Old(Link):
            def to_cpu(self):
                return self


def test_overriding_device_resident_methods_in_chainer_words():
    with pytest.raises(TypeError, match=r"^method 'to_device' is final\.$"):
        class Bad(Chain):
            def to_device(self, device):
                return self
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')

        class Old(Chain):
            def to_gpu(self, device=None):
                return self

            def to_cpu(self):
                return self

        # A subclass of an overrider overrides Old's method, not Chainer's:
        # no second warning, as in Chainer.
        class Older(Old):
            def to_cpu(self):
                return self
    assert [(str(x.message), x.category) for x in w] == [
        ("Overriding method 'to_gpu'.", DeprecationWarning),
        ("Overriding method 'to_cpu'.", DeprecationWarning)]
    assert Older._overridden_to_methods == ('to_cpu', 'to_gpu')


def test_visitor_sees_everything():
    from chainer.device_resident import DeviceResidentsVisitor

    class V(DeviceResidentsVisitor):
        def __init__(self):
            self.links, self.arrays, self.vars = [], [], []

        def visit_device_resident(self, r):
            self.links.append(r)

        def visit_array(self, arr):
            self.arrays.append(arr)
            return arr

        def visit_variable(self, p):
            self.vars.append(p)
    n, v = Net(), V()
    n.device_resident_accept(v)
    assert len(v.links) == 3 and len(v.vars) == 6 and len(v.arrays) == 1


# --- calling and hooks ---------------------------------------------------------

class Recorder(LinkHook):

    def __init__(self, name, log):
        self.name, self.log = name, log

    def added(self, link):
        self.log.append(('added', self.name, link))

    def deleted(self, link):
        self.log.append(('deleted', self.name, link))

    def forward_preprocess(self, args):
        self.log.append(('pre', self.name, args.forward_name, args.args,
                         args.kwargs))

    def forward_postprocess(self, args):
        self.log.append(('post', self.name, args.out))


class Echo(Link):

    def forward(self, x, y=1):
        return x + y


def test_call_runs_hooks_around_forward():
    log = []
    e = Echo()
    assert e.add_hook(Recorder('a', log)) is e
    e.add_hook(Recorder('x', log), name='b')
    assert list(e.local_link_hooks) == ['a', 'b']
    with Recorder('g', log):
        assert e(1, y=2) == 3
    assert log == [
        ('added', 'a', e), ('added', 'x', e), ('added', 'g', None),
        ('pre', 'g', 'forward', (1,), {'y': 2}),
        ('pre', 'a', 'forward', (1,), {'y': 2}),
        ('pre', 'x', 'forward', (1,), {'y': 2}),
        ('post', 'g', 3), ('post', 'a', 3), ('post', 'x', 3),
        ('deleted', 'g', None)]
    assert link_hook._get_link_hooks() == {}
    with pytest.raises(KeyError, match='already exists'):
        e.add_hook(Recorder('a', log))
    e.delete_hook('a')
    assert log[-1] == ('deleted', 'a', e)
    with pytest.raises(KeyError, match='does not exist'):
        e.delete_hook('a')
    with pytest.raises(TypeError, match='LinkHook'):
        e.add_hook(3)
    with pytest.raises(KeyError, match='already exists'):
        with LinkHook(), LinkHook():
            pass
    assert link_hook._get_link_hooks() == {}
    assert LinkHook.name == 'LinkHook'


def test_call_without_forward():
    with pytest.raises(AttributeError, match='forward'):
        Link()(1)


# --- printing -------------------------------------------------------------------

def test_str():
    assert str(Link()) == 'Link()' and str(Chain()) == 'Chain()'
    assert str(ChainList()) == 'ChainList()'
    assert str(Linear(3, 2)) == 'Linear(in_size=3, out_size=2)'
    cl = ChainList(Linear(2, 2), Net())
    assert str(cl) == '\n'.join([
        'ChainList(',
        '  (0): Linear(in_size=2, out_size=2),',
        '  (1): Net(',
        '    (a): Linear(in_size=4, out_size=2),',
        '    (z): Linear(in_size=3, out_size=4),',
        '  ),',
        ')'])
    assert repr(Link()).startswith('<chainer.link.Link object')
    assert list(Link().printable_specs) == []


# --- serialization ---------------------------------------------------------------

def test_serialize_round_trip_and_lazy_init():
    src = Net()
    src.q.initialize((5,))
    src.n = 8
    s = DictionarySerializer()
    s.save(src)
    assert sorted(s.target) == ['a/W', 'a/b', 'arr', 'n', 'p', 'q', 'z/W',
                                'z/b']
    dst = Net()
    NpzDeserializer(s.target).load(dst)
    assert dst.q.shape == (5,) and dst.n == 8
    numpy.testing.assert_array_equal(dst.q.array, src.q.array)
    numpy.testing.assert_array_equal(dst.z.W.array, src.z.W.array)
    cl = ChainList(Linear(2, 2))
    s = DictionarySerializer()
    s.save(cl)
    assert sorted(s.target) == ['0/W', '0/b']


def test_to_cpu_is_deprecated_as_in_chainer():
    link = chainer.links.Linear(2, 3)
    with pytest.warns(DeprecationWarning,
                      match=r"to_cpu is deprecated. Please use "
                            r"to_device\('@numpy'\) instead."):
        assert link.to_cpu() is link
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        link.to_device('@numpy')   # the way that does not warn


def test_call_without_link_init_raises_runtime_error():
    class Forgetful(Link):
        def __init__(self):
            pass

        def forward(self, x):
            return x

    with pytest.raises(RuntimeError,
                       match=r'^Link\.__init__\(\) has not been called\.$'):
        Forgetful()(1)


def test_call_injected_by_a_mixin_replaces_forward():
    calls = []

    class CallMixin:
        def __call__(self, *args, **kwargs):
            calls.append((args, kwargs))
            return 3

    class Injected(Link, CallMixin):
        pass

    assert Injected()(1, a=2) == 3 and calls == [((1,), {'a': 2})]


def test_overridden_to_cpu_is_called_by_to_device_and_to_cpu():
    with pytest.warns(DeprecationWarning):
        class Child(Link):
            called = 0

            def to_cpu(self):
                super().to_cpu()
                self.called += 1

    class Parent(Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.child = Child()

    p = Parent()
    with pytest.warns(DeprecationWarning):
        p.to_device('@numpy')
    assert p.child.called == 1
    with pytest.warns(DeprecationWarning):
        p.to_cpu()
    assert p.child.called == 2
    with pytest.warns(DeprecationWarning):
        p.child.to_cpu()  # called on itself: no recursion
    assert p.child.called == 3


def test_serialize_with_a_plain_callable_initializes_parameters():
    link = Link()
    with link.init_scope():
        link.x = Parameter()
    link.add_persistent('z', None)
    seen = []

    def serializer(key, value):
        seen.append((key, value))
        return numpy.arange(3, dtype=numpy.float32)

    link.serialize(serializer)
    assert seen == [('x', None), ('z', None)]
    numpy.testing.assert_array_equal(link.x.array, [0, 1, 2])
    numpy.testing.assert_array_equal(link.z, [0, 1, 2])


def test_device_id_is_deprecated_in_chainer_words():
    link = chainer.links.Linear(2, 3)
    with pytest.warns(DeprecationWarning) as w:
        assert link._device_id is None
    assert [str(m.message) for m in w] == [
        'Link._device_id is left only for backward compatibility and likely '
        'to be removed. Use Link.device instead.']


def test_init_scope_refuses_a_link_over_an_existing_attribute():
    class Base(chainer.Chain):
        tag = 1

        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.l1 = chainer.links.Linear(3, 2)
                self.p = chainer.Parameter(numpy.ones(2, numpy.float32))
            self.x = 5

    m = Base()
    for name in ('l1', 'p', 'x', 'tag'):
        with pytest.raises(AttributeError) as info:
            with m.init_scope():
                setattr(m, name, chainer.links.Linear(2, 2))
        assert str(info.value) == (
            'cannot register a new link {}: attribute exists'.format(name))
    assert [n for n, _ in m.namedparams()] == ['/p', '/l1/W', '/l1/b']


def test_deprecation_warnings_point_into_chainer_as_chainer_does():
    # Chainer warns at its own line (so the default filters hide them) and
    # Link.zerograds lets every parameter warn too.
    link = chainer.links.Linear(2, 3)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        link.zerograds()
        link._device_id
    assert [str(x.message) for x in w] == [
        'Link.zerograds is deprecated. Use Link.cleargrads instead.',
        'Variable.zerograd is deprecated. Use Variable.cleargrad instead.',
        'Variable.zerograd is deprecated. Use Variable.cleargrad instead.',
        'Link._device_id is left only for backward compatibility and likely '
        'to be removed. Use Link.device instead.']
    assert all(x.filename.endswith(
        os.path.join('chainer', 'link.py')) or x.filename.endswith(
        os.path.join('chainer', 'variable.py')) for x in w)
