"""``@static_graph``: accepted, and the forward runs define-by-run."""

import functools

_KNOWN = ('force_test_define_by_run', 'minimize_cache_size',
          'verbosity_level')


def static_graph(*args, **kwargs):
    """Decorator for a Chain's ``forward`` (usable with or without
    arguments).  The keyword arguments of Chainer's version are accepted;
    the forward is run as written on every call."""
    unknown = set(kwargs) - set(_KNOWN)
    if unknown:
        raise TypeError('static_graph got unexpected keyword argument(s): '
                        '{}'.format(', '.join(sorted(unknown))))

    def wrap(func):
        @functools.wraps(func)
        def wrapped(*a, **k):
            return func(*a, **k)
        return wrapped

    if len(args) == 1 and not kwargs and callable(args[0]):
        return wrap(args[0])
    return wrap
