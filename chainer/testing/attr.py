"""Test attributes: pytest marks for tests that need special hardware or
time (``gpu``, ``multi_gpu(n)``, ``cudnn``, ``ideep``, ``chainerx``,
``slow``).

Select or deselect them with ``pytest -m 'not gpu'``. Unlike Chainer, a
test that needs hardware or a library which is not there is also skipped
(GPU tests without CuPy, iDeep and ChainerX tests always: chainer-ng has
neither). ``CHAINER_TEST_GPU_LIMIT`` (if >= 0) skips the tests that need
more GPUs than that.

Register the marks in your pytest configuration to avoid
``PytestUnknownMarkWarning``, or load ``-p chainer.testing._pytest_plugin``.
"""

import os

# pytest is imported on first use: ``import chainer`` (which imports
# chainer.testing) must not pay for it.
_pytest_module = None
_error = None


def _get_pytest():
    global _pytest_module, _error
    if _pytest_module is None and _error is None:
        try:
            import pytest
            _pytest_module = pytest
        except ImportError as e:  # pragma: no cover
            _error = e
    return _pytest_module


MARKS = {
    'gpu': 'the test needs CuPy and a GPU',
    'cudnn': 'the test needs cuDNN',
    'ideep': 'the test needs iDeep',
    'chainerx': 'the test needs ChainerX',
    'slow': 'a slow test',
}


def is_available():
    """Whether pytest (which the marks need) is importable."""
    return _get_pytest() is not None


def check_available():
    if _get_pytest() is None:
        raise RuntimeError(
            'chainer.testing.attr is not available.\n\nReason: {}: {}'.format(
                type(_error).__name__, _error))


def get_error():
    _get_pytest()
    return _error


def _dummy_callable(*args, **kwargs):
    # What Chainer's marks were where pytest is missing; code built on
    # Chainer (chainercv's testing helpers) imports it then as its own mark.
    # Used as a mark, it raises, as they did.
    check_available()
    if len(args) == 1 and not kwargs and callable(args[0]):
        return args[0]
    raise TypeError('_dummy_callable: expected one test to mark')


def _gpu_limit():
    return int(os.environ.get('CHAINER_TEST_GPU_LIMIT', '-1'))


def _cuda_available():
    from chainer.backends import cuda
    return cuda.available


def _gpu_count():
    if not _cuda_available():
        return 0
    from chainer.backends import cuda
    try:
        return cuda.cupy.cuda.runtime.getDeviceCount()
    except Exception:
        return 0


def multi_gpu(gpu_num):
    """Marks a test that needs ``gpu_num`` GPUs (mark ``gpu``); it is
    skipped when fewer are there, or when ``CHAINER_TEST_GPU_LIMIT`` is
    below ``gpu_num``."""
    check_available()
    pytest = _get_pytest()
    limit = _gpu_limit()

    def deco(f):
        f = pytest.mark.skipif(
            0 <= limit < gpu_num,
            reason='CHAINER_TEST_GPU_LIMIT={} < {}'.format(limit, gpu_num))(f)
        f = pytest.mark.skipif(
            _gpu_count() < gpu_num,
            reason='needs {} GPU(s) with CuPy'.format(gpu_num))(f)
        return pytest.mark.gpu(f)

    return deco


def gpu(f):
    """Marks a test that needs a GPU (mark ``gpu``; skipped without
    CuPy)."""
    return multi_gpu(1)(f)


def cudnn(f):
    """Marks a test that needs cuDNN (marks ``gpu`` and ``cudnn``)."""
    check_available()
    pytest = _get_pytest()
    from chainer.backends import cuda
    f = pytest.mark.skipif(not cuda.cudnn_enabled,
                           reason='cuDNN is not available')(f)
    return pytest.mark.cudnn(gpu(f))


def ideep(f):
    """Marks a test that needs iDeep (not supported: always skipped)."""
    check_available()
    pytest = _get_pytest()
    f = pytest.mark.skip(reason='iDeep is not supported by chainer-ng')(f)
    return pytest.mark.ideep(f)


def chainerx(f):
    """Marks a test that needs ChainerX (not supported: always
    skipped)."""
    check_available()
    pytest = _get_pytest()
    f = pytest.mark.skip(reason='ChainerX is not supported by chainer-ng')(f)
    return pytest.mark.chainerx(f)


def slow(*args, **kwargs):
    """Marks a slow test (``@slow`` or ``@slow(...)``)."""
    check_available()
    return _get_pytest().mark.slow(*args, **kwargs)
