import sys
import types
import unittest

import numpy
import pytest

from chainer import testing


def _fake_module(name):
    mod = types.ModuleType(name)
    sys.modules[name] = mod
    return mod


def _decorate(decorator, body=None, name='TestFoo', module='_fake_param_mod',
              base=unittest.TestCase):
    mod = _fake_module(module)
    cls = type(name, (base,), dict(body or {'test_x': lambda self: None},
                                   __module__=module))
    setattr(mod, name, cls)
    bundle = decorator(cls)
    setattr(mod, name, bundle)
    return mod, bundle


def _generated(mod, prefix):
    return {k: v for k, v in vars(mod).items()
            if k.startswith(prefix + '_') and isinstance(v, type)}


def test_product_dict_of_lists():
    assert testing.product({'b': [1, 2], 'a': ['x', 'y']}) == [
        {'a': 'x', 'b': 1}, {'a': 'x', 'b': 2},
        {'a': 'y', 'b': 1}, {'a': 'y', 'b': 2}]
    assert testing.product({}) == [{}]


def test_product_list_of_lists_and_product_dict():
    expected = [{'a': 1, 'b': 3}, {'a': 1, 'c': 4},
                {'a': 2, 'b': 3}, {'a': 2, 'c': 4}]
    assert testing.product_dict([{'a': 1}, {'a': 2}],
                                [{'b': 3}, {'c': 4}]) == expected
    assert testing.product([[{'a': 1}, {'a': 2}],
                            [{'b': 3}, {'c': 4}]]) == expected


def test_product_errors():
    with pytest.raises(TypeError, match='dict or list'):
        testing.product(3)
    with pytest.raises(TypeError, match='list of lists'):
        testing.product([{'a': 1}])
    with pytest.raises(TypeError, match='list of lists of dicts'):
        testing.product([[1]])
    with pytest.raises(ValueError):
        testing.product({'a,b': [(1, 2, 3)]})


def test_product_with_comma_joined_keys():
    assert testing.product({'b,c': [(1, 2), (5, 6)], 'a': [3, 4]}) == [
        {'a': 3, 'b': 1, 'c': 2}, {'a': 3, 'b': 5, 'c': 6},
        {'a': 4, 'b': 1, 'c': 2}, {'a': 4, 'b': 5, 'c': 6}]
    # the key order of each dict is that of Chainer's
    assert [list(d) for d in testing.product(
        {'z': [0], 'target,fan_option': [('x', 'fan_in')]})] == [
            ['target', 'fan_option', 'z']]


def test_parameterize_with_comma_product_sets_each_attribute():
    mod, _ = _decorate(testing.parameterize(*testing.product(
        {'target,fan_option': [('a', 'fan_in'), ('b', 'fan_out')]})),
        name='TestComma')
    classes = _generated(mod, 'TestComma')
    assert sorted(classes) == [
        "TestComma_param_0_{fan_option='fan_in', target='a'}",
        "TestComma_param_1_{fan_option='fan_out', target='b'}"]
    c = classes["TestComma_param_1_{fan_option='fan_out', target='b'}"]
    assert (c.target, c.fan_option) == ('b', 'fan_out')


def test_parameterize_generates_named_classes():
    mod, bundle = _decorate(testing.parameterize(
        {'a': 1, 'b': 0.5}, {'a': 2, 'b': 'x'}))
    classes = _generated(mod, 'TestFoo')
    assert sorted(classes) == ["TestFoo_param_0_{a=1, b=0.5}",
                               "TestFoo_param_1_{a=2, b='x'}"]
    c0 = classes['TestFoo_param_0_{a=1, b=0.5}']
    assert (c0.a, c0.b) == (1, 0.5)
    assert issubclass(c0, unittest.TestCase)
    assert c0.__module__ == '_fake_param_mod'
    # The base name is bound to a bundle, which pytest does not collect.
    assert not isinstance(mod.TestFoo, type)
    assert sorted(c.__name__ for c in bundle.cases) == sorted(classes)


def _name(value, key='x'):
    mod, _ = _decorate(testing.parameterize({key: value}), name='TestN')
    name, = _generated(mod, 'TestN')
    assert name.startswith('TestN_param_0_{')
    return name[len('TestN_param_0_{'):-1]


def _f(x):
    return x


class _C:

    def __call__(self, x):
        return x

    def method(self, x):
        return x


