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


_CPU = testing.BackendConfig({}).get_func_str()
_CUDA = testing.BackendConfig({'use_cuda': True}).get_func_str()


def _fake_module(name):
    mod = types.ModuleType(name)
    sys.modules[name] = mod
    return mod


def _marks(method):
    return sorted({m.name for m in getattr(method, 'pytestmark', [])})


def test_backend_config_chainerx_marks():
    native = testing.BackendConfig(
        {'use_chainerx': True, 'chainerx_device': 'native:0'})
    assert _marks_of(native) == ['chainerx', 'skip']
    gpu = testing.BackendConfig(
        {'use_chainerx': True, 'chainerx_device': 'cuda:0'})
    assert _marks_of(gpu) == ['chainerx', 'gpu', 'skip', 'skipif']
    gpu1 = testing.BackendConfig(
        {'use_chainerx': True, 'chainerx_device': 'cuda:1'})
    skipifs = [m for m in gpu1.get_pytest_marks() if m.name == 'skipif']
    assert len(skipifs) == 2  # no CuPy; fewer than 2 GPUs
    assert gpu1.get_func_str().startswith(
        'use_chainerx_true__chainerx_device_cuda:1__use_cuda_false__')


def _marks_of(config):
    return sorted({m.name for m in config.get_pytest_marks()})


def test_backend_config_ideep_and_cuda_marks():
    assert _marks_of(testing.BackendConfig({'use_ideep': 'always'})) == [
        'ideep', 'skip']
    assert _marks_of(testing.BackendConfig({'use_cuda': True})) == [
        'gpu', 'skipif']
    assert _marks_of(testing.BackendConfig(
        {'use_cuda': True, 'use_cudnn': 'always'})) == [
            'cudnn', 'gpu', 'skipif']


def test_inject_backend_tests_with_method_names():
    mod = _fake_module('_fake_backend_mod')
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
    assert sorted(c.__name__ for c in bundle.cases) == [
        'TestBE', 'TestBE_' + _CPU, 'TestBE_' + _CUDA]
    by_name = {c.__name__: c for c in bundle.cases}
    rest, cpu = by_name['TestBE'], by_name['TestBE_' + _CPU]
    gpu = by_name['TestBE_' + _CUDA]
    # The listed methods only in the backends' classes, the others only in
    # the class of the original name.
    assert rest.test_a is None and rest.test_plain is test_plain
    assert cpu.test_plain is None and gpu.test_plain is None
    cpu('test_a').test_a()
    rest('test_plain').test_plain()
    assert calls == [('a', False), ('plain',)]
    assert _marks(gpu.test_a) == ['gpu', 'skipif']
    assert _marks(cpu.test_a) == []
    loader = unittest.TestLoader()
    assert loader.getTestCaseNames(cpu) == ['test_a']
    assert loader.getTestCaseNames(rest) == ['test_plain']


def test_inject_backend_tests_without_method_names():
    mod = _fake_module('_fake_backend_mod2')
    calls = []

    def test_a(self, backend_config):
        calls.append(('a', backend_config.use_cuda))

    def test_plain(self):
        calls.append(('plain',))

    cls = type('TestBE', (unittest.TestCase,), {
        '__module__': mod.__name__, 'test_a': test_a,
        'test_plain': test_plain})
    bundle = testing.inject_backend_tests(
        None, [{}, {'use_cuda': True}])(cls)
    assert sorted(c.__name__ for c in bundle.cases) == [
        'TestBE_' + _CPU, 'TestBE_' + _CUDA]
    assert sorted(k for k in vars(mod) if k.startswith('TestBE')) == [
        'TestBE_' + _CPU, 'TestBE_' + _CUDA]
    cpu = getattr(mod, 'TestBE_' + _CPU)
    gpu = getattr(mod, 'TestBE_' + _CUDA)
    cpu('test_a').test_a()
    cpu('test_plain').test_plain()
    assert calls == [('a', False), ('plain',)]
    # every test of a GPU configuration is marked, so that a CPU run
    # deselects it
    assert _marks(gpu.test_a) == ['gpu', 'skipif']
    assert _marks(gpu.test_plain) == ['gpu', 'skipif']
    assert _marks(cpu.test_plain) == [] and _marks(test_plain) == []


def test_inject_then_parameterize_names():
    mod = _fake_module('_fake_backend_mod3')

    def test_a(self, backend_config):
        pass

    def test_plain(self):
        pass

    cls = type('TestBP', (unittest.TestCase,), {
        '__module__': mod.__name__, 'test_a': test_a,
        'test_plain': test_plain})
    setattr(mod, 'TestBP', cls)
    inner = testing.inject_backend_tests(['test_a'], [{}])
    outer = testing.parameterize({'use_gamma': True}, {'use_gamma': False})
    bundle = outer(inner(cls))
    setattr(mod, 'TestBP', bundle)
    assert sorted(c.__name__ for c in bundle.cases) == [
        'TestBP_param_0_{use_gamma=True}',
        'TestBP_param_1_{use_gamma=False}',
        'TestBP_' + _CPU + '_param_0_{use_gamma=True}',
        'TestBP_' + _CPU + '_param_1_{use_gamma=False}']
    generated = sorted(k for k in vars(mod) if k.startswith('TestBP_'))
    assert generated == sorted(c.__name__ for c in bundle.cases)
    plain = getattr(mod, 'TestBP_param_0_{use_gamma=True}')
    assert plain.test_a is None and plain.use_gamma is True


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


def test_cpu_run_deselects_gpu_and_skips_chainerx(tmp_path):
    import subprocess
    test_file = tmp_path / 'test_backends_run.py'
    test_file.write_text(
        'import unittest\n'
        'from chainer import testing\n'
        '@testing.inject_backend_tests(None, [\n'
        '    {}, {"use_cuda": True}, {"use_cuda": True, "use_cudnn": "always"},\n'
        '    {"use_chainerx": True, "chainerx_device": "native:0"},\n'
        '    {"use_chainerx": True, "chainerx_device": "cuda:0"},\n'
        '    {"use_ideep": "always"}])\n'
        'class TestB(unittest.TestCase):\n'
        '    def test_a(self, backend_config):\n'
        '        assert backend_config.xp.__name__ == "numpy"\n'
        '    def test_plain(self):\n'
        '        pass\n')
    out = subprocess.run(
        [sys.executable, '-m', 'pytest', '-p', 'no:cacheprovider',
         '-p', 'chainer.testing._pytest_plugin', '-rs', '-W', 'error',
         '-m', 'not gpu and not cudnn and not ideep', str(test_file)],
        capture_output=True, text=True, cwd=tmp_path)
    text = out.stdout
    # CPU: 2 run; ChainerX native: 2 skipped; the 4 other configurations
    # (8 tests) deselected
    assert '2 passed, 2 skipped, 8 deselected' in text, text
    assert 'ChainerX is not supported' in text
