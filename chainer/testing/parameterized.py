"""Parameterized test classes: ``parameterize``, ``product`` and friends."""

import functools
import itertools

import numpy

from chainer.testing import _bundle


def _short_repr(value):
    name = getattr(value, '__name__', None)
    if isinstance(name, str):
        s = name
    elif isinstance(value, numpy.generic):
        s = str(value)  # as NumPy 1 printed scalars: 2.5, not float32(2.5)
    else:
        s = repr(value)
    if len(s) > 100:
        s = s[:47] + '...' + s[-48:]
    return s


def _param_str(param):
    return '{' + ', '.join(
        '{}={}'.format(k, _short_repr(param[k])) for k in sorted(param)) + '}'


def _parameterized_failure(method, cls_name, param):
    """Wraps a test method so that a failure names the parameters."""

    @functools.wraps(method)
    def wrapped(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except BaseException as e:
            if _bundle._is_skip(e) or not isinstance(e, Exception):
                raise
            lines = ['Parameterized test failed.', '',
                     'Base test method: {}.{}'.format(cls_name,
                                                      method.__name__),
                     'Test parameters:']
            lines += ['  {}: {}'.format(k, param[k]) for k in sorted(param)]
            msg = '\n'.join(lines) + '\n\n\n(caused by)\n{}: {}'.format(
                type(e).__name__, e)
            try:
                new = type(e)(msg)
            except Exception:
                raise e
            raise new from e

    return wrapped


def parameterize(*params):
    """Makes one test class per parameter dict.

    Applied to a test class (a :class:`unittest.TestCase` or a plain pytest
    class), it generates a subclass for each dict in ``params``, named
    ``<Class>_param_<i>_{key=value, ...}``, with the dict's entries as class
    attributes. The generated classes replace the original in its module; the
    original itself is not run. A failure message names the parameters.
    Decorators stack (the parameters are combined).

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

            yield suffix, param, wrapper

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
            dicts, whose product merges one dict from each list.

    Returns:
        A list of dicts.
    """
    if isinstance(parameter, dict):
        keys = sorted(parameter)
        values = [parameter[k] for k in keys]
        return [dict(zip(keys, vals)) for vals in itertools.product(*values)]
    if isinstance(parameter, list):
        if not all(isinstance(p, list) for p in parameter):
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
