"""chainermn: what runs in one process, and the runner of the multi-process
cases (``mpi_cases.py``) under ``mpiexec -n 2`` and ``-n 3``.

The MPI cases are skipped, not failed, where mpi4py or mpiexec is missing.
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import time

import numpy
import pytest

import chainer
import chainermn
from chainermn.datasets.scatter import _scatter_index
from chainermn.extensions._multi_node_snapshot import _parse_replica_sets

HERE = os.path.dirname(os.path.abspath(__file__))


def _mpiexec():
    try:
        import mpi4py  # noqa: F401
    except ImportError:
        return None
    candidate = os.path.join(os.path.dirname(sys.executable), 'mpiexec')
    return candidate if os.path.exists(candidate) else shutil.which('mpiexec')


def _run_mpi(n, args, timeout, cwd=None):
    mpiexec = _mpiexec()
    if mpiexec is None:
        pytest.skip('needs mpi4py and mpiexec (pip install "chainer[mpi]")')
    flags = ['--oversubscribe'] if b'Open MPI' in subprocess.run(
        [mpiexec, '--version'], capture_output=True).stdout else []
    env = dict(os.environ, OMP_NUM_THREADS='1', OPENBLAS_NUM_THREADS='1',
               PYTHONPATH=os.pathsep.join([os.path.dirname(os.path.dirname(HERE))] + sys.path))
    # mpiexec and its ranks get a process group of their own, and the whole
    # group is killed on a timeout or when this process is interrupted: a
    # plain subprocess.run would only kill mpiexec and could leave ranks
    # spinning in MPI's busy wait. PR_SET_PDEATHSIG ends mpiexec (and with it
    # its proxies) should this pytest itself be killed.
    proc = subprocess.Popen(
        [mpiexec, '-n', str(n)] + flags + [sys.executable] + args,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        cwd=cwd, start_new_session=True, preexec_fn=_die_with_parent)
    try:
        out, err = proc.communicate(timeout=timeout)
    except BaseException:
        _kill_group(proc)
        raise
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def _die_with_parent():
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _kill_group(proc):
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.communicate()


def test_version_without_mpi4py():
    # chainermn imports without mpi4py; a communicator then names the extra.
    code = ('import sys; sys.modules["mpi4py"] = None\n'
            'import chainermn; print(chainermn.__version__)\n'
            'try:\n    chainermn.create_communicator("naive")\n'
            'except ImportError as e:\n    print(e)\n')
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    assert out[0] == chainermn.__version__ == '8.0.0'
    assert "pip install 'chainer[mpi]'" in out[1]


@pytest.mark.parametrize('name', ['hierarchical', 'two_dimensional', 'single_node', 'x'])
def test_unknown_communicator(name):
    with pytest.raises(ValueError, match='Unrecognized communicator'):
        chainermn.create_communicator(name)


def test_allreduce_grad_dtype_only_for_pure_nccl():
    with pytest.raises(ValueError, match='pure_nccl'):
        chainermn.create_communicator('naive', allreduce_grad_dtype='float16')


def test_gpu_communicators_need_nccl():
    if chainermn.nccl.available:
        pytest.skip('NCCL is available here')
    code = ('import chainermn\nfor n in ("pure_nccl", "non_cuda_aware"):\n'
            '    try:\n        chainermn.create_communicator(n)\n'
            '    except RuntimeError as e:\n        print(e)\n')
    if _mpiexec() is None:
        pytest.skip('needs mpi4py')
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                         check=True).stdout
    assert out.count('needs CuPy built with NCCL') == 2


@pytest.mark.parametrize('n,size', [(5, 2), (7, 3), (10, 3), (11, 3), (3, 3), (100, 7)])
def test_scatter_index_shares(n, size):
    unequal = [(b, e) for _, b, e in _scatter_index(n, size, False)]
    # Contiguous, covering, sizes differing by at most one.
    assert unequal[0][0] == 0 and unequal[-1][1] == n
    assert all(a[1] == b[0] for a, b in zip(unequal, unequal[1:]))
    assert max(e - b for b, e in unequal) - min(e - b for b, e in unequal) <= 1
    equal = [(b, e) for _, b, e in _scatter_index(n, size, True)]
    assert {e - b for b, e in equal} == {-(-n // size)}
    assert set().union(*(range(b, e) for b, e in equal)) == set(range(n))
    assert equal[-1][1] == n


def test_parse_replica_sets():
    assert _parse_replica_sets([0, 1], 4) == [{0}, {1}, {2, 3}]
    assert _parse_replica_sets([], 3) == [{0, 1, 2}]
    assert _parse_replica_sets([[0, 2]], 4) == [{0, 2}, {1, 3}]


def test_empty_dataset():
    assert chainermn.datasets.create_empty_dataset(range(3)) == [(), (), ()]


def test_pseudo_connect():
    # Always a tuple; the delegate gets a zero gradient, the others theirs.
    d = chainer.Variable(numpy.empty((2, 3), numpy.float32))
    x = chainer.Variable(numpy.arange(3, dtype=numpy.float32))
    y, = chainermn.functions.pseudo_connect(d, x)
    numpy.testing.assert_array_equal(y.array, x.array)
    chainer.functions.sum(y * 2).backward()
    numpy.testing.assert_array_equal(d.grad, numpy.zeros((2, 3)))
    numpy.testing.assert_array_equal(x.grad, [2, 2, 2])
    assert chainermn.functions.pseudo_connect(d) == ()
    y1, y2 = chainermn.functions.pseudo_connect(None, x, x.array)
    assert y1 is x and isinstance(y2, chainer.Variable)


@pytest.mark.parametrize('n', [2, 3])
def test_under_mpiexec(n, tmp_path):
    # Every rank runs mpi_cases.py's cases with pytest; a case failing on any
    # rank fails on all of them (see its conftest), and the run must end.
    # A case that hangs prints every rank's stack after 60 seconds.
    r = _run_mpi(n, ['-m', 'pytest', '-q', '-x', '-p', 'no:cacheprovider',
                     '--rootdir', str(tmp_path), '-c', os.devnull,
                     '-o', 'faulthandler_timeout=60', '--basetemp', str(tmp_path / 'base'),
                     os.path.join(HERE, 'mpi_cases.py')], timeout=240)
    assert r.returncode == 0, r.stdout[-6000:] + r.stderr[-3000:]
    assert r.stdout.count(' passed') == n, r.stdout[-3000:]


def test_exception_on_one_rank_aborts_all():
    code = ('import chainermn, time\nchainermn.global_except_hook.add_hook()\n'
            'comm = chainermn.create_communicator("naive")\n'
            'if comm.rank == 1:\n    raise RuntimeError("boom on rank 1")\n'
            'comm.recv_obj(1)  # would wait forever without the hook\n')
    start = time.time()
    r = _run_mpi(2, ['-c', code], timeout=60)
    assert r.returncode != 0
    assert 'boom on rank 1' in r.stderr
    assert time.time() - start < 30


def test_mnist_example_on_two_processes(tmp_path):
    # The README's two-process run, briefly: each rank trains on half the
    # digits, rank 0 logs the mean validation scores of both.
    pytest.importorskip('sklearn')
    script = os.path.join(os.path.dirname(os.path.dirname(HERE)), 'examples', 'chainermn',
                          'mnist', 'train_mnist.py')
    r = _run_mpi(2, [script, '--epoch', '4', '--unit', '200', '--noplot', '--out', 'out'],
                 timeout=120, cwd=str(tmp_path))
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert r.stdout.count('# processes: 2') == 1  # rank 0 alone prints
    with open(tmp_path / 'out' / 'log') as f:
        log = json.load(f)
    # 1437 training digits, 719 a rank, 100 a batch: 8 iterations an epoch.
    assert [e['iteration'] for e in log] == [8, 15, 22, 29]
    assert log[-1]['validation/main/accuracy'] > 0.85
    assert log[-1]['main/loss'] < log[0]['main/loss']
    # One snapshot, by rank 0, which every rank resumes from.
    assert sorted(os.listdir(tmp_path / 'out')) == ['log', 'snapshot_iter_29.0']


_EXPERIMENTAL_CODE = '''
import warnings
import numpy, chainer, chainermn
F = chainermn.functions
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    comm = chainermn.create_communicator('naive')
    x = chainer.Variable(numpy.ones(2, numpy.float32))
    F.allgather(comm, x)
    chainermn.links.MultiNodeBatchNormalization(2, comm)
    chainermn.MultiNodeChainList(comm)
    comm.bcast(numpy.zeros(1))
for m in w:
    if m.category is FutureWarning:
        print(m.message)
'''


def test_experimental_features_warn_as_in_chainer():
    if _mpiexec() is None:
        pytest.skip('needs mpi4py')
    out = subprocess.run([sys.executable, '-c', _EXPERIMENTAL_CODE], capture_output=True,
                         text=True, check=True).stdout
    tail = ' is experimental. The interface can change in the future.'
    assert out.splitlines() == [name + tail for name in (
        'chainermn.functions.all_gather', 'chainermn.functions.AllGather',
        'chainermn.communicators.MpiCommunicatorBase.allgather',
        'chainermn.links.MultiNodeBatchNormalization', 'chainermn.MultiNodeChainList',
        'chainermn.communicators.MpiCommunicatorBase.bcast')]