def test_parameterize_value_names_as_chainer():
    # types and functions by name; values by repr as NumPy 1 wrote them
    assert _name(numpy.float32) == 'x=float32'
    assert _name(numpy.bool_) == 'x=bool_'
    assert _name(numpy.exp) == 'x=exp'
    assert _name(numpy) == 'x=numpy'
    assert _name(int) == 'x=int'
    assert _name(_f) == 'x=_f'
    assert _name(lambda: 1) == 'x=<lambda>'
    assert _name(_C().method) == 'x=method'
    assert _name(None) == 'x=None'
    assert _name('str') == "x='str'"
    assert _name(1.5) == 'x=1.5'
    assert _name(numpy.float32(1.0)) == 'x=1.0'
    assert _name(numpy.bool_(True)) == 'x=True'
    assert _name(numpy.int64(3)) == 'x=3'
    assert _name(numpy.float16(0.1)) == 'x=0.1'
    assert _name(numpy.complex64(1 + 2j)) == 'x=(1+2j)'
    assert _name((numpy.float32(1.5),)) == 'x=(1.5,)'
    assert _name([numpy.float64(0.1)]) == 'x=[0.1]'
    assert _name({'k': numpy.float32(2)}) == "x={'k': 2.0}"
    assert _name(numpy.dtype('f')) == "x=dtype('float32')"
    assert _name(numpy.array([1, 2])) == 'x=array([1, 2])'
    assert _name([numpy.bool_]) == "x=[<class 'numpy.bool_'>]"
    assert _name((3, 2)) == 'x=(3, 2)'


def test_parameterize_shortens_long_values_to_100_characters():
    assert _name('a' * 98) == "x='" + 'a' * 98 + "'"  # 100: kept
    s = _name('a' * 99)  # 101 characters: cut
    assert s == "x='" + 'a' * 47 + '...' + 'a' * 48 + "'"
    assert len(s) == len('x=') + 100
    assert _name(list(range(60))) == (
        'x=[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 1..., 48, 49, '
        '50, 51, 52, 53, 54, 55, 56, 57, 58, 59]')


def test_parameterize_sorts_keys():
    mod, _ = _decorate(testing.parameterize({'b': 1, 'a': 2, 'C': 3}),
                       name='TestK')
    assert list(_generated(mod, 'TestK')) == ['TestK_param_0_{C=3, a=2, b=1}']


def test_parameterize_function_values_stay_plain_callables():
    lam = lambda x, y=10: x + y  # NOQA
    obj = _C()
    bound = obj.method
    seen = {}

    def test_x(self):
        seen['lam'] = self.lam(1)
        seen['lam2'] = self.lam(1, y=2)
        seen['f'] = self.f
        seen['obj'] = self.obj(3)
        seen['bound'] = self.bound(4)
        seen['sm'] = self.sm(5)
        seen['cls_lam'] = type(self).lam(6)

    mod, _ = _decorate(testing.parameterize(
        {'lam': lam, 'f': _f, 'obj': obj, 'bound': bound,
         'sm': staticmethod(_f)}), body={'test_x': test_x}, name='TestFn')
    cls, = _generated(mod, 'TestFn').values()
    cls('test_x').test_x()
    assert seen == {'lam': 11, 'lam2': 3, 'f': _f, 'obj': 3, 'bound': 4,
                    'sm': 5, 'cls_lam': 16}


def test_parameterize_stacks():
    deco = testing.parameterize({'a': 1}, {'a': 2})
    inner = testing.parameterize({'b': 1}, {'b': 2})
    mod, bundle = _decorate(lambda c: deco(inner(c)), name='TestBaz')
    names = sorted(_generated(mod, 'TestBaz'))
    assert names == [
        'TestBaz_param_0_{b=1}_param_0_{a=1}',
        'TestBaz_param_0_{b=1}_param_1_{a=2}',
        'TestBaz_param_1_{b=2}_param_0_{a=1}',
        'TestBaz_param_1_{b=2}_param_1_{a=2}']
    c = getattr(mod, names[-1])
    assert (c.a, c.b) == (2, 2)
    assert len(bundle.cases) == 4


def test_parameterize_empty_generates_nothing():
    mod, bundle = _decorate(testing.parameterize())
    assert _generated(mod, 'TestFoo') == {}
    assert bundle.cases == []


def test_parameterize_plain_class_and_override():
    mod, _ = _decorate(testing.parameterize({'a': 1}),
                       body={'a': 5, 'test_x': lambda self: self.a},
                       base=object, name='TestPlain')
    cls, = _generated(mod, 'TestPlain').values()
    assert cls().test_x() == 1


