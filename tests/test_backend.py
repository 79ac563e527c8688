import numpy
import pytest

import chainer
from chainer import backend
from chainer.backends import cuda


def test_get_device_specs():
    cpu = chainer.get_device('@numpy')
    assert isinstance(cpu, backend.CpuDevice)
    assert str(cpu) == '@numpy' and cpu.xp is numpy
    assert chainer.get_device(-1) == cpu
    assert chainer.get_device('-1') == cpu
    assert chainer.get_device(cpu) is cpu
    with pytest.raises(ValueError, match="starting with '@' must be"):
        chainer.get_device('@foo')
    with pytest.raises(TypeError):
        chainer.get_device(1.5)


def test_cpu_send():
    cpu = backend.CpuDevice()
    a = numpy.ones(2)
    assert cpu.send(a) is a
    out = cpu.send([a, None])
    assert out[0] is a and out[1] is None
    assert cpu.send(None) is None
    assert cpu == backend.CpuDevice() and hash(cpu) == hash(backend.CpuDevice())


def test_get_array_module():
    assert backend.get_array_module(numpy.ones(1)) is numpy
    assert backend.get_array_module(chainer.Variable(numpy.ones(1))) is numpy
    assert cuda.get_array_module(numpy.ones(1)) is numpy


def test_cuda_module_without_gpu():
    if cuda.available:
        pytest.skip('a GPU is available')
    assert cuda.get_device_from_array(numpy.ones(1)) is cuda.DummyDevice
    assert cuda.to_cpu(numpy.ones(1)).shape == (1,)
    assert cuda.to_cpu(None) is None
    assert cuda.should_use_cudnn('>=auto') is False
    with pytest.raises(RuntimeError, match='CUDA environment'):
        cuda.check_cuda_available()
    with pytest.raises(RuntimeError) as e:
        cuda.to_gpu(numpy.ones(1))
    # Chainer 7.8.1's text, with the import error glued on
    head = ('CUDA environment is not correctly set up\n'
            '(see https://github.com/chainer/chainer#installation).')
    assert str(e.value).startswith(head)
    if cuda._import_error is not None:
        assert str(e.value) == head + str(cuda._import_error)


def test_copyto():
    dst = numpy.zeros(3)
    backend.copyto(dst, numpy.arange(3.))
    numpy.testing.assert_array_equal(dst, [0, 1, 2])


@pytest.mark.gpu
@pytest.mark.skipif(not cuda.available, reason='needs CuPy and a GPU')
def test_gpu_round_trip():
    x = chainer.Variable(numpy.arange(3, dtype=numpy.float32))
    x.to_gpu()
    assert x.xp is cuda.cupy and str(x.device) == '@cupy:0'
    y = (x * 2).array
    assert isinstance(y, cuda.ndarray)
    chainer.functions.sum(x * x).backward()
    x.to_cpu()
    numpy.testing.assert_array_equal(x.grad, [0, 2, 4])


@pytest.mark.parametrize('spec', ['native', 'native:0', 'cuda:0', 'foo'])
def test_chainerx_specifiers_are_unavailable(spec):
    # As in a Chainer built without ChainerX: no '@' means ChainerX.
    with pytest.raises(RuntimeError, match='ChainerX is not available'):
        chainer.get_device(spec)


def test_chainerx_unavailable_everywhere():
    import chainerx
    assert chainerx.is_available() is False
    assert chainer.chainerx is chainerx
    assert chainerx.ndarray not in chainer.get_array_types()
    assert not isinstance(numpy.ones(1), chainerx.ndarray)
    with pytest.raises(RuntimeError, match='chainerx is not available'):
        chainerx.ndarray((1,))
    # as Chainer's module without its core: only these names
    for name in ('get_device', 'DeviceScope', 'float32', 'all_dtypes',
                 'array', 'no_backprop_mode'):
        assert not hasattr(chainerx, name)
        with pytest.raises(AttributeError, match="^module 'chainerx' has no "
                           "attribute '{}'$".format(name)):
            getattr(chainerx, name)
    assert chainerx._build_info.build_chainerx is False
    with pytest.raises(RuntimeError, match='ChainerX is not available'):
        backend.to_chx(numpy.ones(1))
    a = numpy.ones(1)
    assert backend.from_chx(a) is a
    from chainer.backends import _chainerx
    assert _chainerx.ChainerxDevice is backend.ChainerxDevice


@pytest.mark.parametrize('spec', ['@numpy:', '@numpy:0', '@:numpy', '@cupy',
                                  '', ('native', 0)])
def test_using_device_checks_the_specifier_at_once(spec):
    with pytest.raises((ValueError, TypeError, RuntimeError)):
        backend.using_device(spec)
    with backend.using_device('@numpy') as entered:
        assert entered is None   # what the CPU's context gives, as in Chainer


def test_from_array_takes_arrays_only():
    assert backend.CpuDevice.from_array(numpy.ones(1)) == backend.CpuDevice()
    for value in (None, 1, (), numpy.float32(1)):
        assert backend.CpuDevice.from_array(value) is None
    assert backend.ChainerxDevice.from_array(numpy.ones(1)) is None
    from chainer.backends import intel64
    assert intel64.Intel64Device.from_array(numpy.ones(1)) is None
    # the device of a scalar is still the CPU
    assert backend.get_device_from_array(numpy.float32(1)) == backend.CpuDevice()


