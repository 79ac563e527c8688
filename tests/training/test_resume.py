"""Resuming from a snapshot after a hard kill continues bit for bit."""

import os
import signal
import subprocess
import sys

import numpy

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                      'resume_train.py')


def _run(out, mode):
    subprocess.run([sys.executable, SCRIPT, out, mode], check=True,
                   timeout=120)


def test_sigkill_then_resume_is_bit_identical(tmp_path):
    full = str(tmp_path / 'full')
    crash = str(tmp_path / 'crash')
    proc = subprocess.Popen([sys.executable, SCRIPT, crash, 'crash'],
                            stdout=subprocess.PIPE, text=True)
    try:
        # Run the uninterrupted training meanwhile.
        _run(full, 'full')
        line = proc.stdout.readline()
        assert line.strip() == 'READY'
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == -signal.SIGKILL
    names = sorted(n for n in os.listdir(crash) if n.startswith('snapshot'))
    assert names == ['snapshot_iter_4', 'snapshot_iter_8']  # n_retains=2
    assert not os.path.exists(os.path.join(crash, 'final.npz'))

    _run(crash, 'resume')
    with numpy.load(os.path.join(full, 'final.npz')) as a, \
            numpy.load(os.path.join(crash, 'final.npz')) as b:
        assert sorted(a.files) == sorted(b.files)
        for key in a.files:
            assert a[key].tobytes() == b[key].tobytes(), key
    names = sorted(n for n in os.listdir(crash) if n.startswith('snapshot'))
    assert names == ['snapshot_iter_24', 'snapshot_iter_28']
    # The resumed log continues the old one.
    import json
    with open(os.path.join(full, 'log')) as f:
        log_full = json.load(f)
    with open(os.path.join(crash, 'log')) as f:
        log_resumed = json.load(f)
    assert [e['iteration'] for e in log_resumed] == \
        [e['iteration'] for e in log_full] == list(range(3, 31, 3))
    for e1, e2 in zip(log_full, log_resumed):
        assert e1['main/loss'] == e2['main/loss']
