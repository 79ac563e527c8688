import sys
import types
import unittest

import numpy
import pytest

import chainer.functions as F
from chainer import testing


def _generate(**kwargs):
    mod = types.ModuleType('_fake_unary_mod')
    sys.modules[mod.__name__] = mod
    cls = type('TestU', (unittest.TestCase,), {'__module__': mod.__name__})
    mod.TestU = cls
    mod.TestU = testing.unary_math_function_unittest(F.exp, **kwargs)(cls)
    return {k: v for k, v in vars(mod).items() if k.startswith('TestU_')}


def _options(classes, dtype):
    name = 'TestU_param_{}_{{dtype={}, shape=(3, 2)}}'.format(
        {'float16': 0, 'float32': 2, 'float64': 4}[dtype], dtype)
    case = classes[name]('test_forward_cpu')
    case.setUp()
    return (case.forward_options, case.backward_options,
            case.double_backward_options)


def test_class_names():
    assert sorted(_generate()) == [
        'TestU_param_0_{dtype=float16, shape=(3, 2)}',
        'TestU_param_1_{dtype=float16, shape=()}',
        'TestU_param_2_{dtype=float32, shape=(3, 2)}',
        'TestU_param_3_{dtype=float32, shape=()}',
        'TestU_param_4_{dtype=float64, shape=(3, 2)}',
        'TestU_param_5_{dtype=float64, shape=()}']


def test_default_options():
    classes = _generate()
    fwd, bwd, dbwd = _options(classes, 'float16')
    assert fwd == {'atol': 9.77e-4, 'rtol': 9.77e-4}
    assert bwd == dbwd == {'eps': 2 ** -4, 'atol': 2 ** -4, 'rtol': 2 ** -4,
                           'dtype': numpy.float64}
    fwd, bwd, dbwd = _options(classes, 'float32')
    assert fwd == {'atol': 1e-4, 'rtol': 1e-4}
    assert bwd == dbwd == {'atol': 1e-4, 'rtol': 1e-4, 'dtype': numpy.float64}


def test_given_options_update_the_defaults():
    classes = _generate(forward_options={'atol': 1e-3},
                        backward_options={'eps': 1e-3},
                        double_backward_options={'rtol': 7})
    fwd, bwd, dbwd = _options(classes, 'float16')
    # float16 keeps its wider defaults for the keys not given
    assert fwd == {'atol': 1e-3, 'rtol': 9.77e-4}
    assert bwd == {'eps': 1e-3, 'atol': 2 ** -4, 'rtol': 2 ** -4,
                   'dtype': numpy.float64}
    assert dbwd == {'eps': 2 ** -4, 'atol': 2 ** -4, 'rtol': 7,
                    'dtype': numpy.float64}
    fwd, bwd, dbwd = _options(classes, 'float64')
    assert fwd == {'atol': 1e-3, 'rtol': 1e-4}
    assert bwd == {'eps': 1e-3, 'atol': 1e-4, 'rtol': 1e-4,
                   'dtype': numpy.float64}


def test_generated_tests_run_and_gpu_ones_are_marked():
    classes = _generate()
    cls = classes['TestU_param_2_{dtype=float32, shape=(3, 2)}']
    for name in ('test_forward_cpu', 'test_backward_cpu',
                 'test_double_backward_cpu'):
        case = cls(name)
        case.setUp()
        getattr(case, name)()
        assert 'gpu' not in [m.name for m in
                             getattr(getattr(cls, name), 'pytestmark', [])]
    for name in ('test_forward_gpu', 'test_backward_gpu',
                 'test_double_backward_gpu'):
        assert 'gpu' in [m.name for m in getattr(cls, name).pytestmark]


def test_no_numpy_function():
    def not_in_numpy(x):
        return x

    with pytest.raises(ValueError):
        testing.unary_math_function_unittest(not_in_numpy)