def test_cpu_private_to_cpu_takes_lists_and_tuples():
    from chainer.backends import _cpu
    a, b = numpy.ones(2), numpy.zeros(1)
    out = _cpu._to_cpu((a, None, b))
    assert type(out) is tuple and out[0] is a and out[1] is None
    assert type(_cpu._to_cpu([a])) is list
    assert _cpu._to_cpu(None) is None


def test_backend_module_reaches_cuda_as_chainer():
    # Chainer's chainer.backend imported chainer.backends.cuda; code (and
    # Chainer's chainermn tests) import it from there
    from chainer.backend import cuda
    from chainer.backends import cuda as cuda_module
    assert cuda is cuda_module


def test_intel64_is_refused_as_chainer_without_ideep4py():
    from chainer.backends import intel64
    message = ("iDeep is not available.\n"
               "Reason: ModuleNotFoundError: No module named 'ideep4py'")
    for call in (intel64.check_ideep_available, intel64.Intel64Device,
                 chainer.links.Linear(2, 2).to_intel64,
                 chainer.Variable(numpy.ones(2, numpy.float32)).to_intel64):
        with pytest.raises(RuntimeError) as info:
            call()
        assert str(info.value) == message


def test_get_device_errors_in_chainer_words():
    with pytest.raises(TypeError) as info:
        chainer.get_device(numpy)   # a module is no specifier there
    assert str(info.value) == (
        'Device specifier must be a backend.Device, cuda.Device, '
        "chainerx.Device, integer or a string. Actual: <class 'module'>")
    with pytest.raises(ValueError, match=r"^invalid literal for int\(\) with "
                       "base 10: 'x'$"):
        chainer.get_device('@cupy:x')   # the id is read before CUDA is sought
    with pytest.raises(RuntimeError, match='^iDeep is not available'):
        chainer.get_device('@intel64')
    if not cuda.available:
        for spec in (False, True, 0, '0'):
            with pytest.raises(RuntimeError, match='^CUDA environment'):
                chainer.get_device(spec)


def test_device_send_converts_scalars_and_refuses_the_rest():
    cpu = chainer.get_device('@numpy')
    out = cpu.send([1, 2.5])
    assert type(out) is list and out[0].dtype == numpy.int64 and out[1] == 2.5
    assert repr(cpu.send('a')) == "array('a', dtype='<U1')"
    assert cpu.send_array(None) is None
    for value in ([numpy.ones(1), [numpy.ones(1)]], {'a': 1},
                  chainer.Variable(numpy.ones(1))):
        with pytest.raises(TypeError) as info:
            cpu.send(value)
        inner = value[1] if isinstance(value, list) else value
        assert str(info.value) == (
            'Array cannot be converted into an numpy.ndarray\n'
            'Actual type: {}.'.format(type(inner)))
    assert repr(cuda.to_cpu((1, 2))) == '(array(1), array(2))'
    with pytest.raises(RuntimeError, match='^Device class does not support '
                       'runtime context using `with` statement. Use '
                       'chainer.using_device instead.$'):
        with cpu:
            pass


def test_cuda_dummies_without_gpu():
    if cuda.available:
        pytest.skip('a GPU is available')
    assert cuda.get_device_from_id(-1) is cuda.DummyDevice
    assert cuda.get_device_from_id(None) is cuda.DummyDevice
    with pytest.warns(DeprecationWarning, match='^get_device is deprecated'):
        assert cuda.get_device(numpy.ones(1)) is cuda.DummyDevice
    with pytest.warns(DeprecationWarning):
        with pytest.raises(RuntimeError, match='^CUDA environment'):
            cuda.get_device(-1)
    cuda.Device(3)   # a dummy class that takes anything
    assert cuda.get_max_workspace_size() == 0
    with pytest.raises(RuntimeError, match=r'^cuDNN is not enabled\.$'):
        cuda.get_cudnn_dropout_states()


def test_copyto_sends_lists_entry_by_entry():
    dst = numpy.zeros(3, numpy.float32)
    backend.copyto(dst, (1, 2, 3))
    numpy.testing.assert_array_equal(dst, [1, 2, 3])
    with pytest.raises(TypeError, match='^Array cannot be converted'):
        backend.copyto(dst, [[1, 2, 3]])
    with pytest.raises(TypeError) as info:
        backend.copyto([1], numpy.ones(3))
    assert str(info.value) == (
        "cannot copy to non-array object of type <class 'list'>")


def test_chainerx_conversions_in_chainer_words():
    v = chainer.Variable(numpy.ones(1))
    assert v.from_chx() is None   # a no-op
    for call in (v.to_chx, chainer.Parameter().to_chx,
                 chainer.links.Linear(1, 1).to_chx):
        with pytest.raises(RuntimeError) as info:
            call()
        assert str(info.value) == 'ChainerX is not available.'


def test_link_to_gpu_checks_cuda_before_it_warns():
    if cuda.available:
        pytest.skip('a GPU is available')
    import warnings
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        with pytest.raises(RuntimeError, match='^CUDA environment'):
            chainer.links.Linear(1, 1).to_gpu()
    assert caught == []
