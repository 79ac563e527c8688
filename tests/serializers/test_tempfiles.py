"""Saves never destroy the last good file, and clean up after killed ones."""

import errno
import os
import random
import signal
import subprocess
import sys
import textwrap
import time

import numpy
import pytest

import chainer
from chainer.serializers import _tempfiles
from chainer.serializers import hdf5
from chainer.serializers import npz
from chainer.training.extensions import snapshot_writers

try:
    import h5py
except ImportError:
    h5py = None

posix_only = pytest.mark.skipif(
    _tempfiles.fcntl is None or not hasattr(os, 'fork'),
    reason='needs flock and fork (POSIX)')


def _fmt(name):
    if name == 'hdf5' and h5py is None:
        pytest.skip('h5py is not installed')
    if name == 'npz':
        return npz.save_npz, npz.load_npz
    if name == 'snapshot':
        def save(path, obj):
            folder, filename = os.path.split(path)
            snapshot_writers.SimpleWriter()(filename, folder, obj)
        return save, npz.load_npz
    return hdf5.save_hdf5, hdf5.load_hdf5


formats = pytest.mark.parametrize('fmt', ['npz', 'hdf5'])


class Net(chainer.Chain):

    def __init__(self, shape=(2, 3)):
        super().__init__()
        with self.init_scope():
            self.l = chainer.links.Linear(shape[1], shape[0])
        self.add_persistent('N', 0)


class Exploding(chainer.Link):
    """Writes one value, then fails in the middle of the save."""

    def serialize(self, serializer):
        serializer('a', numpy.ones(1000))
        raise RuntimeError('boom')


def _others(folder, *keep):
    return sorted(set(os.listdir(str(folder))) - set(keep))


# --- a failing save leaves the previous file as it was ----------------------

@formats
def test_failed_save_keeps_the_old_file(fmt, tmp_path):
    save, load = _fmt(fmt)
    path = str(tmp_path / 'model')
    old = Net()
    old.N = 7
    save(path, old)
    with open(path, 'rb') as f:
        before = f.read()
    with pytest.raises(RuntimeError, match='boom'):
        save(path, Exploding())
    with open(path, 'rb') as f:
        assert f.read() == before
    assert os.listdir(str(tmp_path)) == ['model']  # the temporary is gone
    m = Net()
    load(path, m)
    assert m.N == 7


@formats
def test_save_fsyncs_the_new_file_before_renaming_it(fmt, tmp_path,
                                                     monkeypatch):
    save, _ = _fmt(fmt)
    path = str(tmp_path / 'model')
    events = []
    fsync, replace = os.fsync, os.replace

    def spy_fsync(fd):
        events.append(('fsync', os.fstat(fd).st_ino))
        return fsync(fd)

    def spy_replace(src, dst):
        events.append(('replace', os.stat(src).st_ino))
        return replace(src, dst)

    monkeypatch.setattr(os, 'fsync', spy_fsync)
    monkeypatch.setattr(os, 'replace', spy_replace)
    save(path, Net())
    monkeypatch.undo()
    ino = os.stat(path).st_ino
    assert events.index(('fsync', ino)) < events.index(('replace', ino))


_FULL_DISK = textwrap.dedent('''
    import resource, signal, sys
    import numpy, chainer
    from chainer.serializers import save_npz, save_hdf5
    save = save_npz if sys.argv[1] == 'npz' else save_hdf5
    model = chainer.Sequential(*[chainer.links.Linear(300, 300)
                                 for _ in range(8)])
    # a disk that fills after 1 MB: writes fail with EFBIG
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (2 ** 20, 2 ** 20))
    try:
        save(sys.argv[2], model)
    except OSError as e:
        print('OSError', e.errno)
''')


@posix_only
@formats
def test_full_disk_keeps_the_old_file(fmt, tmp_path):
    save, load = _fmt(fmt)
    path = str(tmp_path / 'model')
    old = Net()
    old.N = 3
    save(path, old)
    with open(path, 'rb') as f:
        before = f.read()
    proc = subprocess.run([sys.executable, '-c', _FULL_DISK, fmt, path],
                          capture_output=True, text=True, timeout=60)
    # a clean error, not a crash inside HDF5
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split() == ['OSError', str(errno.EFBIG)]
    with open(path, 'rb') as f:
        assert f.read() == before
    assert os.listdir(str(tmp_path)) == ['model']


# --- leftovers of killed saves are removed by the next save -----------------

def _leftover(folder, name, data, age=0):
    path = os.path.join(str(folder), name)
    with open(path, 'wb') as f:
        f.write(data)
    if age:
        t = time.time() - age
        os.utime(path, (t, t))
    return path


