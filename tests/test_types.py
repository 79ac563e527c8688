import numbers
import subprocess
import sys
import typing

import pytest

import chainer
from chainer import types


def test_public_names():
    expected = {'AbstractInitializer', 'CudaDeviceSpec', 'DTypeSpec', 'DeviceSpec',
                'InitializerSpec', 'NdArray', 'ScalarValue', 'Shape', 'ShapeSpec', 'Xp'}
    assert expected <= set(dir(types))
    assert types.TYPE_CHECKING is False


def test_shape_aliases():
    assert types.Shape == typing.Tuple[int, ...]
    assert typing.get_origin(types.ShapeSpec) is typing.Union
    assert typing.get_args(types.ShapeSpec) == (int, typing.Sequence[int])


def test_runtime_loose_aliases():
    assert types.DTypeSpec is typing.Any
    assert types.Xp is typing.Any


def test_ndarray_is_a_union_of_forward_references():
    args = typing.get_args(types.NdArray)
    assert [a.__forward_arg__ for a in args] == [
        'numpy.ndarray', 'cuda.ndarray', 'chainerx.ndarray']


def test_scalar_and_initializer_specs():
    scalar = typing.get_args(types.ScalarValue)
    assert bytes in scalar and str in scalar and memoryview in scalar
    assert numbers.Number in scalar
    init = typing.get_args(types.InitializerSpec)
    assert init[0] is types.AbstractInitializer
    # The scalar members are flattened into the initializer union.
    assert set(scalar) <= set(init)
    assert typing.ForwardRef('numpy.ndarray') in init


def test_device_specs():
    device = typing.get_args(types.DeviceSpec)
    assert str in device and typing.Tuple[str, int] in device
    assert typing.ForwardRef('backend.Device') in device
    cuda_dev = typing.get_args(types.CudaDeviceSpec)
    assert int in cuda_dev and typing.ForwardRef('cuda.Device') in cuda_dev


def test_abstract_initializer_is_a_protocol():
    assert types.AbstractInitializer.dtype is None
    with pytest.raises(TypeError):
        types.AbstractInitializer()
    # Not runtime-checkable: it is for static checkers only.
    with pytest.raises(TypeError):
        isinstance(chainer.initializers.Zero(), types.AbstractInitializer)


def test_import_does_not_need_cupy():
    code = ('import sys; import chainer.types; '
            'assert "cupy" not in sys.modules, "cupy imported"')
    subprocess.run([sys.executable, '-c', code], check=True)
