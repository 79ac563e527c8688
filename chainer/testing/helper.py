"""Small test helpers: requirements, warnings, mock patches, running a
test module."""

import contextlib
import importlib
import re
import unittest
import warnings

_REQ = re.compile(r'^\s*([A-Za-z0-9_.\-]+)\s*(.*)$')


def _version_tuple(text):
    parts = []
    for piece in re.split(r'[.+\-]', text):
        m = re.match(r'(\d+)', piece)
        if not m:
            break
        parts.append(int(m.group(1)))
    return tuple(parts)


def _satisfied(requirement):
    """Whether an installed distribution satisfies ``requirement``
    (``'numpy>=1.10'``, ``'scipy'``, ``'h5py<3,>=2'``)."""
    from importlib import metadata
    m = _REQ.match(requirement)
    if m is None:
        raise ValueError('invalid requirement: {!r}'.format(requirement))
    name, spec = m.group(1), m.group(2).strip()
    try:
        installed = metadata.version(name)
    except metadata.PackageNotFoundError:
        if name.lower() != 'chainer':
            return False
        # chainer-ng imported from a source tree, not installed
        import chainer
        installed = chainer.__version__
    if not spec:
        return True
    try:
        from packaging.specifiers import SpecifierSet
        from packaging.version import Version
        return Version(installed) in SpecifierSet(spec)
    except ImportError:  # pragma: no cover
        pass
    have = _version_tuple(installed)
    ops = {'>=': lambda a, b: a >= b, '<=': lambda a, b: a <= b,
           '==': lambda a, b: a == b, '!=': lambda a, b: a != b,
           '>': lambda a, b: a > b, '<': lambda a, b: a < b}
    for clause in spec.split(','):
        cm = re.match(r'\s*(>=|<=|==|!=|>|<)\s*(\S+)', clause)
        if cm is None:
            raise ValueError('invalid requirement: {!r}'.format(requirement))
        want = _version_tuple(cm.group(2))
        n = max(len(have), len(want))
        a = have + (0,) * (n - len(have))
        b = want + (0,) * (n - len(want))
        if not ops[cm.group(1)](a, b):
            return False
    return True


def with_requires(*requirements):
    """Runs a test (method or class) only when the requirements are
    satisfied, skipping it otherwise.

    Args:
        requirements (str): Requirements such as ``'numpy>=1.10'``.

    >>> import unittest
    >>> from chainer import testing
    >>> class Test(unittest.TestCase):
    ...     @testing.with_requires('numpy>=1.10')
    ...     def test_for_numpy_1_10(self):
    ...         pass
    """
    ok = all(_satisfied(r) for r in requirements)
    return unittest.skipIf(
        not ok, 'requires: {}'.format(','.join(requirements)))


def without_requires(*requirements):
    """Runs a test only when the requirements are NOT all satisfied."""
    ok = all(_satisfied(r) for r in requirements)
    return unittest.skipIf(
        ok, 'requires not: {}'.format(','.join(requirements)))


@contextlib.contextmanager
def assert_warns(expected):
    """Asserts that the block issues a warning of category ``expected``
    (or a subclass)."""
    with warnings.catch_warnings(record=True) as records:
        warnings.simplefilter('always')
        yield records
    if not any(issubclass(r.category, expected) for r in records):
        name = getattr(expected, '__name__', str(expected))
        raise AssertionError('{} not triggered'.format(name))


def _resolve(target):
    parts = target.split('.')
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module('.'.join(parts[:i]))
        except ImportError:
            continue
        for attr in parts[i:]:
            obj = getattr(obj, attr)
        return obj
    raise ImportError('cannot resolve {!r}'.format(target))


def patch(target, *args, **kwargs):
    """``unittest.mock.patch`` that wraps the patched object by default, so
    the mock records calls while the original still runs.

    Args:
        target (str): The full name of the object (``'chainer.grad'``).
        wraps: The object the mock wraps (default: the target itself;
            unbound methods are not supported).
        *args, **kwargs: Passed to ``mock.patch``.
    """
    from unittest import mock
    if 'wraps' not in kwargs:
        kwargs['wraps'] = _resolve(target)
    return mock.patch(target, *args, **kwargs)


def run_module(name, file):
    """Runs the tests of the file with pytest when it is run as a script:
    ``testing.run_module(__name__, __file__)``.

    Args:
        name: ``__name__`` of the file.
        file: ``__file__`` of the file.
    """
    if name == '__main__':
        import pytest
        return pytest.main([file, '-vvs', '-x'])
