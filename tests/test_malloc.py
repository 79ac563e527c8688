import subprocess
import sys

import pytest


@pytest.mark.skipif(not sys.platform.startswith('linux'), reason='glibc only')
def test_tuning_applies_and_can_be_turned_off():
    code = 'import chainer._malloc as m; print(m.tune())'
    on = subprocess.run([sys.executable, '-c', code], capture_output=True,
                        text=True, check=True)
    assert on.stdout.strip() in ('True', 'False')  # False on a non-glibc libc
    off = subprocess.run([sys.executable, '-c', code], capture_output=True,
                         text=True, check=True,
                         env={'CHAINER_MALLOC_TUNING': '0', 'PATH': ''})
    assert off.stdout.strip() == 'False'
