"""Errors the built-in functions raise for bad input.

Built-in ops check their inputs with plain comparisons on the success path;
only when a check fails do they build a message in Chainer's format, naming
the function and what was expected against what came.
"""

import chainer


class AssertionValueError(ValueError, AssertionError):
    """A bad argument where Chainer used an ``assert``: a ValueError with a
    clear message, that code catching Chainer's AssertionError also
    catches."""


class LabelRangeError(IndexError, ValueError):
    """A label or index out of range: an IndexError (NumPy's) that is also
    the ValueError Chainer raised on some of them."""


class ZeroSizeError(ValueError, ZeroDivisionError):
    """A division by a size of zero: a ValueError naming the function that
    code catching Chainer's ZeroDivisionError also catches."""


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
    # Chainer's own text, raised bare by its broadcast check: no header
    # naming the function, empty expect and actual (``func`` is kept for
    # the callers).
    from chainer.utils import type_check
    lines = '\n'.join('{}.shape = {}'.format(n, s)
                      for n, s in zip(names, shapes))
    return type_check.InvalidType(
        '', '', 'cannot broadcast inputs of the following shapes:\n' + lines)


def expr_bool_error():
    """The RuntimeError that Chainer's type checks raise for every bad input
    where they apply ``if``, ``and`` or a chained comparison to an
    expression (the re-run that words the message meets a bare Expr)."""
    return RuntimeError(
        'An Expr instance cannot be evaluated as bool. Please use '
        'chainer.utils.type_check.eval() to evaluate an expression.')


def check_float(func, x, name='x'):
    """Raises unless ``x`` (an array) has a floating point dtype."""
    if x.dtype.kind != 'f':
        raise invalid_type(func, '{}.dtype.kind == f'.format(name),
                           '{} != f'.format(x.dtype.kind))


def not_an_array(fname, name, type_name):
    """The TypeError for an argument that is not a Variable or an array."""
    return TypeError(
        "{}: argument '{}' must be a Variable or a numpy/cupy array, but got "
        '{}'.format(fname, name, type_name))


def check_array(fname, name, x):
    """Raises TypeError unless ``x`` is a Variable or an array."""
    from chainer import backend, variable
    if not isinstance(x, (variable.Variable,) + backend._get_array_types()):
        raise not_an_array(fname, name, type(x).__name__)


def check_floats(func, arrays, names):
    """:func:`check_float` for each of ``arrays`` with its name (None, and
    Python scalars where a function takes them, are skipped)."""
    for x, name in zip(arrays, names):
        kind = getattr(getattr(x, 'dtype', None), 'kind', 'f')
        if kind != 'f':
            raise invalid_type(func, '{}.dtype.kind == f'.format(name),
                               '{} != f'.format(kind))


def check_same_dtype(func, x, y, names=('lhs', 'rhs')):
    # As Chainer's type checks, skipped under config.type_check False (as
    # check_backward's numerical pass runs): NumPy then promotes.
    if x.dtype != y.dtype and chainer.config.type_check:
        raise invalid_type(
            func, '{}.dtype == {}.dtype'.format(*names),
            '{} != {}'.format(x.dtype, y.dtype))


_NON_ARRAY = (list, tuple, str, bytes, int, float, complex, bool, type(None))


def names_bad_arguments(func=None, *, keep=()):
    """Decorates a public function of ``chainer.functions`` so that an error
    its body runs into on bad input names the function and the argument.

    The call itself is untouched (no check runs on the success path).  An
    ``AttributeError`` on a list, str, None or Python scalar where an array
    was expected becomes a TypeError naming the argument; a bare
    ValueError, IndexError, ZeroDivisionError or AssertionError (NumPy's
    broadcasting message, an ``assert``) gets the function's name in front,
    keeping its type.  Errors that already name the function, and
    InvalidType, go through as they are; so do the exception types in
    ``keep`` and the errors made by :func:`chainer_text`, whose words are
    Chainer's own (users' programs print them).
    """
    import functools
    import inspect

    if func is None:
        return functools.partial(names_bad_arguments, keep=keep)
    name = func.__name__
    signature = inspect.signature(func)
    key = name.replace('_', '').lower()

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except keep:
            raise
        except (AttributeError, TypeError, ValueError, IndexError,
                ZeroDivisionError, AssertionError) as e:
            err = _named(e, name, key, signature, args, kwargs)
            if err is None:
                raise
            raise err from e
    wrapper.chainer_text = keep
    return wrapper


def chainer_text(err):
    """Marks ``err`` as worded as Chainer's: :func:`names_bad_arguments`
    passes it through unchanged."""
    err.chainer_text = True
    return err


def output_size_error(outs, two_d, deconv=False):
    """Chainer's error for a convolution or pooling whose output would be
    empty (a size ``<= 0`` in ``outs``), in its words: its 2-D functions
    name the height or the width (a deconvolution's as a RuntimeError), the
    others the output sizes."""
    if not two_d:
        err = AssertionError('Output sizes should be positive.')
    else:
        side = 'Height' if outs[0] <= 0 else 'Width'
        err = RuntimeError('{} in the output must be positive.'.format(
            side)) if deconv else AssertionError(
                '{} in the output should be positive.'.format(side))
    return chainer_text(err)


def _argument_of_type(signature, args, kwargs, type_name):
    try:
        bound = signature.bind(*args, **kwargs)
    except TypeError:
        return None
    for arg, value in bound.arguments.items():
        if isinstance(value, _NON_ARRAY) and \
                type(value).__name__ == type_name:
            return arg
        if isinstance(value, (list, tuple)):  # a sequence of arrays
            for i, item in enumerate(value):
                if isinstance(item, _NON_ARRAY) and \
                        type(item).__name__ == type_name:
                    return '{}[{}]'.format(arg, i)
    return None


def _named(e, name, key, signature, args, kwargs):
    from chainer.utils import type_check
    if isinstance(e, type_check.InvalidType) or \
            getattr(e, 'chainer_text', False):
        return None
    msg = str(e)
    if key in msg.replace('_', '').lower():
        return None
    if isinstance(e, (AttributeError, TypeError)):
        # "'list' object has no attribute 'shape'", "'NoneType' object is
        # not subscriptable", ...
        head = msg.split("'")
        if len(head) >= 3 and head[0] == '':
            arg = _argument_of_type(signature, args, kwargs, head[1])
            if arg is not None:
                return not_an_array(name, arg, head[1])
        if isinstance(e, AttributeError):
            return None  # not about the input: a bug to see as it is
        if msg.startswith('incompatible array types are mixed'):
            return None  # FunctionNode.apply names its node already
    if isinstance(e, ZeroDivisionError):
        return ZeroSizeError('{}: division by zero ({}): an empty axis, or a '
                             'size that must be positive given as 0'.format(
                                 name, msg))
    if isinstance(e, AssertionError) and not isinstance(e, ValueError):
        return AssertionValueError('{}: bad argument{}'.format(
            name, ': ' + msg if msg else ''))
    try:
        err = type(e)('{}: {}'.format(name, msg))
    except Exception:
        return None
    return err
