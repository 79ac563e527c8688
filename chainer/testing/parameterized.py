"""Parameterized test classes: ``parameterize``, ``product`` and friends."""

import functools
import itertools

import numpy

from chainer.testing import _bundle


# NumPy 2 writes scalars as ``np.float32(1.0)`` unless asked for NumPy 1's
# style; NumPy 1 writes them so already (and refuses ``legacy='1.25'``).
_NUMPY1_REPR = {'legacy': '1.25'} \
    if numpy.lib.NumpyVersion(numpy.__version__) >= '2.0.0' else {}


def _short_repr(value):
    """How a parameter value is written in a generated class name: a class or
    function by its ``__name__``, anything else by its repr as NumPy 1 wrote
    it (``1.0``, not ``np.float32(1.0)``), cut to 100 characters."""
    if value is numpy.bool_:
        s = 'bool_'  # NumPy 2 renamed the type to ``bool``
    elif isinstance(getattr(value, '__name__', None), str):
        s = value.__name__
    else:
        with numpy.printoptions(**_NUMPY1_REPR):
            s = repr(value)
        s = s.replace("<class 'numpy.bool'>", "<class 'numpy.bool_'>")
    if len(s) > 100:
        s = s[:48] + '...' + s[-49:]
    return s


def _param_str(param):
    return '{' + ', '.join(
        '{}={}'.format(k, _short_repr(param[k])) for k in sorted(param)) + '}'


def _class_attr(value):
    # A function stored as a class attribute would become a method of the
    # test instance; a staticmethod keeps ``self.func`` the function itself.
    if isinstance(value, (staticmethod, classmethod, property)):
        return value
    if hasattr(type(value), '__get__'):
        return staticmethod(value)
    return value


