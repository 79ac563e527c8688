"""``cached_property``: a property computed once per backprop mode."""

import functools

import chainer


class cached_property:
    """A property whose value (typically the result of Chainer functions)
    is computed once and cached on the instance.

    The cache keeps one value per ``chainer.config.enable_backprop``: a
    value computed without backprop has no graph, so it is recomputed when
    the graph is needed.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> class C:
    ...     def __init__(self, x):
    ...         self.x = x
    ...     @cached_property
    ...     def y(self):
    ...         return F.sigmoid(self.x)
    >>> obj = C(chainer.Variable(np.array([2., 3.], np.float32)))
    >>> obj.y is obj.y
    True
    """

    def __init__(self, getter):
        self.getter = getter
        self.name = getter.__name__
        functools.update_wrapper(self, getter)  # __name__, __doc__, ...

    def __set_name__(self, owner, name):
        self.name = name

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        cache = obj.__dict__.get(self.name)
        if cache is None:
            cache = obj.__dict__[self.name] = {}
        mode = bool(chainer.config.enable_backprop)
        if mode not in cache:
            cache[mode] = self.getter(obj)
        return cache[mode]

    def __set__(self, obj, value):
        raise AttributeError("can't set attribute {!r}".format(self.name))