@posix_only
@formats
def test_next_save_removes_only_stale_leftovers_of_ours(fmt, tmp_path):
    save, _ = _fmt(fmt)
    old = _tempfiles.STALE_AGE + 60
    zip_head = b'PK\x03\x04' + b'\0' * 100
    h5_head = b'\x89HDF\r\n\x1a\n' + b'\0' * 100
    # dead saves' files: removed at once (nobody holds their lock)
    _leftover(tmp_path, '.tmp-a.npz-k3j_9x0q.npz', zip_head)
    _leftover(tmp_path, '.tmp-snapshot_iter_4-abcdefgh', zip_head)
    _leftover(tmp_path, '.tmp-b.h5-zzzzzzzz.h5', h5_head)
    # a save's own name (the tilde): any content, even an HDF5 file whose
    # first block is not written yet
    _leftover(tmp_path, '.tmp~i.h5-iiiiiiii.h5', b'\0' * 100)
    _leftover(tmp_path, '.tmp~j.npz-jjjjjjjj.npz', b'PK')
    # empty, or unlike our files: only once old
    _leftover(tmp_path, '.tmp-c.npz-aaaaaaaa.npz', b'', age=old)
    _leftover(tmp_path, '.tmp-log-bbbbbbbb', b'[{"a": 1}]', age=old)
    kept = [
        _leftover(tmp_path, '.tmp-d.npz-cccccccc.npz', b''),   # fresh
        _leftover(tmp_path, '.tmp~k.npz-kkkkkkkk.npz', b''),   # fresh
        _leftover(tmp_path, '.tmp-log-dddddddd', b'[{"a": 1}]'),
        # not the names our saves give
        _leftover(tmp_path, '.tmp-e.npz-eeee.npz', zip_head, age=old),
        _leftover(tmp_path, '.tmp-f.npz-ffffffff.h5', zip_head, age=old),
        _leftover(tmp_path, 'tmp-g.npz-gggggggg.npz', zip_head, age=old),
        _leftover(tmp_path, 'notes.txt', b'', age=old),
    ]
    target = _leftover(tmp_path, 'elsewhere.npz', zip_head)
    os.symlink(target, str(tmp_path / '.tmp-h.npz-hhhhhhhh.npz'))
    kept.append(str(tmp_path / '.tmp-h.npz-hhhhhhhh.npz'))
    save(str(tmp_path / 'model'), Net())
    assert _others(tmp_path, 'model', 'elsewhere.npz') == sorted(
        os.path.basename(p) for p in kept)
    with open(target, 'rb') as f:
        assert f.read() == zip_head


_HOLDER = textwrap.dedent('''
    import fcntl, os, sys
    fd = os.open(sys.argv[1], os.O_RDWR)
    fcntl.flock(fd, fcntl.LOCK_EX)
    print('locked', flush=True)
    sys.stdin.read()
''')


