import numpy
import pytest

import chainer
import chainer.links as L
from chainer import training
from chainer.dataset import convert
from chainer.training import updaters


def _setup(tiny_data, batch=4, n=8, lr=0.1):
    model = L.Classifier(L.Linear(
        3, 2, initialW=numpy.full((2, 3), 0.1, numpy.float32)))
    optimizer = chainer.optimizers.SGD(lr).setup(model)
    it = chainer.iterators.SerialIterator(tiny_data(n), batch, shuffle=False)
    return model, optimizer, it


def test_standard_updater_step(tiny_data):
    model, opt, it = _setup(tiny_data)
    up = training.StandardUpdater(it, opt)
    assert up.iteration == 0 and up.epoch == 0 and up.device is None
    assert up.get_optimizer('main') is opt and up.get_iterator('main') is it
    assert up.get_all_optimizers() == {'main': opt}
    # the same step by hand
    ref = model.copy('copy')
    x, t = convert.concat_examples(tiny_data(8)[:4])
    ref.cleargrads()
    ref(x, t).backward()
    expect = ref.predictor.W.array - 0.1 * ref.predictor.W.grad
    up.update()
    assert up.iteration == 1 and up.epoch_detail == 0.5
    numpy.testing.assert_array_equal(model.predictor.W.array, expect)
    up.update()
    assert up.is_new_epoch and up.epoch == 1 and opt.epoch == 1
    assert up.previous_epoch_detail == 0.5


def test_standard_updater_converter_and_loss_func(tiny_data):
    model, opt, it = _setup(tiny_data)
    got = {}

    def legacy(batch, device):
        got['device'] = device
        return convert.concat_examples(batch)

    def loss_func(x, t):
        got['shapes'] = (x.shape, t.shape)
        return model(x, t)
    up = training.StandardUpdater(it, opt, converter=legacy,
                                  loss_func=loss_func, device='@numpy')
    up.update()
    assert got == {'device': -1, 'shapes': ((4, 3), (4,))}
    assert isinstance(up.device, chainer.backend.CpuDevice)

    @chainer.dataset.converter()
    def dict_conv(batch, device):
        got['device2'] = device
        x, t = convert.concat_examples(batch)
        return {'x': x, 't': t}
    up = training.StandardUpdater(it, opt, converter=dict_conv,
                                  loss_func=loss_func, auto_new_epoch=False)
    up.update()
    assert got['device2'] is None


def test_standard_updater_serialize_and_errors(tiny_data):
    model, opt, it = _setup(tiny_data)
    up = training.StandardUpdater({'main': it}, {'main': opt},
                                  loss_scale=8.)
    assert opt._loss_scale == 8.
    up.update()
    s = chainer.serializers.DictionarySerializer()
    up.serialize(s)
    assert 'iterator:main/current_position' in s.target
    assert 'optimizer:main/t' in s.target
    assert 'model:main/predictor/W' in s.target
    assert int(s.target['iteration']) == 1
    # Like Chainer, a dict without 'main' is accepted (custom update_core
    # names its own entries); only the 'main'-reading paths fail.
    other = training.StandardUpdater({'other': it}, {'gen': opt})
    assert other.get_optimizer('gen') is opt
    assert other.get_iterator('other') is it
    with pytest.raises(KeyError):
        other.epoch
    with pytest.raises(TypeError, match='foo'):
        training.StandardUpdater(it, opt, foo=1)
    with pytest.raises(NotImplementedError):
        training.Updater().update()


def test_parallel_updater(tiny_data, tmp_path):
    # Checked against Chainer 7.8.1 on CPU devices (up to float rounding).
    model, opt, it = _setup(tiny_data)
    up = training.ParallelUpdater(
        it, opt, devices={'main': '@numpy', 'second': '@numpy'})
    t = training.Trainer(up, (2, 'iteration'), out=str(tmp_path))
    t.run()
    numpy.testing.assert_allclose(
        model.predictor.W.array,
        [[0.0132526644, -0.0136980377, 0.0208894834],
         [0.1867473423, 0.2136980295, 0.1791105121]], rtol=1e-5)
    assert sorted(t.observation) == ['main/accuracy', 'main/loss',
                                     'second/accuracy', 'second/loss']
    other = up._models['second']
    numpy.testing.assert_array_equal(other.predictor.W.array,
                                     model.predictor.W.array)
    with pytest.raises(ValueError, match='either models or devices'):
        training.ParallelUpdater(it, opt)
    with pytest.raises(KeyError, match="'main'"):
        training.ParallelUpdater(it, opt, devices={'a': -1})


def test_multiprocess_parallel_updater_needs_nccl(tiny_data):
    model, opt, it = _setup(tiny_data)
    if updaters.MultiprocessParallelUpdater.available():
        pytest.skip('NCCL is available here')
    with pytest.raises(Exception, match='requires NCCL') as info:
        updaters.MultiprocessParallelUpdater([it], opt, devices=[0, 1])
    assert type(info.value) is Exception  # Chainer's plain Exception


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float16])
def test_multiprocess_parallel_updater_gather_scatter(dtype):
    from chainer.training.updaters import multiprocess_parallel_updater as mpu
    model = chainer.Sequential(L.Linear(3, 2), L.Linear(2, 1))
    for p in model.params():
        p.array = p.array.astype(dtype)
    with pytest.raises(RuntimeError, match='gather_grads works only on GPU'):
        mpu.gather_grads(model)
    with pytest.raises(RuntimeError, match='gather_params works only on GPU'):
        mpu.gather_params(model)
    assert mpu.size_num_grads(model) == (11, 4)
    # the layout itself works with any array module
    flat = mpu._gather(model, 'data')
    assert flat.dtype == numpy.float32 and flat.shape == (11,)
    other = chainer.Sequential(L.Linear(3, 2), L.Linear(2, 1))
    for p in other.params():
        p.array = p.array.astype(dtype)
    mpu._scatter(other, flat, 'data')
    for (_, a), (_, b) in zip(sorted(model.namedparams()),
                              sorted(other.namedparams())):
        numpy.testing.assert_array_equal(a.array, b.array)
        assert b.array.dtype == dtype
    # a missing gradient gathers as zeros and is created by scatter
    model.cleargrads()
    other.cleargrads()
    assert not mpu._gather(model, 'grad').any()
    mpu._scatter(other, numpy.arange(11, dtype=numpy.float32), 'grad')
    assert [p.grad.dtype for _, p in sorted(other.namedparams())] == \
        [dtype] * 4
    assert mpu._gather(other, 'grad').tolist() == list(range(11))
