"""Keeps glibc from handing large freed buffers back to the system.

A training step allocates and frees the same multi-megabyte temporaries
(im2col matrices, activations) again and again.  By default glibc serves
each with a fresh ``mmap`` and unmaps it on free, so every step pays the
page faults of touching new memory again (a 5x5 convolution of a LeNet
step ran 4x slower that way).  Raising the mmap and trim thresholds lets
those buffers be reused from the heap, as PyTorch's and other frameworks'
allocators do.  Set ``CHAINER_MALLOC_TUNING=0`` to leave malloc alone.
"""

import ctypes
import ctypes.util
import os
import sys

_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
# glibc's largest mmap threshold on 64-bit systems.
_MMAP_THRESHOLD = 32 * 1024 * 1024
_TRIM_THRESHOLD = 512 * 1024 * 1024


def tune():
    """Raises glibc's thresholds (once, on Linux with glibc only)."""
    if os.environ.get('CHAINER_MALLOC_TUNING', '1') == '0':
        return False
    if not sys.platform.startswith('linux'):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library('c') or 'libc.so.6')
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # not glibc (e.g. musl)
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    ok = mallopt(_M_MMAP_THRESHOLD, _MMAP_THRESHOLD)
    ok &= mallopt(_M_TRIM_THRESHOLD, _TRIM_THRESHOLD)
    return bool(ok)
