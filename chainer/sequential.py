"""Sequential: a ChainList that calls its layers in order."""

import copy

from chainer.link import ChainList, Link, _layer_repr, _listing


def _layer_name(layer):
    # A Link by its class name, any other layer by its __name__ (``relu``).
    if isinstance(layer, Link):
        return type(layer).__name__
    return getattr(layer, '__name__', None)


class Sequential(ChainList):
    """Calls its layers one after another: ``Sequential(l1, F.relu, l2)``.

    A layer is a Link or any callable (a function, a lambda). When a layer
    returns a tuple, the next layer gets its items as separate arguments.
    Sequential is a list of layers (``len``, indexing, ``append``,
    ``insert``, ``pop``, ``+``...); its Link layers are its children, named
    by their position among the links (``/0``, ``/1``...).

    Args:
        layers: The layers.

    >>> s = Sequential(lambda x: x + 1, lambda x: x * 2)
    >>> s(1)
    4
    """

    def __init__(self, *layers):
        super().__init__()
        self.__dict__['_layers'] = []
        for layer in layers:
            self.append(layer)

    def _sync(self):
        self.__dict__['_children'] = [
            layer for layer in self._layers if isinstance(layer, Link)]
        self._rename()

    @staticmethod
    def _check_layer(layer):
        if not callable(layer):
            raise ValueError('All elements of the argument should be '
                             'callable. But given {} is not callable.'.format(
                                 layer))

    def forward(self, *x):
        """Calls the layers in order; returns the last one's output."""
        if not self._layers:
            raise RuntimeError('Sequential does not have any layer.')
        for layer in self._layers:
            x = layer(*x) if isinstance(x, tuple) else layer(x)
        return x

    # --- the list of layers -------------------------------------------------

    def __len__(self):
        return len(self._layers)

    def __getitem__(self, i):
        return self._layers[i]

    def __setitem__(self, i, layer):
        if isinstance(i, slice):
            layer = list(layer)
            for one in layer:
                self._check_layer(one)
        else:
            self._check_layer(layer)
        self._layers[i] = layer
        self._sync()

    def __delitem__(self, i):
        del self._layers[i]
        self._sync()

    def __iter__(self):
        return iter(self._layers)

    def __reversed__(self):
        return reversed(self._layers)

    def __contains__(self, layer):
        return any(one is layer or one == layer for one in self._layers)

    def __add__(self, other):
        if not isinstance(other, Sequential):
            raise ValueError(
                'add (+) operator supports only objects of Sequential class, '
                'but {} is given.'.format(type(other)))
        ret = Sequential()
        ret.extend(self)
        ret.extend(other)
        return ret

    def __iadd__(self, other):
        if not isinstance(other, Sequential):
            raise ValueError(
                'add (+) operator supports only objects of Sequential class, '
                'but {} is given.'.format(type(other)))
        self.extend(other)
        return self

    def add_link(self, link):
        """Appends ``link`` as a layer."""
        self.append(link)

    def append(self, layer):
        """Appends a layer."""
        self._check_layer(layer)
        self._layers.append(layer)
        self._sync()

    def extend(self, sequential):
        """Appends the layers of ``sequential`` (any iterable of layers)."""
        for layer in list(sequential):
            self.append(layer)

    def insert(self, i, layer):
        """Inserts ``layer`` before position ``i`` (IndexError when ``i`` is
        not in ``[-len(self), len(self)]``)."""
        n = len(self._layers)
        if not -n <= i <= n:
            raise IndexError('Index out of range: {}'.format(i))
        self._check_layer(layer)
        self._layers.insert(i, layer)
        self._sync()

    def remove(self, layer):
        """Removes the first occurrence of ``layer``."""
        if layer not in self:
            raise ValueError('There is no layer object that is same as '
                             '{}'.format(layer))
        del self[self.index(layer)]

    def remove_by_layer_type(self, type_name):
        """Removes every layer named ``type_name``: a Link's class name
        (``'Linear'``) or a function's name (``'relu'``)."""
        self._layers[:] = [layer for layer in self._layers
                           if _layer_name(layer) != type_name]
        self._sync()

    def pop(self, i=-1):
        """Removes and returns the layer at ``i`` (the last by default)."""
        layer = self._layers[i]
        del self[i]
        return layer

    def clear(self):
        """Removes all the layers."""
        self._layers.clear()
        self._sync()

    def index(self, layer, start=None, end=None):
        """The position of the first occurrence of ``layer``."""
        n = len(self._layers)
        start = 0 if start is None else start
        end = n if end is None else end
        for i in range(*slice(start, end).indices(n)):
            one = self._layers[i]
            if one is layer or one == layer:
                return i
        raise ValueError('{} is not in list'.format(layer))

    def count(self, layer):
        """How many times ``layer`` occurs."""
        return sum(1 for one in self._layers if one is layer or one == layer)

    def count_by_layer_type(self, type_name):
        """How many layers are named ``type_name``: a Link's class name
        (``'Linear'``) or a function's name (``'relu'``)."""
        return sum(1 for layer in self._layers
                   if _layer_name(layer) == type_name)

    def copy(self, mode='share'):
        """A new Sequential of the layers: Link layers copied with ``mode``
        (see :meth:`chainer.Link.copy`), other layers shallow-copied (so a
        lambda is fine in every mode)."""
        ret = Sequential()
        for layer in self._layers:
            if isinstance(layer, Link):
                ret.append(layer.copy(mode))
            else:
                ret.append(copy.copy(layer))
        return ret

    def flatten(self):
        """A new Sequential whose nested Sequentials are expanded into their
        layers."""
        ret = Sequential()
        for layer in self._layers:
            if isinstance(layer, Sequential):
                ret.extend(layer.flatten())
            else:
                ret.append(layer)
        return ret

    def __reduce__(self):
        if any(getattr(layer, '__name__', None) == '<lambda>'
               for layer in self._layers):
            raise ValueError(
                'This Sequential object has at least one lambda function as '
                'its component. Lambda function can not be pickled, so please '
                'consider to use functools.partial instead of the lambda '
                'function or use "dill", which is an external package that '
                'enables pickling an object including lambda functions intead '
                'of built-in pickle.')
        return super().__reduce__()

    def __str__(self):
        return _listing(type(self).__name__,
                        [(str(i), _layer_repr(layer))
                         for i, layer in enumerate(self._layers)])
