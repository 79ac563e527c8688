import os
import signal
import subprocess
import sys
import time

import numpy
import pytest

import chainer
from chainer.serializers import _tempfiles
from chainer.serializers import load_npz
from chainer.training import extensions
from chainer.training.extensions import snapshot_writers


def _files(path, prefix=''):
    return sorted(n for n in os.listdir(str(path)) if n.startswith(prefix))


def test_snapshot_defaults_and_content(tiny_trainer, tmp_path):
    ext = extensions.snapshot()
    assert (ext.trigger, ext.priority, ext.default_name) == \
        ((1, 'epoch'), -100, '_Snapshot')
    t = tiny_trainer(stop=(2, 'epoch'))
    t.extend(ext)
    t.run()
    out = tmp_path / 'result'
    assert _files(out) == ['snapshot_iter_4', 'snapshot_iter_8']
    with numpy.load(str(out / 'snapshot_iter_8')) as npz:
        assert int(npz['updater/iteration']) == 8
        W = t.updater.get_optimizer('main').target.predictor.W.array
        numpy.testing.assert_array_equal(
            npz['updater/model:main/predictor/W'], W)
        assert 'stop_trigger/previous_iteration' in npz.files
        assert '_snapshot_elapsed_time' in npz.files
    # loading into a fresh trainer resumes its state
    t2 = tiny_trainer(stop=(3, 'epoch'))
    load_npz(str(out / 'snapshot_iter_4'), t2)
    assert t2.updater.iteration == 4 and t2.updater.epoch == 1


def test_filename_template_n_retains_and_object(tiny_trainer, tmp_path):
    t = tiny_trainer(stop=(7, 'iteration'))
    model = t.updater.get_optimizer('main').target
    t.extend(extensions.snapshot(filename='s_{.updater.iteration}',
                                 n_retains=2), trigger=(1, 'iteration'))
    t.extend(extensions.snapshot_object(model, 'm_{.updater.epoch}',
                                        num_retain=1),
             trigger=(2, 'iteration'))
    t.extend(extensions.snapshot_object(
        model, lambda tr: 'f{}'.format(tr.updater.iteration * 10)),
        trigger=(3, 'iteration'))
    at6 = []
    t.extend(lambda tr: at6.append(model.predictor.W.array.copy())
             if tr.updater.iteration == 6 else None, name='keep')
    t.run()
    out = tmp_path / 'result'
    assert _files(out) == ['f30', 'f60', 'm_1', 's_6', 's_7']
    # no temporary files or folders are left behind
    assert not [n for n in os.listdir(str(out)) if n.startswith('tmp')]
    m = chainer.links.Classifier(chainer.links.Linear(3, 2))
    load_npz(str(out / 'm_1'), m)
    numpy.testing.assert_array_equal(m.predictor.W.array, at6[0])


def test_savefun_condition_and_errors(tiny_trainer, tmp_path):
    seen = []

    def savefun(path, content):
        seen.append((os.path.basename(path), type(content)))
        assert isinstance(content, dict) and 'updater/iteration' in content
        with open(path, 'w') as f:
            f.write('x')
    flags = iter([False, True, False, True])
    t = tiny_trainer(stop=(4, 'iteration'))
    t.extend(extensions.snapshot(savefun=savefun,
                                 condition=lambda: next(flags)),
             trigger=(1, 'iteration'))
    t.run()
    assert [s[0] for s in seen] == ['snapshot_iter_2', 'snapshot_iter_4']
    with pytest.raises(TypeError, match='cannot be specified together'):
        extensions.snapshot(savefun=savefun,
                            writer=snapshot_writers.SimpleWriter())
    with pytest.raises(TypeError, match='foo'):
        extensions.snapshot(foo=1)
    with pytest.raises(ValueError, match='template'):
        extensions.snapshot(filename=lambda t: 'x', n_retains=1)


def test_failed_save_leaves_nothing(tiny_trainer, tmp_path):
    def savefun(path, content):
        with open(path, 'w') as f:
            f.write('half')
        raise IOError('disk full')
    t = tiny_trainer(stop=(1, 'iteration'))
    t.extend(extensions.snapshot(savefun=savefun), trigger=(1, 'iteration'))
    with pytest.raises(IOError, match='disk full'):
        t.run(show_loop_exception_msg=False)
    assert os.listdir(str(tmp_path / 'result')) == []


def test_snapshot_on_error(tiny_trainer, tmp_path):
    t = tiny_trainer(stop=(5, 'iteration'))

    def boom(trainer):
        if trainer.updater.iteration == 3:
            raise RuntimeError('boom')
    t.extend(boom)
    t.extend(extensions.snapshot(snapshot_on_error=True),
             trigger=(100, 'iteration'))
    with pytest.raises(RuntimeError):
        t.run(show_loop_exception_msg=False)
    assert _files(tmp_path / 'result') == ['snapshot_iter_3']


