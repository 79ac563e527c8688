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


def test_parameterize_value_names():
    long = 'x' * 100
    mod, _ = _decorate(testing.parameterize(
        {'f': numpy.exp, 'd': numpy.float32, 'm': numpy, 's': long,
         'n': None}))
    name, = _generated(mod, 'TestFoo')
    assert 'd=float32' in name and 'f=exp' in name and 'm=numpy' in name
    assert 'n=None' in name
    s_part = name.split('s=')[1].rstrip('}')
    assert len(s_part) == 98 and '...' in s_part


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
    msg = str(info.value)
    assert 'Parameterized test failed.' in msg
    assert 'a: 3' in msg and 'boom' in msg


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
