"""Keyword-argument parsing for functions that take ``**kwargs`` (Chainer
keeps removed arguments around as kwargs so it can explain their removal)."""

import inspect


def _caller_name(depth=2):
    frame = inspect.currentframe()
    try:
        for _ in range(depth):
            frame = frame.f_back
        return frame.f_code.co_name
    finally:
        del frame


def unexpected_error(name, kwargs):
    """Chainer's TypeError for the unexpected arguments in ``kwargs``:
    ``name`` is the function that Chainer's message names (the one that
    called its ``parse_kwargs``, e.g. ``'__init__'``)."""
    err = _unexpected_error(name, kwargs)
    err.chainer_text = True  # kept as it is by names_bad_arguments
    return err


def _unexpected_error(name, kwargs):
    return TypeError('{}() got unexpected keyword argument(s) {}'.format(
        name, ', '.join("'{}'".format(k) for k in sorted(kwargs))))


def check_unexpected_kwargs(kwargs, **unexpected):
    """Raises ValueError with the given message for each argument of
    ``unexpected`` (name -> message) present in ``kwargs``.

    >>> check_unexpected_kwargs({'train': True},
    ...                         train='use chainer.using_config')
    Traceback (most recent call last):
    ...
    ValueError: use chainer.using_config
    """
    for key, message in unexpected.items():
        if key in kwargs:
            raise ValueError(message)


def parse_kwargs(kwargs, *name_and_values, **unexpected):
    """Pops the named arguments from ``kwargs``.

    Args:
        kwargs (dict): The keyword arguments (modified: parsed entries are
            removed).
        name_and_values: ``(name, default)`` pairs.
        unexpected: ``name=message``: an argument that is no longer
            supported, reported with ValueError(message).

    Returns:
        tuple: The values, in the order of ``name_and_values``.

    Raises:
        TypeError: ``kwargs`` has other arguments (the message names the
            calling function).

    >>> def f(**kwargs):
    ...     a, b = parse_kwargs(kwargs, ('a', 1), ('b', 2))
    ...     return a, b
    >>> f(b=3)
    (1, 3)
    """
    values = [kwargs.pop(name, default) for name, default in name_and_values]
    if kwargs:
        check_unexpected_kwargs(kwargs, **unexpected)
        raise _unexpected_error(_caller_name(), kwargs)
    return tuple(values)


def assert_kwargs_empty(kwargs):
    """Raises TypeError if ``kwargs`` is not empty."""
    if kwargs:
        raise _unexpected_error('assert_kwargs_empty', kwargs)
