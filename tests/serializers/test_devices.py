"""CPU <-> GPU round trips of a model and its optimizer through .npz and
HDF5 (marked gpu: the ``gpu_device`` fixture)."""

import numpy
import pytest

import chainer
from chainer import serializers
from serialized_state import trained

FORMATS = {'npz': (serializers.save_npz, serializers.load_npz),
           'hdf5': (serializers.save_hdf5, serializers.load_hdf5)}


def host_values(obj):
    return serializers.npz.serialize(obj)  # GPU arrays come to the host


def check_same(got, want):
    assert sorted(got) == sorted(want)
    for key in want:
        assert got[key].dtype == want[key].dtype, key
        assert got[key].tobytes() == want[key].tobytes(), key


@pytest.mark.parametrize('fmt', sorted(FORMATS))
def test_gpu_to_file_to_cpu_and_gpu(fmt, gpu_device, tmp_path):
    if fmt == 'hdf5':
        pytest.importorskip('h5py')
    save, load = FORMATS[fmt]
    model, opt = trained()
    want = host_values(model), host_values(opt)
    model.to_device(gpu_device)
    save(str(tmp_path / 'model'), model)
    save(str(tmp_path / 'opt'), opt)
    for device in ('@numpy', gpu_device):
        # Into a trained twin (its optimizer has state to load into).
        numpy.random.seed(1)
        model2, opt2 = trained()
        model2.to_device(device)
        load(str(tmp_path / 'model'), model2)
        load(str(tmp_path / 'opt'), opt2)
        for _, p in model2.namedparams():
            assert p.device == chainer.get_device(device)
        check_same(host_values(model2), want[0])
        check_same(host_values(opt2), want[1])


def test_cpu_file_into_gpu_model_keeps_training_alike(gpu_device, tmp_path):
    model, opt = trained()
    serializers.save_npz(str(tmp_path / 'model'), model)
    serializers.save_npz(str(tmp_path / 'opt'), opt)
    gpu_model, gpu_opt = trained()
    gpu_model.to_device(gpu_device)
    serializers.load_npz(str(tmp_path / 'model'), gpu_model)
    serializers.load_npz(str(tmp_path / 'opt'), gpu_opt)
    x = numpy.random.RandomState(1).rand(5, 3).astype(numpy.float32)
    gx = gpu_device.send(x)
    # In test mode: training-mode batch normalization would leave the
    # Linear bias a gradient of rounding noise only, which Adam's steps
    # (about lr whatever the gradient's size) would turn into differences.
    with chainer.using_config('train', False):
        for _ in range(2):
            opt.update(lambda: chainer.functions.sum(model(x) ** 2))
            gpu_opt.update(
                lambda: chainer.functions.sum(gpu_model(gx) ** 2))
    got, want = host_values(gpu_model), host_values(model)
    for key in want:
        numpy.testing.assert_allclose(got[key], want[key], rtol=1e-5,
                                      atol=1e-6, err_msg=key)
