"""benchmarks/gpu.py without a GPU: it imports, parses its arguments, and
stops with a message saying what is missing (the timings need a device).
Run in a child process, PyTorch kept out (it is optional there)."""

import os
import subprocess
import sys

from chainer.backends import cuda

BENCHMARKS = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..',
                          '..', 'benchmarks')

CODE = '''
import sys
sys.modules['torch'] = None
sys.path.insert(0, {path!r})
import gpu
args = gpu.parse_args([])
assert args.cases == ['poly', 'chain100', 'mlp', 'lenet', 'resnet18', 'lstm']
assert (args.repeat, args.use_cudnn, args.autotune) == (5, 'auto', False)
args = gpu.parse_args(['mlp', 'lstm', '--use-cudnn', 'never', '--autotune'])
assert args.cases == ['mlp', 'lstm'] and args.autotune
try:
    gpu.parse_args(['mlp', 'vgg'])
except SystemExit as e:
    assert e.code == 2
else:
    raise AssertionError('an unknown case was accepted')
if {check_message}:
    try:
        gpu.main(['mlp'])
    except SystemExit as e:
        print(e.code)
'''


def test_arguments_and_the_message_without_a_gpu():
    code = CODE.format(path=BENCHMARKS, check_message=not cuda.available)
    out = subprocess.run([sys.executable, '-c', code], capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    if not cuda.available:
        assert 'benchmarks/gpu.py needs CuPy and a GPU' in out.stdout
