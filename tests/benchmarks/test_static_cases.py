"""benchmarks/run.py's deep-static and chain100-static cases (the chains of
benchmarks/static.py): they replay, and their gradients are define-by-run's
bit for bit.  Run in a child process with PyTorch kept out (optional
there, and slow to import)."""

import os
import subprocess
import sys

BENCHMARKS = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..',
                          '..', 'benchmarks')

CODE = '''
import sys
sys.modules['torch'] = None
sys.path.insert(0, {path!r})
import run, static
assert run.CASES['deep-static'][1:] == run.CASES['deep'][1:]
assert run.CASES['chain100-static'][1:] == run.CASES['chain100'][1:]
step = run.CASES['deep-static'][0]()
step()
_, model = static.deep_static()
static._warm(lambda: (model.cleargrads(), model(run._deep_data()[0])
                      .backward()))
print(type(model.static_schedule.compiled).__name__,
      static._check('deep'), static._check('chain100'))
'''


def test_static_cases_replay_with_define_by_run_gradients():
    out = subprocess.run(
        [sys.executable, '-c', CODE.format(path=BENCHMARKS)],
        capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ['Compiled', 'True', 'True']