def test_autoload(tiny_trainer, tmp_path):
    def make(stop):
        t = tiny_trainer(stop=(stop, 'iteration'))
        t.extend(extensions.snapshot(autoload=True, n_retains=1),
                 trigger=(2, 'iteration'))
        return t
    t = make(5)
    t.run()
    assert _files(tmp_path / 'result') == ['snapshot_iter_4']
    w5 = t.updater.get_optimizer('main').target.predictor.W.array.copy()
    t = make(7)
    t.run()  # resumes at 4
    assert t.updater.iteration == 7
    assert _files(tmp_path / 'result') == ['snapshot_iter_6']
    # an empty folder: nothing to load, starts from scratch
    t = tiny_trainer(stop=(5, 'iteration'), out=tmp_path / 'fresh')
    t.extend(extensions.snapshot(autoload=True), trigger=(2, 'iteration'))
    t.run()
    numpy.testing.assert_array_equal(
        t.updater.get_optimizer('main').target.predictor.W.array, w5)


@pytest.mark.parametrize('writer_class', [
    snapshot_writers.ThreadWriter, snapshot_writers.ThreadQueueWriter,
    snapshot_writers.ProcessWriter])
def test_writers(writer_class, tiny_trainer, tmp_path):
    writer = writer_class()
    t = tiny_trainer(stop=(4, 'iteration'))
    t.extend(extensions.snapshot(writer=writer, n_retains=2),
             trigger=(1, 'iteration'))
    t.run()  # finalize waits for the writes
    out = tmp_path / 'result'
    assert _files(out) == ['snapshot_iter_3', 'snapshot_iter_4']
    with numpy.load(str(out / 'snapshot_iter_3')) as npz:
        assert int(npz['updater/iteration']) == 3  # a copy, not later state


def test_simple_writer_kwargs(tmp_path):
    got = {}

    def savefun(path, target, **kw):
        got.update(kw)
        open(path, 'w').close()
    w = snapshot_writers.SimpleWriter(savefun=savefun, compression=False)
    w('a', str(tmp_path), {'x': numpy.zeros(1)})
    assert got == {'compression': False}
    assert os.listdir(str(tmp_path)) == ['a']
    with pytest.raises(NotImplementedError):
        snapshot_writers.Writer()('a', str(tmp_path), {})


_DIR_HOLDER = '''
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
fcntl.flock(fd, fcntl.LOCK_EX)
print('locked', flush=True)
sys.stdin.read()
'''


@pytest.mark.skipif(_tempfiles.fcntl is None, reason='needs flock')
def test_writer_removes_the_folders_of_dead_saves(tmp_path):
    out = str(tmp_path)

    def folder(name, files=(), age=0):
        path = os.path.join(out, name)
        os.mkdir(path)
        for f in files:
            with open(os.path.join(path, f), 'wb') as fh:
                fh.write(b'PK\x03\x04 half a snapshot')
        if age:
            t = time.time() - age
            os.utime(path, (t, t))
        return path

    old = _tempfiles.STALE_AGE + 60
    # dead saves: removed at once
    folder('tmpsnapshot_iter_5abcdefgh', ['snapshot_iter_5'])
    folder('tmpsnapshot_iter_6k3j_9x0q', ['.tmp-snapshot_iter_6-zzzzzzzz'])
    folder('tmpm.npz_yyyyyyy', ['m.npz', '.tmp-m.npz-xxxxxxxx.npz'])
    folder('tmpsnapshot_iter_8bbbbbbbb', age=old)  # empty and old
    # not ours, or maybe alive
    folder('tmpsnapshot_iter_7aaaaaaaa')  # empty and fresh
    folder('tmpsnapshot_iter_9cccccccc', ['snapshot_iter_9', 'notes.txt'])
    folder('tmpsnapshot_iter_1dddddddd', ['snapshot_iter_2'])
    folder('tmpdata', ['data'])
    live = folder('tmpsnapshot_iter_3eeeeeeee', ['snapshot_iter_3'])
    holder = subprocess.Popen([sys.executable, '-c', _DIR_HOLDER, live],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        assert holder.stdout.readline() == b'locked\n'
        writer = snapshot_writers.SimpleWriter()
        writer('snapshot_iter_10', out, {'x': numpy.zeros(3)})
        assert sorted(os.listdir(out)) == [
            'snapshot_iter_10', 'tmpdata', 'tmpsnapshot_iter_1dddddddd',
            'tmpsnapshot_iter_3eeeeeeee', 'tmpsnapshot_iter_7aaaaaaaa',
            'tmpsnapshot_iter_9cccccccc']
        # its process dies: the next save takes its folder for a leftover
        os.kill(holder.pid, signal.SIGKILL)
        holder.wait()
        writer('snapshot_iter_11', out, {'x': numpy.zeros(3)})
        assert not os.path.exists(live)
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait()