def _parameterized_failure(method, cls_name, param):
    """Wraps a test method so that a failure names the parameters.

    The exception raised by the test goes on as it is (same object, type,
    arguments and traceback, so ``pytest.raises`` and ``xfail(raises=...)``
    see it unchanged); the parameters are added to it as a note
    (:pep:`678`), which pytest and the traceback module print after the
    message.
    """

    @functools.wraps(method)
    def wrapped(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except Exception as e:
            if not _bundle._is_skip(e):
                lines = ['Parameterized test failed.', '',
                         'Base test method: {}.{}'.format(
                             cls_name, method.__name__),
                         'Test parameters:']
                lines += ['  {}: {}'.format(k, param[k])
                          for k in sorted(param)]
                _add_note(e, '\n'.join(lines))
            raise

    return wrapped


def _add_note(exc, note):
    if hasattr(exc, 'add_note'):  # Python 3.11+
        exc.add_note(note)
    else:
        notes = getattr(exc, '__notes__', None)
        if not isinstance(notes, list):
            notes = []
        try:
            exc.__notes__ = notes + [note]
        except (AttributeError, TypeError):
            pass


def parameterize(*params):
    """Makes one test class per parameter dict.

    Applied to a test class (a :class:`unittest.TestCase` or a plain pytest
    class), it generates a subclass for each dict in ``params``, named
    ``<Class>_param_<i>_{key=value, ...}`` (keys sorted; classes and
    functions by name, other values by repr, cut to 100 characters), with the
    dict's entries as class attributes. A function given as a value stays a
    plain function when read as ``self.key`` (it does not become a method).
    The generated classes replace the original in its module; the original
    itself is not run. A failing test's exception gets a note naming the
    parameters. Decorators stack (the parameters are combined).

    Args:
        params (dicts): One dict of attribute values per generated class.

    Returns:
        A class decorator.

    >>> import unittest
    >>> from chainer import testing
    >>> @testing.parameterize(*testing.product({'shape': [(2,), (3, 4)]}))
    ... class TestShape(unittest.TestCase):
    ...     def test_ndim(self):
    ...         assert len(self.shape) >= 1
    """
    params = [dict(p) for p in params]

    def generate(base):
        for i, param in enumerate(params):
            suffix = '_param_{}_{}'.format(i, _param_str(param))

            def wrapper(name, method, param=param):
                return _parameterized_failure(method, base.__name__, param)

            attrs = {k: _class_attr(v) for k, v in param.items()}
            yield suffix, attrs, wrapper

    return _bundle.make_decorator(generate)


def _values_to_dicts(names, values):
    if isinstance(names, str):
        names = [n.strip() for n in names.split(',')]
    else:
        names = list(names)
    dicts = []
    for value in values:
        if len(names) == 1:
            value = (value,)
        value = tuple(value)
        if len(value) != len(names):
            raise ValueError(
                'each value must have {} entries (names {}), got {!r}'.format(
                    len(names), names, value))
        dicts.append(dict(zip(names, value)))
    return dicts


def from_pytest_parameterize(names, values):
    """Converts ``pytest.mark.parametrize`` style arguments (``'a,b'`` and
    a list of tuples) to a list of dicts for :func:`parameterize`."""
    return _values_to_dicts(names, values)


def parameterize_pytest(names, values):
    """:func:`parameterize` with ``pytest.mark.parametrize`` style
    arguments: ``parameterize_pytest('a,b', [(1, 2), (3, 4)])``."""
    return parameterize(*from_pytest_parameterize(names, values))


def product(parameter):
    """The Cartesian product of parameter values.

    Args:
        parameter: Either a dict of lists (``{'a': [1, 2], 'b': [3]}`` gives
            ``[{'a': 1, 'b': 3}, {'a': 2, 'b': 3}]``), or a list of lists of
            dicts, whose product merges one dict from each list. In a dict,
            a key naming several parameters joined by commas takes tuples:
            ``{'a,b': [(1, 2), (3, 4)]}`` gives ``[{'a': 1, 'b': 2},
            {'a': 3, 'b': 4}]``.

    Returns:
        A list of dicts, the keys varying slowest first in sorted order.

    >>> from chainer import testing
    >>> testing.product({'x,y': [(1, 2), (3, 4)], 'z': ['a']})
    [{'x': 1, 'y': 2, 'z': 'a'}, {'x': 3, 'y': 4, 'z': 'a'}]
    """
    if isinstance(parameter, dict):
        keys = sorted(parameter)
        choices = [_values_to_dicts(k, parameter[k]) for k in keys]
        return product_dict(*choices)
    if isinstance(parameter, list):
        if not all(isinstance(p, list) and
                   all(isinstance(d, dict) for d in p) for p in parameter):
            raise TypeError('parameter must be list of lists of dicts')
        return product_dict(*parameter)
    raise TypeError('parameter must be either dict or list. Actual: '
                    '{}'.format(type(parameter)))


def product_dict(*parameters):
    """The Cartesian product of lists of dicts: each result merges one dict
    from each list (``product_dict([{'a': 1}, {'a': 2}], [{'b': 3}])`` gives
    ``[{'a': 1, 'b': 3}, {'a': 2, 'b': 3}]``)."""
    result = []
    for dicts in itertools.product(*parameters):
        merged = {}
        for d in dicts:
            merged.update(d)
        result.append(merged)
    return result


# The conftest of Chainer's own suite swaps ``product_dict`` for the pairwise
# version under CHAINER_TEST_PAIRWISE_PARAMETERIZATION=always and restores it
# from ``_product_dict_orig`` after collection.
_product_dict_orig = product_dict


def _pairwise_product_dict(*parameters):
    """Like :func:`product_dict`, but only as many combinations as it takes
    for every pair of dicts from two different lists to meet at least once
    (greedily chosen, so the result is the same from run to run)."""
    parameters = [list(p) for p in parameters]
    if len(parameters) <= 2 or any(len(p) == 0 for p in parameters):
        return _product_dict_orig(*parameters)
    sizes = [len(p) for p in parameters]
    n = len(sizes)
    uncovered = {(i, a, j, b)
                 for i in range(n) for j in range(i + 1, n)
                 for a in range(sizes[i]) for b in range(sizes[j])}
    rows = []
    while uncovered:
        i, a, j, b = min(uncovered)
        row = [None] * n
        row[i], row[j] = a, b
        for k in range(n):
            if row[k] is not None:
                continue
            # the value of list k that meets the most uncovered pairs with
            # what is chosen so far
            row[k] = max(range(sizes[k]), key=lambda c: (sum(
                ((m, row[m], k, c) if m < k else (k, c, m, row[m]))
                in uncovered
                for m in range(n) if row[m] is not None), -c))
        for p in range(n):
            for q in range(p + 1, n):
                uncovered.discard((p, row[p], q, row[q]))
        rows.append(row)
    result = []
    for row in rows:
        merged = {}
        for p, idx in zip(parameters, row):
            merged.update(p[idx])
        result.append(merged)
    return result