@posix_only
@formats
def test_a_live_save_elsewhere_is_left_alone_until_killed(fmt, tmp_path):
    save, _ = _fmt(fmt)
    live = _leftover(tmp_path, '.tmp-big.npz-abcdefgh.npz',
                     b'PK\x03\x04' + b'\0' * 100)
    holder = subprocess.Popen([sys.executable, '-c', _HOLDER, live],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        assert holder.stdout.readline() == b'locked\n'
        save(str(tmp_path / 'model'), Net())
        assert os.path.exists(live)  # another process is writing it
        os.kill(holder.pid, signal.SIGKILL)
        holder.wait()
        save(str(tmp_path / 'model'), Net())
        assert not os.path.exists(live)
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait()


class SavesWhileSaved(chainer.Link):
    """A save into the same folder while this process writes a file there:
    the inner save must not take the outer one's file for a leftover."""

    def __init__(self, path):
        super().__init__()
        self.path = path

    def serialize(self, serializer):
        serializer('a', numpy.arange(1000.))
        npz.save_npz(self.path, Net())
        serializer('b', numpy.arange(10.))


@posix_only
def test_a_save_of_this_process_is_left_alone(tmp_path):
    if h5py is None:
        pytest.skip('h5py is not installed')
    path = str(tmp_path / 'outer.h5')
    hdf5.save_hdf5(path, SavesWhileSaved(str(tmp_path / 'inner.npz')))
    assert sorted(os.listdir(str(tmp_path))) == ['inner.npz', 'outer.h5']
    with h5py.File(path, 'r') as f:
        numpy.testing.assert_array_equal(f['b'][()], numpy.arange(10.))


# --- SIGKILL during saves ---------------------------------------------------

# A process that saves a 4 MB model over and over into one file (without
# compression, to keep the test short), in a forked worker per trial (a trial
# costs no interpreter start), and kills the worker after the delay the test
# asks for. Each value of the model is R + k, R fixed, k the number of the
# save; the worker reports every k it has saved completely.
_SAVER = textwrap.dedent('''
    import os, signal, struct, sys, time
    import numpy, chainer
    from chainer.serializers import save_npz, save_hdf5
    from chainer.training.extensions import snapshot_writers
    if sys.argv[1] == 'npz':
        def save(path, obj):
            save_npz(path, obj, compression=False)
    elif sys.argv[1] == 'snapshot':
        writer = snapshot_writers.SimpleWriter(compression=False)
        def save(path, obj):
            writer(os.path.basename(path), os.path.dirname(path), obj)
    else:
        def save(path, obj):
            save_hdf5(path, obj, compression=0)
    target = sys.argv[2]
    R = numpy.random.default_rng(0).random((2, 512, 1024), numpy.float32)
    model = chainer.Chain()
    with model.init_scope():
        model.p = chainer.Parameter(R[0].copy())
        model.q = chainer.Parameter(R[1].copy())
    def fill(k):
        model.p.array[...] = R[0] + numpy.float32(k)
        model.q.array[...] = R[1] + numpy.float32(k)
    fill(1000)
    t = time.perf_counter()
    save(target, model)
    duration = time.perf_counter() - t
    fill(0)
    save(target, model)
    print('ready', duration, flush=True)
    for line in sys.stdin:
        base, delay = int(line.split()[0]), float(line.split()[1])
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                os.close(r)
                k = base
                while True:
                    fill(k)
                    save(target, model)
                    os.write(w, struct.pack('q', k))
                    k += 1
            finally:
                os._exit(1)
        os.close(w)
        time.sleep(delay)
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        done = b''
        while True:
            chunk = os.read(r, 65536)
            if not chunk:
                break
            done += chunk
        os.close(r)
        last = struct.unpack('q', done[-8:])[0] if done else -1
        print(last, flush=True)
''')


def _saved_k(path, load):
    R = numpy.random.default_rng(0).random((2, 512, 1024), numpy.float32)
    model = chainer.Chain()
    with model.init_scope():
        model.p = chainer.Parameter(numpy.zeros((512, 1024), numpy.float32))
        model.q = chainer.Parameter(numpy.zeros((512, 1024), numpy.float32))
    load(path, model)  # a complete file, or this raises
    k = int(round(float(model.p.array[0, 0] - R[0, 0, 0])))
    numpy.testing.assert_array_equal(model.p.array, R[0] + numpy.float32(k))
    numpy.testing.assert_array_equal(model.q.array, R[1] + numpy.float32(k))
    return k


def _is_empty(path):
    if os.path.isdir(path):
        return not os.listdir(path)
    return os.path.getsize(path) == 0


@posix_only
@pytest.mark.parametrize('fmt', ['npz', 'hdf5', 'snapshot'])
def test_sigkill_during_saves(fmt, tmp_path):
    save, load = _fmt(fmt)
    trials = 20
    target = str(tmp_path / 'model')
    saver = subprocess.Popen(
        [sys.executable, '-c', _SAVER, fmt, target], stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, text=True, cwd=str(tmp_path))
    rng = random.Random(12)
    empty_leftovers = []
    killed_in_a_save = 0
    try:
        word, duration = saver.stdout.readline().split()
        assert word == 'ready'
        # kills land anywhere in the first three saves of each worker
        span = 3 * float(duration)
        current = 0
        for trial in range(trials):
            base = 1000 * (trial + 1)
            saver.stdin.write('{} {}\n'.format(base, rng.uniform(0, span)))
            saver.stdin.flush()
            last = int(saver.stdout.readline())
            if _others(tmp_path, 'model'):
                killed_in_a_save += 1
            # the old file or the new one, complete
            k = _saved_k(target, load)
            if last < 0:
                assert k in (current, base), (trial, k)
            else:
                assert k in (last, last + 1), (trial, k)
            current = k
            # the next save into the folder removes what the kill left
            save(str(tmp_path / 'next'), Net())
            for name in _others(tmp_path, 'model', 'next'):
                # killed between creating its file (or folder) and its
                # first byte (a millisecond at most): empty, removed by age
                assert _is_empty(str(tmp_path / name)), name
                empty_leftovers.append(name)
    finally:
        saver.kill()
        saver.wait()
    assert killed_in_a_save >= trials // 4
    if empty_leftovers:
        for name in _others(tmp_path, 'model', 'next'):
            t = time.time() - _tempfiles.STALE_AGE - 1
            os.utime(str(tmp_path / name), (t, t))
        save(str(tmp_path / 'next'), Net())
    assert _others(tmp_path, 'model', 'next') == []
