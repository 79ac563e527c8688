"""NCCL as CuPy ships it (``cupy.cuda.nccl``), or its absence.

``available`` says whether CuPy was built with NCCL; ``get_build_version()``
is 0 without it, so code can compare versions without a try block.
"""

try:
    from cupy.cuda import nccl as _nccl
    from cupy.cuda.nccl import *  # NOQA
    available = True
except Exception:  # no CuPy, no CUDA, or CuPy built without NCCL
    _nccl = None
    available = False


def get_build_version():
    """NCCL's build version (e.g. 2708), or 0 when NCCL is not available."""
    return _nccl.get_build_version() if available else 0


def get_version():
    """The version of the loaded NCCL library, or 0 when it is not available."""
    return _nccl.get_version() if available else 0
