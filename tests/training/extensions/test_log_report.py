import json
import os

import numpy
import pytest

from chainer.serializers import DictionarySerializer, NpzDeserializer
from chainer.training import extensions


def _feed(ext, trainer, values):
    """Runs ``ext`` over iterations with observation ``{'a': v, 'b': 2v}``."""
    for v in values:
        trainer.updater.iteration += 1
        trainer.observation = {'a': numpy.float32(v), 'b': 2. * v,
                               'arr': numpy.ones(3)}
        ext(trainer)


def test_log_file_content(fake_trainer, tmp_path):
    tr = fake_trainer(ipe=2, out=str(tmp_path))
    tr.elapsed_time = 1.5
    ext = extensions.LogReport(trigger=(2, 'iteration'))
    assert ext.trigger == (1, 'iteration') and ext.priority == 100
    _feed(ext, tr, [1., 2., 3.])
    assert ext.log == [{'a': 1.5, 'b': 3.0, 'epoch': 1, 'iteration': 2,
                        'elapsed_time': 1.5}]
    assert list(ext.log[0]) == ['a', 'b', 'epoch', 'iteration',
                                'elapsed_time']
    with open(os.path.join(str(tmp_path), 'log')) as f:
        text = f.read()
    # json.dump(indent=4), no trailing newline, as Chainer writes it
    assert text == json.dumps(ext.log, indent=4)
    assert text.startswith('[\n    {\n        "a": 1.5,\n')
    _feed(ext, tr, [5.])
    assert [e['iteration'] for e in ext.log] == [2, 4]
    assert ext.log[1]['a'] == 4.0  # mean over iterations 3 and 4
    assert sorted(os.listdir(str(tmp_path))) == ['log']  # no temp left


def test_keys_postprocess_filename(fake_trainer, tmp_path):
    tr = fake_trainer(ipe=2, out=str(tmp_path))

    def post(entry):
        entry['c'] = entry['a'] * 10
    ext = extensions.LogReport(keys=['a'], trigger=(1, 'iteration'),
                               postprocess=post, filename='log_{iteration}')
    _feed(ext, tr, [1.])
    assert ext.log == [{'a': 1.0, 'epoch': 0, 'iteration': 1,
                        'elapsed_time': 0.0, 'c': 10.0}]
    assert os.listdir(str(tmp_path)) == ['log_1']
    ext = extensions.LogReport(trigger=(1, 'iteration'), log_name=None)
    tr2 = fake_trainer(out=str(tmp_path / 'none'))
    _feed(ext, tr2, [1.])
    assert len(ext.log) == 1 and not os.path.exists(str(tmp_path / 'none'))
    with pytest.raises(TypeError, match='foo'):
        extensions.LogReport(foo=1)


def test_serialize(fake_trainer, tmp_path):
    tr = fake_trainer(out=str(tmp_path))
    ext = extensions.LogReport(trigger=(2, 'iteration'))
    _feed(ext, tr, [1., 2., 3.])
    s = DictionarySerializer()
    ext.serialize(s)
    assert sorted(s.target) == [
        '_log', '_summary/_names', '_summary/_summaries/0/_n',
        '_summary/_summaries/0/_x', '_summary/_summaries/0/_x2',
        '_summary/_summaries/1/_n', '_summary/_summaries/1/_x',
        '_summary/_summaries/1/_x2', '_trigger/previous_epoch_detail',
        '_trigger/previous_iteration']
    assert json.loads(str(s.target['_log'])) == ext.log
    ext2 = extensions.LogReport(trigger=(2, 'iteration'))
    NpzDeserializer(s.target).load(ext2)
    assert ext2.log == ext.log
    _feed(ext2, tr, [5.])  # the summary of iteration 3 was restored
    assert ext2.log[-1]['a'] == 4.0


def _trainer_with_evaluation_before_training(make, before=True):
    import io
    import chainer
    t = make(stop=(2, 'epoch'))
    model = t.updater.get_optimizer('main').target
    data = t.updater.get_iterator('main').dataset
    t.extend(extensions.Evaluator(chainer.iterators.SerialIterator(
        data, 5, repeat=False, shuffle=False), model),
        call_before_training=True)
    t.extend(extensions.LogReport(), call_before_training=before)
    out = io.StringIO()
    t.extend(extensions.PrintReport(
        ['epoch', 'iteration', 'validation/main/loss'], out=out),
        call_before_training=before)
    return t, out


def test_call_before_training_writes_an_epoch_0_entry(tiny_trainer,
                                                       tmp_path):
    # values and text of Chainer 7.8.1 for this run
    t, out = _trainer_with_evaluation_before_training(tiny_trainer)
    t.run()
    with open(tmp_path / 'result' / 'log') as f:
        log = json.load(f)
    assert [(e['epoch'], e['iteration']) for e in log] == \
        [(0, 0), (1, 4), (2, 8)]
    assert sorted(log[0]) == ['elapsed_time', 'epoch', 'iteration',
                              'validation/main/accuracy',
                              'validation/main/loss']
    # the evaluation before training is not averaged into epoch 1
    assert [e['validation/main/loss'] for e in log] == pytest.approx(
        [0.6931471824645996, 0.6841814666986465, 0.6760252863168716])
    assert log[1]['validation/main/accuracy'] == pytest.approx(0.65)
    assert out.getvalue() == (
        'epoch       iteration   validation/main/loss\n'
        '\x1b[J0           0           0.693147              \n'
        '\x1b[J1           4           0.684181              \n'
        '\x1b[J2           8           0.676025              \n')


def test_evaluation_before_training_without_log_report_before(
        tiny_trainer, tmp_path):
    t, out = _trainer_with_evaluation_before_training(tiny_trainer, False)
    t.run()
    with open(tmp_path / 'result' / 'log') as f:
        log = json.load(f)
    assert [e['epoch'] for e in log] == [1, 2]
    assert log[0]['validation/main/loss'] == \
        pytest.approx(0.6841814666986465)
