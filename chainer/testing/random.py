"""Reproducible random numbers in tests: ``fix_random`` and
``generate_seed``."""

import functools
import os
import random as _pyrandom

import numpy

from chainer.testing import _bundle

_DEFAULT_SEED = 100


def _seed():
    """The seed of a test: ``CHAINER_TEST_RANDOM_SEED`` (100 by default), or
    None (fresh entropy) when ``CHAINER_TEST_RANDOM_NONDETERMINISTIC`` is a
    nonzero integer, as in Chainer."""
    if int(os.environ.get('CHAINER_TEST_RANDOM_NONDETERMINISTIC', '0')):
        return None
    return int(os.environ.get('CHAINER_TEST_RANDOM_SEED', _DEFAULT_SEED))


def _get_cupy():
    from chainer.backends import cuda
    return cuda.cupy if cuda.available else None


def _save_and_seed():
    """Saves the global random states and seeds them; returns what
    :func:`_restore` needs."""
    seed = _seed()
    state = (numpy.random.get_state(), _pyrandom.getstate())
    numpy.random.seed(seed)
    _pyrandom.seed(seed)
    cupy = _get_cupy()
    if cupy is not None:
        cupy.random.seed(seed)
    return state


def _restore(state):
    np_state, py_state = state
    numpy.random.set_state(np_state)
    _pyrandom.setstate(py_state)
    cupy = _get_cupy()
    if cupy is not None:
        cupy.random.seed()


def generate_seed():
    """A random seed (an int in ``[0, 2**32)``) drawn from NumPy's global
    generator: reproducible within a :func:`fix_random` test."""
    return int(numpy.random.randint(0, 2 ** 32, dtype=numpy.int64))


def _wrap_function(f):
    @functools.wraps(f)
    def wrapped(*args, **kwargs):
        state = _save_and_seed()
        try:
            return f(*args, **kwargs)
        finally:
            _restore(state)
    return wrapped


def _fix_class(cls, setup_method, teardown_method):
    orig_setup = getattr(cls, setup_method, None)
    orig_teardown = getattr(cls, teardown_method, None)
    key = '_chainer_fix_random_states'

    def setup(self, *args, **kwargs):
        states = self.__dict__.setdefault(key, [])
        states.append(_save_and_seed())
        if orig_setup is not None:
            orig_setup(self, *args, **kwargs)

    def teardown(self, *args, **kwargs):
        try:
            if orig_teardown is not None:
                orig_teardown(self, *args, **kwargs)
        finally:
            states = self.__dict__.get(key)
            if states:
                _restore(states.pop())

    for name, new, orig in ((setup_method, setup, orig_setup),
                            (teardown_method, teardown, orig_teardown)):
        if orig is not None:
            functools.update_wrapper(new, orig)
        else:
            new.__name__ = name
        setattr(cls, name, new)
    return cls


def fix_random(*, setup_method='setUp', teardown_method='tearDown'):
    """Decorator that fixes random numbers in a test.

    On a test method (or function), NumPy's and Python's global random
    generators (and CuPy's, when available) are seeded before the call
    and restored after it. On a test class, that happens around each
    test: in ``setup_method`` and ``teardown_method`` (for a plain pytest
    class, pass ``setup_method='setup_method',
    teardown_method='teardown_method'``). The seed is 100, or
    ``CHAINER_TEST_RANDOM_SEED``; with
    ``CHAINER_TEST_RANDOM_NONDETERMINISTIC=1`` each test draws a fresh
    one.

    Apply it outside of ``condition.retry`` and ``condition.repeat``, so
    that the trials differ.

    >>> import unittest
    >>> from chainer import testing
    >>> @testing.fix_random()
    ... class TestSample(unittest.TestCase):
    ...     def test_draw(self):
    ...         x = numpy.random.uniform(-1, 1, (2, 3))
    """
    def decorator(obj):
        if isinstance(obj, _bundle._ParameterizedTestCaseBundle):
            for case in obj.cases:
                _fix_class(case, setup_method, teardown_method)
            return obj
        if isinstance(obj, type):
            return _fix_class(obj, setup_method, teardown_method)
        if callable(obj):
            return _wrap_function(obj)
        raise TypeError('fix_random must decorate a class or a function, '
                        'got {!r}'.format(obj))
    return decorator