def test_parameterize_failure_names_parameters():
    def test_fail(self):
        assert self.a == 0, 'boom'
    mod, _ = _decorate(testing.parameterize({'a': 3}),
                       body={'test_fail': test_fail}, name='TestFail')
    cls, = _generated(mod, 'TestFail').values()
    with pytest.raises(AssertionError) as info:
        cls('test_fail').test_fail()
    assert str(info.value).startswith('boom')
    note, = info.value.__notes__
    assert note == ('Parameterized test failed.\n\n'
                    'Base test method: TestFail.test_fail\n'
                    'Test parameters:\n  a: 3')


def test_parameterize_failure_keeps_the_exception():
    from chainer.utils import type_check
    raised = []

    def test_invalid(self):
        e = type_check.InvalidType('x > 1', 'x = 0')
        raised.append(e)
        raise e

    def test_key(self):
        raise KeyError('k')

    mod, _ = _decorate(testing.parameterize({'a': 3}),
                       body={'test_invalid': test_invalid,
                             'test_key': test_key}, name='TestKeep')
    cls, = _generated(mod, 'TestKeep').values()
    with pytest.raises(type_check.InvalidType) as info:
        cls('test_invalid').test_invalid()
    # the very object raised: type, arguments, message and traceback kept
    assert info.value is raised[0]
    assert type(info.value) is type_check.InvalidType
    assert info.value.expect == 'x > 1' and info.value.actual == 'x = 0'
    assert str(info.value) == 'Expect: x > 1\nActual: x = 0'
    assert info.traceback[-1].name == 'test_invalid'
    assert 'a: 3' in info.value.__notes__[0]
    with pytest.raises(KeyError) as info:
        cls('test_key').test_key()
    assert info.value.args == ('k',)


def test_parameterize_failure_as_pytest_reports_it(tmp_path):
    import subprocess
    test_file = tmp_path / 'test_param_note.py'
    test_file.write_text(
        'import unittest\n'
        'from chainer import testing\n'
        'from chainer.utils import type_check\n'
        '@testing.parameterize({"a": 1, "f": len})\n'
        'class TestF(unittest.TestCase):\n'
        '    def test_it(self):\n'
        '        raise type_check.InvalidType("x > 1", "x = 0")\n')
    out = subprocess.run(
        [sys.executable, '-m', 'pytest', '-q', '-p', 'no:cacheprovider',
         str(test_file)], capture_output=True, text=True, cwd=tmp_path)
    text = out.stdout
    assert 'E       chainer.utils.type_check.InvalidType: Expect: x > 1' \
        in text
    assert 'E       Actual: x = 0' in text
    assert 'Base test method: TestF.test_it' in text
    assert 'E         f: <built-in function len>' in text
    assert 'TypeError' not in text
    assert '1 failed' in text


def test_parameterize_skip_passes_through():
    def test_skip(self):
        raise unittest.SkipTest('later')
    mod, _ = _decorate(testing.parameterize({'a': 3}),
                       body={'test_skip': test_skip}, name='TestSkip')
    cls, = _generated(mod, 'TestSkip').values()
    with pytest.raises(unittest.SkipTest):
        cls('test_skip').test_skip()


def test_from_pytest_parameterize():
    assert testing.from_pytest_parameterize('a', [1, 2]) == [
        {'a': 1}, {'a': 2}]
    assert testing.from_pytest_parameterize('a, b', [(1, 2), (3, 4)]) == [
        {'a': 1, 'b': 2}, {'a': 3, 'b': 4}]
    with pytest.raises(ValueError):
        testing.from_pytest_parameterize('a,b', [(1, 2, 3)])


def test_parameterize_pytest():
    mod, _ = _decorate(testing.parameterize_pytest('a,b', [(1, 2), (3, 4)]),
                       name='TestPP')
    classes = _generated(mod, 'TestPP')
    assert sorted((c.a, c.b) for c in classes.values()) == [(1, 2), (3, 4)]


# Collected and run by pytest: the generated classes carry the parameters.
_seen = []


@testing.parameterize(*testing.product({'n': [1, 2], 'k': [3]}))
class TestRealParameterized(unittest.TestCase):

    def test_attrs(self):
        assert self.n in (1, 2) and self.k == 3
        assert type(self).__name__.startswith('TestRealParameterized_param_')


@testing.parameterize_pytest('value', [10, 20])
class TestRealPlain:

    def test_value(self):
        assert self.value in (10, 20)


def test_module_holds_generated_classes():
    mod = sys.modules[__name__]
    names = [k for k in vars(mod) if k.startswith('TestRealParameterized_')]
    assert len(names) == 2
    assert not isinstance(mod.TestRealParameterized, type)
