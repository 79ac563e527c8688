"""Generated test classes: the machinery behind ``parameterize`` and
``inject_backend_tests``.

A class decorator built here replaces the decorated class by a bundle of
subclasses, one per variant, each bound in the class's module under its own
name (so pytest and unittest collect them). The module name of the original
class is bound to the bundle, which is not a class: the base class itself is
not collected. Decorators stack: a bundle given to a decorator is expanded
class by class, and the classes it replaces are removed from the module.
"""

import sys
import unittest


# What a method wrapper returns to hide a test method in a generated class.
HIDE = object()


class _ParameterizedTestCaseBundle:
    """The generated test classes (``cases``: a list of classes)."""

    def __init__(self, cases):
        self.cases = list(cases)

    def __repr__(self):
        return '<{} of {} test classes>'.format(
            type(self).__name__, len(self.cases))


def _is_skip(exc):
    if isinstance(exc, unittest.SkipTest):
        return True
    # pytest.skip raises an OutcomeException (not an Exception subclass in
    # recent versions, but be lenient).
    return type(exc).__name__ in ('Skipped', 'XFailed', 'Exit')


def make_decorator(generate):
    """A class decorator from ``generate(cls)``, an iterable of
    ``(name_suffix, attrs, method_wrapper)``: each gives the subclass
    ``cls.__name__ + name_suffix`` with the class attributes ``attrs``, and
    its test methods (the names starting with ``test``) passed through
    ``method_wrapper(name, method)`` (None: unchanged; :data:`HIDE`: not a
    test of that class). An empty suffix makes a class of the same name,
    which a further decorator expands (alone, the name is rebound to the
    bundle, so it is not collected)."""

    def decorator(cls_or_bundle):
        if isinstance(cls_or_bundle, _ParameterizedTestCaseBundle):
            bases = cls_or_bundle.cases
        elif isinstance(cls_or_bundle, type):
            bases = [cls_or_bundle]
        else:
            raise TypeError('a test decorator must be applied to a class, '
                            'got {!r}'.format(cls_or_bundle))
        cases = []
        for base in bases:
            module = sys.modules.get(base.__module__)
            for suffix, attrs, wrapper in generate(base):
                cases.append(_make_case(module, base, suffix, attrs, wrapper))
            if module is not None and \
                    getattr(module, base.__name__, None) is base:
                delattr(module, base.__name__)
        return _ParameterizedTestCaseBundle(cases)

    return decorator


def _test_method_names(cls):
    """The names of the test methods of ``cls`` (a name set to None in a
    subclass hides the method of the same name)."""
    names = []
    for klass in cls.__mro__:
        for name in vars(klass):
            if name.startswith('test') and name not in names and \
                    callable(getattr(cls, name, None)):
                names.append(name)
    return names


def _make_case(module, base, suffix, attrs, wrapper):
    name = base.__name__ + suffix
    body = dict(attrs)
    body['__module__'] = base.__module__
    body['__qualname__'] = name
    if wrapper is not None:
        for mname in _test_method_names(base):
            new = wrapper(mname, getattr(base, mname))
            if new is HIDE:
                body[mname] = None
            elif new is not None:
                body[mname] = new
    case = type(name, (base,), body)
    if module is not None:
        setattr(module, name, case)
    return case
