import unittest
import warnings

import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import testing
from chainer.testing import attr


def test_with_requires_and_without_requires():
    ran = []

    class Case(unittest.TestCase):
        @testing.with_requires('numpy>=1.0')
        def test_yes(self):
            ran.append('yes')

        @testing.with_requires('numpy<1.0')
        def test_old(self):
            ran.append('old')

        @testing.with_requires('no-such-package-xyz')
        def test_missing(self):
            ran.append('missing')

        @testing.without_requires('no-such-package-xyz')
        def test_without(self):
            ran.append('without')

    result = unittest.TestResult()
    for name in ('test_yes', 'test_old', 'test_missing', 'test_without'):
        Case(name).run(result)
    assert ran == ['yes', 'without']
    assert [r for _, r in result.skipped] == [
        'requires: numpy<1.0', 'requires: no-such-package-xyz']


def test_assert_warns():
    with testing.assert_warns(DeprecationWarning):
        warnings.warn('old', DeprecationWarning)
    with pytest.raises(AssertionError, match='DeprecationWarning not'):
        with testing.assert_warns(DeprecationWarning):
            warnings.warn('other', UserWarning)


def test_patch_wraps_the_target():
    with testing.patch('chainer.functions.exp') as m:
        y = F.exp(numpy.zeros(2, numpy.float32))
    assert m.call_count == 1
    numpy.testing.assert_allclose(y.array, [1, 1])


def test_save_and_load_npz():
    src = L.Linear(2, 3)
    dst = L.Linear(2, 3)
    testing.save_and_load_npz(src, dst)
    numpy.testing.assert_array_equal(src.W.array, dst.W.array)
    numpy.testing.assert_array_equal(src.b.array, dst.b.array)


def test_save_and_load_custom():
    saved = {}

    def saver(path, obj):
        saved['path'] = path
        numpy.save(path, obj)

    out = {}
    testing.save_and_load(numpy.arange(3), out, 'x.npy', saver,
                          lambda path, d: d.update(x=numpy.load(path)))
    assert saved['path'].endswith('x.npy')
    numpy.testing.assert_array_equal(out['x'], [0, 1, 2])


def test_generate_matrix():
    a = testing.generate_matrix((2, 3, 4), numpy.float32,
                                singular_values=[1, 2, 3])
    assert a.shape == (2, 3, 4) and a.dtype == numpy.float32
    s = numpy.linalg.svd(a, compute_uv=False)
    numpy.testing.assert_allclose(s, [[3, 2, 1]] * 2, rtol=1e-5)
    with pytest.raises(TypeError, match='singular_values is not given'):
        testing.generate_matrix((2, 2))
    with pytest.raises(ValueError, match='too few axes'):
        testing.generate_matrix((3,), singular_values=1)
    with pytest.raises(ValueError, match='negative'):
        testing.generate_matrix((2, 2), singular_values=[-1, 1])
    with pytest.raises(TypeError, match='not supported'):
        testing.generate_matrix((2, 2), numpy.int32, singular_values=1)


def test_get_trainer_with_mock_updater(tmp_path, monkeypatch):
    pytest.importorskip('chainer.training')
    monkeypatch.chdir(tmp_path)  # its trainer writes to ./result
    trainer = testing.get_trainer_with_mock_updater(
        (3, 'epoch'), iter_per_epoch=2)
    updater = trainer.updater
    assert updater.iteration == 0 and updater.is_new_epoch
    updater.update()
    assert (updater.iteration, updater.epoch, updater.epoch_detail,
            updater.is_new_epoch) == (1, 0, 0.5, False)
    updater.update()
    assert (updater.epoch, updater.is_new_epoch,
            updater.previous_epoch_detail) == (1, True, 0.5)
    trainer.run()
    assert updater.iteration == 6


@testing.unary_math_function_unittest(F.exp)
class TestUnaryExp(unittest.TestCase):
    pass


def _positive(shape, dtype):
    x = numpy.random.uniform(0.5, 2, shape).astype(dtype)
    gy = numpy.random.uniform(-1, 1, shape).astype(dtype)
    ggx = numpy.random.uniform(-1, 1, shape).astype(dtype)
    return x, gy, ggx


@testing.unary_math_function_unittest(
    F.sqrt, make_data=_positive, label_expected='sqrt')
class TestUnarySqrt(unittest.TestCase):
    pass


def test_unary_math_function_unittest_catches_wrong_expectation():
    class Case(unittest.TestCase):
        pass
    bundle = testing.unary_math_function_unittest(
        F.exp, func_expected=lambda x, dtype: numpy.exp(x) + 1)(Case)
    case = bundle.cases[0]('test_forward_cpu')
    case.setUp()
    with pytest.raises(AssertionError, match='Parameterized test failed'):
        case.test_forward_cpu()
    assert len(bundle.cases) == 6


def test_attr_marks():
    def f():
        pass

    def g():
        pass

    def h():
        pass
    names = [m.name for m in attr.gpu(f).pytestmark]
    assert 'gpu' in names
    assert [m.name for m in attr.slow(g).pytestmark] == ['slow']
    assert 'skip' in [m.name for m in attr.ideep(h).pytestmark]


@attr.gpu
def test_needs_gpu():
    from chainer.backends import cuda
    x = cuda.to_gpu(numpy.ones(2, numpy.float32))
    assert chainer.backend.get_array_module(x) is cuda.cupy


def test_run_module_does_nothing_when_imported():
    assert testing.run_module(__name__, __file__) is None


def test_pytest_plugin_registers_marks():
    from chainer.testing import _pytest_plugin

    class Config:
        def __init__(self):
            self.lines = ['gpu: already there']

        def getini(self, name):
            assert name == 'markers'
            return list(self.lines)

        def addinivalue_line(self, name, line):
            self.lines.append(line)

    config = Config()
    _pytest_plugin.pytest_configure(config)
    names = sorted(line.split(':')[0] for line in config.lines)
    assert names == ['chainerx', 'cudnn', 'gpu', 'ideep', 'slow']


def test_with_requires_chainer_without_its_distribution(monkeypatch):
    # chainer-ng run from a source tree (no installed distribution) still
    # satisfies 'chainer>=5' through chainer.__version__
    from importlib import metadata

    from chainer.testing import helper

    real = metadata.version

    def version(name):
        if name.lower() == 'chainer':
            raise metadata.PackageNotFoundError(name)
        return real(name)

    monkeypatch.setattr(metadata, 'version', version)
    assert helper._satisfied('chainer>=5')
    assert not helper._satisfied('chainer<7')
    assert not helper._satisfied('no-such-package-xyz')
