"""Errors the built-in functions raise for bad input.

Built-in ops check their inputs with plain comparisons on the success path;
only when a check fails do they build a message in Chainer's format, naming
the function and what was expected against what came.
"""


class AssertionValueError(ValueError, AssertionError):
    """A bad argument where Chainer used an ``assert``: a ValueError with a
    clear message, that code catching Chainer's AssertionError also
    catches."""


def invalid_type(func, expect, actual, assertion=False):
    """An InvalidType for ``func`` (a FunctionNode or a label); with
    ``assertion``, one that is also an AssertionError (where Chainer
    asserted the condition)."""
    from chainer.utils import type_check
    label = func if isinstance(func, str) else func.label
    msg = '\nInvalid operation is performed in: {} (Forward)\n\n' \
        'Expect: {}\nActual: {}'.format(label, expect, actual)
    cls = _invalid_type_assertion() if assertion else type_check.InvalidType
    return cls(expect, actual, msg)


_InvalidTypeAssertion = None


def _invalid_type_assertion():
    global _InvalidTypeAssertion
    if _InvalidTypeAssertion is None:
        from chainer.utils import type_check

        class InvalidTypeAssertion(type_check.InvalidType, AssertionError):
            """An InvalidType that is also the AssertionError Chainer
            raised there."""
        _InvalidTypeAssertion = InvalidTypeAssertion
    return _InvalidTypeAssertion


def broadcast_error(func, *shapes, names=('lhs', 'rhs')):
    # Chainer's own text, after a header that names the function.
    from chainer.utils import type_check
    label = func if isinstance(func, str) else func.label
    lines = '\n'.join('{}.shape = {}'.format(n, s)
                      for n, s in zip(names, shapes))
    return type_check.InvalidType(
        'shapes broadcastable to each other', lines,
        '\nInvalid operation is performed in: {} (Forward)\n\ncannot '
        'broadcast inputs of the following shapes:\n{}'.format(label, lines))


def check_float(func, x, name='x'):
    """Raises unless ``x`` (an array) has a floating point dtype."""
    if x.dtype.kind != 'f':
        raise invalid_type(func, '{}.dtype.kind == f'.format(name),
                           '{} != f'.format(x.dtype.kind))


def check_same_dtype(func, x, y, names=('lhs', 'rhs')):
    if x.dtype != y.dtype:
        raise invalid_type(
            func, '{}.dtype == {}.dtype'.format(*names),
            '{} != {}'.format(x.dtype, y.dtype))
