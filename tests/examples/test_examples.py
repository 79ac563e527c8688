"""Run the example scripts for a few iterations and check what they leave.

Each example runs as a subprocess in a temporary folder, as a user would run
it. The digits examples need scikit-learn and are skipped without it; the
plots are checked only where matplotlib is installed.
"""

import json
import os
import subprocess
import sys

import pytest

EXAMPLES = os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, 'examples')


def _has(module):
    try:
        __import__(module)
    except ImportError:
        return False
    return True


HAS_PLOT = _has('matplotlib')
needs_sklearn = pytest.mark.skipif(not _has('sklearn'), reason='needs scikit-learn')


def run_example(script, cwd, *args, timeout=120, one_thread=True):
    env = dict(os.environ, MPLBACKEND='Agg')
    if one_thread:
        # Small matrices multiply several times faster without BLAS threads
        # on a busy machine; the demo's own test runs as a user runs it.
        env.update(OPENBLAS_NUM_THREADS='1', OMP_NUM_THREADS='1')
    proc = subprocess.run(
        [sys.executable, os.path.join(EXAMPLES, script)] + list(args),
        cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-4000:]
    return proc.stdout


def read_log(out):
    with open(os.path.join(out, 'log')) as f:
        return json.load(f)


@needs_sklearn
def test_train_mnist_digits_autoload_and_resume(tmp_path):
    out = tmp_path / 'result'
    stdout = run_example('mnist/train_mnist.py', tmp_path, '--epoch', '2', '--unit', '300',
                         '--frequency', '1', '--device', '@numpy')
    assert 'validation/main/accuracy' in stdout
    files = set(os.listdir(out))
    # 1437 training images, 100 a batch: epoch 2 ends at iteration 29.
    assert {'log', 'cg.dot', 'snapshot_iter_29'} <= files
    if HAS_PLOT:
        assert {'loss.png', 'accuracy.png'} <= files
    log = read_log(out)
    assert [entry['epoch'] for entry in log] == [1, 2]
    assert [entry['iteration'] for entry in log] == [15, 29]
    assert log[-1]['validation/main/accuracy'] > 0.85
    assert log[-1]['main/loss'] < log[0]['main/loss']

    # --autoload picks the snapshot up and continues from epoch 2.
    run_example('mnist/train_mnist.py', tmp_path, '--epoch', '3', '--unit', '300',
                '--frequency', '1', '--autoload', '--noplot', '--device', '-1')
    files = set(os.listdir(out))
    assert 'snapshot_iter_44' in files
    assert 'snapshot_iter_29' not in files      # n_retains=1
    log = read_log(out)
    assert [entry['iteration'] for entry in log] == [15, 29, 44]

    # --resume starts from a given snapshot, into another folder.
    run_example('mnist/train_mnist.py', tmp_path, '--epoch', '4', '--unit', '300',
                '--out', 'second', '--resume', 'result/snapshot_iter_44', '--noplot')
    log = read_log(tmp_path / 'second')
    assert [entry['iteration'] for entry in log] == [15, 29, 44, 58]
    assert log[-1]['validation/main/accuracy'] > 0.9
    assert 'snapshot_iter_58' in os.listdir(tmp_path / 'second')


def test_train_mnist_rejects_unknown_dataset(tmp_path):
    proc = subprocess.run(
        [sys.executable, os.path.join(EXAMPLES, 'mnist/train_mnist.py'),
         '--dataset', 'cifar'], cwd=tmp_path, capture_output=True, text=True)
    assert proc.returncode != 0
    assert 'invalid choice' in proc.stderr


@needs_sklearn
def test_train_cnn(tmp_path):
    run_example('mnist/train_cnn.py', tmp_path, '--epoch', '1', '--channels', '4',
                '--out', 'cnn')
    files = set(os.listdir(tmp_path / 'cnn'))
    assert {'log', 'snapshot_iter_29'} <= files     # 1437 images, 50 a batch
    if HAS_PLOT:
        assert {'loss.png', 'accuracy.png'} <= files
    assert 0 < read_log(tmp_path / 'cnn')[0]['validation/main/accuracy'] <= 1


def test_train_ptb(tmp_path):
    stdout = run_example('ptb/train_ptb.py', tmp_path, '--epoch', '2', '--unit', '16',
                         '--bproplen', '5', '--out', 'ptb')
    files = set(os.listdir(tmp_path / 'ptb'))
    assert 'log' in files
    assert any(f.startswith('snapshot_iter_') for f in files)
    assert 'model_epoch_2' in files
    if HAS_PLOT:
        assert 'loss.png' in files
    log = read_log(tmp_path / 'ptb')
    assert log[-1]['epoch'] == 2
    vocab = 232     # words of data/corpus.txt, plus <eos>
    # An untrained model is close to uniform: perplexity about the vocabulary.
    assert 1 < log[-1]['perplexity'] < 2 * vocab
    assert 1 < log[-1]['val_perplexity'] < 2 * vocab
    assert 'test perplexity:' in stdout
    assert 'sample: the ' in stdout


def test_ptb_iterator_epochs():
    sys.path.insert(0, os.path.join(EXAMPLES, 'ptb'))
    try:
        import train_ptb
    finally:
        sys.path.pop(0)
    data = list(range(10))
    it = train_ptb.ParallelSequentialIterator(data, 2)
    batch = next(it)
    assert batch == [(0, 1), (5, 6)]
    epochs = []
    for _ in range(9):
        next(it)
        epochs.append(it.is_new_epoch)
    # 2 words a batch, 10 words: an epoch ends every 5 batches.
    assert it.epoch == 2 and it.epoch_detail == 2.0
    assert epochs == [False, False, False, True, False, False, False, False, True]
    once = train_ptb.ParallelSequentialIterator(data, 1, repeat=False)
    assert len(list(once)) == 10


@needs_sklearn
def test_train_vae(tmp_path):
    pytest.importorskip('chainer.distributions')
    run_example('vae/train_vae.py', tmp_path, '--epoch', '1', '--unit', '20',
                '--out', 'vae')
    files = set(os.listdir(tmp_path / 'vae'))
    assert {'log', 'model.npz', 'snapshot_iter_15'} <= files
    if HAS_PLOT:
        assert {'loss.png', 'reconstruction.png', 'sampled.png'} <= files
    entry = read_log(tmp_path / 'vae')[0]
    assert entry['main/kl_penalty'] >= 0
    assert entry['main/reconstr'] < 0      # a log-likelihood of [0, 1] pixels
    assert entry['main/loss'] == pytest.approx(
        entry['main/kl_penalty'] - entry['main/reconstr'], rel=1e-4)


@pytest.mark.slow
@needs_sklearn
def test_demo_reaches_95_percent_in_a_minute(tmp_path):
    # The README's demo, as it runs: default options.
    run_example('mnist/train_mnist.py', tmp_path, timeout=300, one_thread=False)
    log = read_log(tmp_path / 'result')
    assert log[-1]['validation/main/accuracy'] >= 0.95
    assert log[-1]['elapsed_time'] < 60
