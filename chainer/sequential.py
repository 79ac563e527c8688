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
    ``/0``, ``/1``... in Chainer's order of children, which is not the order
    of the layers from the third link on (see :meth:`insert`), so that
    parameter names and saved files are Chainer's.

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

    @staticmethod
    def _check_layer(layer):
        if not callable(layer):
            raise ValueError('All elements of the argument should be '
                             'callable. But given {} is not callable.'.format(
                                 layer))

    def _remove_child(self, layer):
        if isinstance(layer, Link):
            self._children[:] = [c for c in self._children if c is not layer]
            self._rename()

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
        # As Chainer: the old layer is deleted and the new one inserted at
        # ``i``, so ``s[-1] = l`` lands before the (new) last layer.
        if i >= len(self._layers):
            raise ValueError('{} should be less than {}'.format(
                i, len(self._layers)))
        if not callable(layer):
            raise ValueError('All elements of a Sequential class should be '
                             'callable. But given {} is not callable.'.format(
                                 layer))
        del self[i]
        self.insert(i, layer)

    def __delitem__(self, i):
        self._remove_child(self._layers.pop(i))

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
        self.insert(len(self._layers), layer)

    def extend(self, sequential):
        """Appends the layers of ``sequential`` (any iterable of layers)."""
        for layer in list(sequential):
            self.append(layer)

    def insert(self, i, layer):
        """Inserts ``layer`` before position ``i`` (IndexError when ``i`` is
        not in ``[-len(self), len(self)]``).

        A Link layer becomes a child where Chainer puts it: first when
        ``i`` is 0, else right after the child whose index is that of the
        first Link among the layers before ``i`` (0 when there is none).
        So ``Sequential(l0, l1, l2)`` has the children ``l0, l2, l1``,
        named ``/0, /1, /2``.
        """
        n = len(self._layers)
        if not -n <= i <= n:
            raise IndexError('Index out of range: {}'.format(i))
        self._check_layer(layer)
        if i < 0:
            i += n
        self._layers.insert(i, layer)
        if isinstance(layer, Link):
            if i == 0:
                at = 0
            else:
                at = 1 + next((j for j in range(i)
                               if isinstance(self._layers[j], Link)), 0)
            self._children.insert(at, layer)
            self._rename()

    def remove(self, layer):
        """Removes the first occurrence of ``layer``."""
        if layer not in self:
            raise ValueError('There is no layer object that is same as '
                             '{}'.format(layer))
        del self[self.index(layer)]

    def remove_by_layer_type(self, type_name):
        """Removes every layer named ``type_name``: a Link's class name
        (``'Linear'``) or a function's name (``'relu'``)."""
        for i in reversed(range(len(self._layers))):
            if _layer_name(self._layers[i]) == type_name:
                del self[i]

    def pop(self, i=-1):
        """Removes and returns the layer at ``i`` (the last by default)."""
        layer = self._layers[i]
        del self[i]
        return layer

    def clear(self):
        """Removes all the layers.

        As in Chainer, only every other child goes with them (the first,
        third...; the others stay children, their names unchanged).
        """
        self._layers.clear()
        children = self._children
        i = 0
        while i < len(children):
            del children[i]
            i += 1

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
