"""Final methods: ``enable_final`` and ``final``."""

import warnings

_ATTR = '_chainer_final_action'


def final(*args, **kwargs):
    """Decorator to declare a method final.

    Overriding the method in a subclass raises :class:`TypeError` (or the
    given ``action``: an Exception class is raised, a Warning class is
    warned). The class defining it must inherit from a base returned by
    :func:`enable_final`.

    Args:
        action (type): What overriding does; :class:`TypeError` by default.
    """
    action = kwargs.pop('action', TypeError)
    if kwargs:
        raise TypeError('final() got unexpected keyword argument(s) '
                        '{}'.format(', '.join(sorted(kwargs))))
    if not (isinstance(action, type) and
            issubclass(action, (Exception, Warning))):
        raise TypeError('action must be an Exception or Warning class')

    def wrap(f):
        setattr(f, _ATTR, (action,))
        return f

    if len(args) == 1 and callable(args[0]):
        return wrap(args[0])
    if args:
        raise TypeError('final() takes a method or keyword arguments')
    return wrap


def _action_of(method):
    return getattr(method, _ATTR, None)


class _EnableFinal(type):

    def __init__(cls, name, bases, d):
        for k in d:
            for base in cls.__mro__[1:]:
                if k not in vars(base):
                    continue
                action = _action_of(vars(base)[k])
                if action is None:
                    break
                action, = action
                if issubclass(action, Warning):
                    warnings.warn('Overriding method {!r}.'.format(k),
                                  action)
                else:
                    raise action('method {!r} is final.'.format(k))
                break
        super().__init__(name, bases, d)


def enable_final(base=(), meta_base=()):
    """Returns a base class in which the :func:`final` decorator works.

    Args:
        base (type or tuple of types): Base classes of the returned class.
        meta_base (type or tuple of types): Base metaclasses (to avoid a
            metaclass conflict with the metaclasses of subclasses).
    """
    if not isinstance(base, (list, tuple)):
        base = (base,)
    if not isinstance(meta_base, (list, tuple)):
        meta_base = (meta_base,)
    meta_base = tuple(m for m in meta_base if not issubclass(_EnableFinal, m))
    meta = type('base_metaclass', (_EnableFinal,) + meta_base, {})
    return meta('base_class', tuple(base) or (object,), {})
