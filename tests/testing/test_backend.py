import sys
import types
import unittest

import numpy
import pytest

import chainer
from chainer import testing
from chainer.backends import cuda


def test_backend_config_defaults():
    c = testing.BackendConfig({})
    assert c.use_cuda is False and c.cuda_device is None
    assert c.use_cudnn == 'never' and c.use_ideep == 'never'
    assert c.xp is numpy
    assert c.device.name == '@numpy'
    assert repr(c) == (
        "<BackendConfig use_chainerx=False chainerx_device=None "
        "use_cuda=False cuda_device=None use_cudnn='never' "
        "cudnn_deterministic=False autotune=False "
        "cudnn_fast_batch_normalization=False use_ideep='never'>")
    assert c.get_func_str() == (
        'use_chainerx_false__chainerx_device_None__use_cuda_false__'
        'cuda_device_None__use_cudnn_never__cudnn_deterministic_false__'
        'autotune_false__cudnn_fast_batch_normalization_false__'
        'use_ideep_never')
    assert c.get_pytest_marks() == []


def test_backend_config_cuda_defaults_and_marks():
    c = testing.BackendConfig({'use_cuda': True, 'use_cudnn': 'always'})
    assert c.cuda_device == 0
    names = [m.name for m in c.get_pytest_marks()]
    assert 'gpu' in names and 'cudnn' in names
    skip = [m for m in c.get_pytest_marks() if m.name == 'skipif']
    assert bool(skip[0].args[0]) == (not cuda.available)


def test_backend_config_errors():
    with pytest.raises(ValueError, match='unknown parameter'):
        testing.BackendConfig({'use_gpu': True})
    with pytest.raises(ValueError, match='use_cudnn'):
        testing.BackendConfig({'use_cudnn': 'sometimes'})
    with pytest.raises(TypeError):
        testing.BackendConfig([('use_cuda', True)])


def test_backend_config_context_and_get_array():
    c = testing.BackendConfig({'use_cudnn': 'auto', 'autotune': True})
    before = chainer.config.use_cudnn
    with c:
        assert chainer.config.use_cudnn == 'auto'
        assert chainer.config.autotune is True
    assert chainer.config.use_cudnn == before
    x = numpy.arange(3.)
    y = c.get_array(x)
    assert isinstance(y, numpy.ndarray)
    numpy.testing.assert_array_equal(y, x)
    a, b = c.get_array((x, x))
    assert a.shape == b.shape == (3,)


def test_inject_backend_tests_generates_one_class_per_config():
    mod = types.ModuleType('_fake_backend_mod')
    sys.modules[mod.__name__] = mod
    calls = []

    def test_a(self, backend_config):
        calls.append(('a', backend_config.use_cuda))

    def test_plain(self):
        calls.append(('plain',))

    cls = type('TestBE', (unittest.TestCase,), {
        '__module__': mod.__name__, 'test_a': test_a,
        'test_plain': test_plain})
    bundle = testing.inject_backend_tests(
        ['test_a'], [{}, {'use_cuda': True}])(cls)
    names = sorted(k for k in vars(mod) if k.startswith('TestBE_'))
    assert len(names) == 2 and len(bundle.cases) == 2
    cpu = getattr(mod, 'TestBE_' + testing.BackendConfig({}).get_func_str())
    cpu('test_a').test_a()
    cpu('test_plain').test_plain()
    assert calls == [('a', False), ('plain',)]
    gpu = [getattr(mod, n) for n in names if 'use_cuda_true' in n][0]
    marks = [m.name for m in gpu.test_a.pytestmark]
    assert 'gpu' in marks


_received = []


@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestInjected(unittest.TestCase):

    def test_send(self, backend_config):
        x = backend_config.get_array(numpy.ones((2, 3), numpy.float32))
        assert backend_config.xp.asarray(x).shape == (2, 3)
        assert chainer.backend.get_array_module(x) is backend_config.xp
        _received.append(backend_config)


@testing.inject_backend_tests(['test_plain'], [{}])
@testing.parameterize({'n': 1}, {'n': 2})
class TestInjectedPlain:

    def test_plain(self, backend_config):
        assert self.n in (1, 2)
        assert backend_config.device.name == '@numpy'
