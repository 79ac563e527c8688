import os
import sys

import numpy
import pytest

# Lets test modules import the shared harness (tests/op_harness.py).
sys.path.insert(0, os.path.dirname(__file__))

import op_harness  # NOQA: E402
from chainer.backends import cuda  # NOQA: E402

# Every gpu-marked test skips, for this one reason, where CuPy or a GPU is
# missing; `pytest -m gpu` selects exactly them.
# (Prepended as a skipif, it is the first of a test's skip marks evaluated.)
_NO_GPU = pytest.mark.skipif(True, reason='needs CuPy and a GPU')

# The devices of the tests that take a ``device`` (a chainer.backend.Device).
DEVICES = ['@numpy', pytest.param('@cupy:0', marks=pytest.mark.gpu, id='@cupy:0')]

# The harness functions that run again on the GPU when a test calls them.
_HARNESS = frozenset(['check_op', 'check_param_grads', 'roundtrip_npz',
                      'check_copies'])


def _calls_harness(code, module_globals, seen):
    """Whether ``code`` (or a function of its module that it calls, or a
    lambda inside it) names one of the harness functions."""
    for name in code.co_names:
        if name in _HARNESS:
            return True
        f = module_globals.get(name)
        f_code = getattr(f, '__code__', None)
        if (f_code is not None and f_code not in seen
                and getattr(f, '__globals__', None) is module_globals):
            seen.add(f_code)
            if _calls_harness(f_code, module_globals, seen):
                return True
    return any(_calls_harness(c, module_globals, seen)
               for c in code.co_consts if hasattr(c, 'co_names'))


def pytest_generate_tests(metafunc):
    f = metafunc.function
    if _calls_harness(f.__code__, f.__globals__, {f.__code__}):
        metafunc.parametrize('_harness_device', DEVICES, indirect=True)


def pytest_collection_modifyitems(config, items):
    if not cuda.available:
        for item in items:
            if item.get_closest_marker('gpu') is not None:
                item.add_marker(_NO_GPU, append=False)


@pytest.fixture(autouse=True)
def _harness_device(request):
    """Sets op_harness.DEVICE for the gpu copy of a harness test."""
    name = getattr(request, 'param', '@numpy')
    if name == '@numpy':
        yield
        return
    import chainer
    op_harness.DEVICE = chainer.get_device(name)
    try:
        yield
    finally:
        op_harness.DEVICE = None


@pytest.fixture(params=DEVICES)
def device(request):
    """A test's device, '@numpy' and (marked gpu) '@cupy:0'."""
    import chainer
    return chainer.get_device(request.param)


@pytest.fixture(params=DEVICES[1:])
def gpu_device(request):
    """'@cupy:0' alone (marked gpu), for tests that compare with NumPy."""
    import chainer
    return chainer.get_device(request.param)


@pytest.fixture(autouse=True)
def _fixed_seed():
    numpy.random.seed(0)
    yield
