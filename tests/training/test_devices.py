"""A Trainer on a GPU: the same steps as on NumPy, and a run resumed from a
snapshot ends bit for bit as the uninterrupted one (marked gpu: the
``gpu_device`` fixture)."""

import numpy

import chainer
import chainer.links as L
from chainer import serializers
from chainer import training
from chainer.training import extensions


def make_trainer(data, out, device, stop=8):
    model = L.Classifier(L.Linear(
        3, 2, initialW=numpy.full((2, 3), 0.1, numpy.float32)))
    opt = chainer.optimizers.MomentumSGD(0.1).setup(model)
    it = chainer.iterators.SerialIterator(data, 5, shuffle=False)
    updater = training.StandardUpdater(it, opt, device=device)
    trainer = training.Trainer(updater, (stop, 'iteration'), out=str(out))
    trainer.extend(extensions.snapshot(), trigger=(4, 'iteration'))
    trainer.extend(extensions.LogReport(trigger=(2, 'iteration')))
    return trainer, model


def params(model):
    return {name: chainer.backends.cuda.to_cpu(p.array)
            for name, p in model.namedparams()}


def test_trainer_with_snapshot_resumes_bit_for_bit(gpu_device, tiny_data,
                                                   tmp_path):
    full, model = make_trainer(tiny_data(), tmp_path / 'full', gpu_device)
    full.run()
    for _, p in model.namedparams():
        assert p.device == gpu_device
    want = params(model)
    assert all(isinstance(e['main/loss'], float)
               for e in full.get_extension('LogReport').log)

    resumed, model2 = make_trainer(tiny_data(), tmp_path / 'resumed',
                                   gpu_device)
    serializers.load_npz(str(tmp_path / 'full' / 'snapshot_iter_4'), resumed)
    assert resumed.updater.iteration == 4
    resumed.run()
    got = params(model2)
    for name in want:
        assert got[name].tobytes() == want[name].tobytes(), name

    cpu, model3 = make_trainer(tiny_data(), tmp_path / 'cpu', '@numpy')
    cpu.run()
    for name, value in params(model3).items():
        numpy.testing.assert_allclose(want[name], value, rtol=1e-5,
                                      atol=1e-6, err_msg=name)
