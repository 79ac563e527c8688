"""Link, Chain and ChainList: the building blocks of models.

A Link holds parameters (:class:`~chainer.Parameter`) and persistent values;
a Chain holds named child links, a ChainList a list of them. Parameters and
children are registered by assigning them inside ``with self.init_scope():``.
Traversals (``namedparams``, ``namedlinks``, ``serialize``, ...) visit names
in sorted order, so they do not depend on set or hash order.
"""

import collections
import collections.abc
import contextlib
import copy as copy_module
import inspect
import warnings

import numpy

from chainer import backend
from chainer import device_resident
from chainer import initializers
from chainer import link_hook
from chainer import serializer as serializer_module
from chainer.variable import Parameter

_MODES = ('init', 'copy', 'share')


def _is_array(value):
    return isinstance(value, backend._get_array_types())


def _indent(text):
    return text.replace('\n', '\n  ')


def _layer_repr(layer):
    if isinstance(layer, Link):
        return str(layer)
    if getattr(layer, '__name__', None) == '<lambda>':
        try:
            return inspect.getsource(layer).strip().rstrip(',')
        except (OSError, TypeError):
            pass
    return repr(layer)


def _listing(name, items):
    """``Name(\\n  (key): child,\\n)``, or ``Name()`` when empty."""
    if not items:
        return '{}()'.format(name)
    lines = ''.join('  ({}): {},\n'.format(key, _indent(rep))
                    for key, rep in items)
    return '{}(\n{})'.format(name, lines)


def _reinitialize(param):
    # 'init' copies: new data from the parameter's initializer, NaN grad
    if not param.is_initialized:
        return
    init = param.initializer
    dtype = None if getattr(init, 'dtype', None) is not None else param.dtype
    data = initializers.generate_array(init, param.shape, param.xp,
                                       dtype=dtype, device=param.device)
    param.array = data
    if data.dtype.kind == 'f':
        param.grad = param.xp.full_like(data, numpy.nan)
    else:
        param.cleargrad()


class Link(device_resident.DeviceResident):
    """The building block of models: parameters and persistent values.

    Register a :class:`~chainer.Parameter` by assigning it inside
    ``with self.init_scope():`` (or with :meth:`add_param`), and a persistent
    (saved but not trained) value with :meth:`add_persistent`. Calling the
    link runs its link hooks around :meth:`forward`, which subclasses define.

    Args:
        params: (legacy) ``name=shape`` or ``name=(shape, dtype)`` pairs,
            each made a NaN-filled parameter.

    >>> import numpy as np
    >>> import chainer
    >>> class Scale(Link):
    ...     def __init__(self):
    ...         super().__init__()
    ...         with self.init_scope():
    ...             self.s = chainer.Parameter(np.ones(2, np.float32))
    ...     def forward(self, x):
    ...         return x * self.s
    >>> [name for name, _ in Scale().namedparams()]
    ['/s']

    Attributes:
        name (str): The name of the link in its parent (None at the top).
    """

    _within_init_scope = False
    _local_link_hooks = None
    name = None

    def __init__(self, **params):
        d = self.__dict__
        d['_params'] = set()
        d['_persistent'] = set()
        d['_within_init_scope'] = False
        d['name'] = None
        for name, value in params.items():
            shape, dtype = value, numpy.float32
            if isinstance(value, tuple) and len(value) == 2 and \
                    isinstance(value[1], (type, numpy.dtype, str)):
                shape, dtype = value
            self.add_param(name, shape, dtype=dtype)

    def _check_init_done(self):
        if '_params' not in self.__dict__:
            raise RuntimeError('Link.__init__() has not been called.')

    # --- registration ------------------------------------------------------

    @property
    def within_init_scope(self):
        """Whether assignments now register parameters (and links)."""
        return self._within_init_scope

    @contextlib.contextmanager
    def init_scope(self):
        """A context in which assigned Parameters (and, in a Chain, Links)
        are registered."""
        self._check_init_done()
        old = self._within_init_scope
        self.__dict__['_within_init_scope'] = True
        try:
            yield
        finally:
            self.__dict__['_within_init_scope'] = old

    def __setattr__(self, name, value):
        if self._within_init_scope and isinstance(value, Parameter):
            value.name = name
            self._params.add(name)
            self._persistent.discard(name)
        super().__setattr__(name, value)

    def __delattr__(self, name):
        self._params.discard(name)
        self._persistent.discard(name)
        super().__delattr__(name)

    def add_param(self, name, shape=None, dtype=numpy.float32,
                  initializer=None):
        """Registers a new parameter ``name``.

        Args:
            name (str): The attribute name.
            shape (int or tuple): The shape (None: initialized later).
            dtype: The dtype of the default (NaN) initializer.
            initializer: An initializer, an array or a scalar (default: NaN).
        """
        self._check_init_done()
        if name in self.__dict__:
            raise AttributeError(
                'cannot register a new parameter {}: attribute exists'.format(
                    name))
        if initializer is None:
            initializer = initializers.NaN(dtype)
        elif _is_array(initializer) and shape is not None:
            initializer = initializers.Constant(initializer)
        param = Parameter(initializer, shape)
        with self.init_scope():
            setattr(self, name, param)

    def add_persistent(self, name, value):
        """Registers ``value`` as the persistent value ``name`` (saved and
        moved between devices, not trained)."""
        self._check_init_done()
        if name in self.__dict__:
            raise AttributeError(
                'cannot register a new persistent value {}: attribute '
                'exists'.format(name))
        self._persistent.add(name)
        self._params.discard(name)
        super().__setattr__(name, value)

    def register_persistent(self, name):
        """Registers the existing attribute ``name`` as persistent."""
        if not hasattr(self, name):
            raise AttributeError(
                'cannot register non-existent attribute {} as a persistent '
                'value'.format(name))
        self._persistent.add(name)
        self._params.discard(name)

    @classmethod
    def from_params(cls, *args, **kwargs):
        """Makes a link from parameter arrays (links that support it
        override this)."""
        raise NotImplementedError(
            'This link does not implement `from_params`.')

    # --- calling -----------------------------------------------------------

    @property
    def local_link_hooks(self):
        """The OrderedDict of the hooks registered on this link."""
        hooks = self._local_link_hooks
        if hooks is None:
            hooks = collections.OrderedDict()
            self.__dict__['_local_link_hooks'] = hooks
        return hooks

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        # As Chainer (#5078): a __call__ injected by a mixin after Link in
        # the MRO is called in place of forward.
        mro = cls.__mro__
        cls._mixin_call = any('__call__' in k.__dict__
                              for k in mro[mro.index(Link) + 1:])

    _mixin_call = False

    def __call__(self, *args, **kwargs):
        if '_params' not in self.__dict__:
            raise RuntimeError('Link.__init__() has not been called.')
        global_hooks = link_hook._get_link_hooks()
        local = self._local_link_hooks
        if self._mixin_call:
            forward = super().__call__
        elif not global_hooks and not local:
            return self.forward(*args, **kwargs)
        else:
            forward = self.forward
        if not global_hooks and not local:
            return forward(*args, **kwargs)
        hooks = collections.OrderedDict(global_hooks)
        if local:
            hooks.update(local)
        hooks = list(hooks.values())
        pre = link_hook._ForwardPreprocessCallbackArgs(
            self, 'forward', args, kwargs)
        for hook in hooks:
            hook.forward_preprocess(pre)
        out = forward(*args, **kwargs)
        post = link_hook._ForwardPostprocessCallbackArgs(
            self, 'forward', args, kwargs, out)
        for hook in hooks:
            hook.forward_postprocess(post)
        return out

    def add_hook(self, hook, name=None):
        """Registers a :class:`~chainer.LinkHook` (under ``name``, by default
        ``hook.name``); returns ``self``."""
        if not isinstance(hook, link_hook.LinkHook):
            raise TypeError('Hook must be of type LinkHook')
        if name is None:
            name = hook.name
        hooks = self.local_link_hooks
        if name in hooks:
            raise KeyError('Hook {} already exists'.format(name))
        hooks[name] = hook
        hook.added(self)
        return self

    def delete_hook(self, name):
        """Unregisters the hook ``name``."""
        hooks = self.local_link_hooks
        if name not in hooks:
            raise KeyError('Hook {} does not exist'.format(name))
        hook = hooks.pop(name)
        hook.deleted(self)

    # --- traversal ---------------------------------------------------------

    def params(self, include_uninit=True):
        """Yields the parameters of this link and its descendants (in the
        order of :meth:`namedparams`, without building the paths: an
        optimizer's update and ``cleargrads`` walk them at each step)."""
        d = self.__dict__
        for name in sorted(self._params):
            param = d[name]
            if include_uninit or param.is_initialized:
                yield param
        for child in self.children():
            yield from child.params(include_uninit)

    def namedparams(self, include_uninit=True):
        """Yields ``(path, parameter)`` pairs, paths like ``'/l1/W'``."""
        d = self.__dict__
        for name in sorted(self._params):
            param = d[name]
            if include_uninit or param.is_initialized:
                yield '/' + name, param

    def links(self, skipself=False):
        """Yields this link (unless ``skipself``) and its descendants."""
        for _, link in self.namedlinks(skipself):
            yield link

    def namedlinks(self, skipself=False):
        """Yields ``(path, link)`` pairs; this link is ``'/'``."""
        if not skipself:
            yield '/', self

    def children(self):
        """Yields the child links."""
        return iter(())

    def _named_children(self):
        return ()

    # --- parameters --------------------------------------------------------

    def copyparams(self, link, copy_persistent=True):
        """Copies the parameter data (and persistent values) of ``link``, a
        link of the same structure, into this one (across devices)."""
        src = link.__dict__
        dst = self.__dict__
        for name in self._params:
            dst[name].copydata(src[name])
        if copy_persistent:
            for name in self._persistent:
                d, s = dst[name], src[name]
                if _is_array(d) and _is_array(s) and d.shape == s.shape:
                    backend.copyto(d, s)
                else:
                    dst[name] = copy_module.deepcopy(s)
        for key, child in self._named_children():
            child.copyparams(link._child(key), copy_persistent)

    def cleargrads(self):
        """Sets the gradients of all parameters to None."""
        for param in self.params():
            param.cleargrad()

    def zerograds(self):
        """Fills the gradients with zeros.

        .. deprecated:: v1.15
           Use :meth:`cleargrads`.
        """
        warnings.warn(
            'Link.zerograds is deprecated. Use Link.cleargrads instead.',
            DeprecationWarning)
        for param in self.params():
            param.zerograd()

    def addgrads(self, link):
        """Adds the gradients of ``link`` (same structure) to this one's."""
        src = link.__dict__
        dst = self.__dict__
        for name in self._params:
            if src[name].is_initialized:
                dst[name].addgrad(src[name])
        for key, child in self._named_children():
            child.addgrads(link._child(key))

    def enable_update(self):
        """Lets the optimizer update all parameters again."""
        for param in self.params():
            rule = param.update_rule
            if rule is not None:
                rule.enabled = True

    def disable_update(self):
        """Stops the optimizer from updating the parameters (of the update
        rules that exist now)."""
        for param in self.params():
            rule = param.update_rule
            if rule is not None:
                rule.enabled = False

    @property
    def update_enabled(self):
        """Whether some parameter has an enabled update rule."""
        for param in self.params():
            rule = param.update_rule
            if rule is not None and rule.enabled:
                return True
        return False

    def count_params(self):
        """The number of parameter elements (uninitialized ones are skipped,
        with a warning)."""
        total = 0
        for path, param in self.namedparams():
            if param.array is None:
                warnings.warn(
                    'Parameter \'{}\' has not been initialized, so the '
                    'resulting count will not include the number of '
                    'parameters in it.'.format(path))
                continue
            total += param.size
        return total

    # --- copies ------------------------------------------------------------

    def copy(self, mode='share'):
        """Copies the link (and its descendants).

        Args:
            mode (str): ``'share'``: new Parameter objects sharing the data
                arrays (gradients cleared) and the persistent values;
                ``'copy'``: deep copies of data, gradients and persistent
                values; ``'init'``: like ``'copy'``, then the parameters are
                re-drawn from their initializers.

        Returns:
            Link: The copy (with ``name`` None in the 'share' mode).
        """
        if mode not in _MODES:
            raise ValueError(
                "The 'mode' argument should be either 'init','copy', or "
                "'share'. But {} was given.".format(mode))
        if mode != 'share':
            # As Chainer: a deep copy of the whole link (its name included);
            # 'init' then redraws the initialized parameters.
            ret = copy_module.deepcopy(self)
            if mode == 'init':
                for param in ret.params(include_uninit=False):
                    _reinitialize(param)
            return ret
        ret = copy_module.copy(self)
        d = ret.__dict__
        d['_params'] = set(self._params)
        d['_persistent'] = set(self._persistent)
        d['name'] = None
        if self._local_link_hooks is not None:
            d['_local_link_hooks'] = collections.OrderedDict(
                self._local_link_hooks)
        for name in self._params:
            # New Parameters sharing the data cell (a later ``p.array = a``
            # on either side shows on both), with the gradient None.
            new = copy_module.copy(d[name])
            new.grad = None
            d[name] = new
        return ret

    def repeat(self, n_repeat, mode='init'):
        """A :class:`~chainer.Sequential` of ``n_repeat`` copies of this
        link, made with :meth:`copy` (``mode`` default ``'init'``: freshly
        initialized parameters)."""
        from chainer.sequential import Sequential
        ret = Sequential()
        if n_repeat <= 0:
            return ret
        if mode not in _MODES:
            raise ValueError(
                "The 'mode' argument should be either 'init','copy', or "
                "'share'. But {} was given.".format(mode))
        for _ in range(n_repeat):
            ret.append(self.copy(mode))
        return ret

    # --- devices and serialization ----------------------------------------

    @property
    def _device_id(self):
        """The id of the link's CUDA device, ``None`` off the GPU.

        Deprecated (as in Chainer, which kept it for old code such as
        chainerrl's): use :attr:`device`.
        """
        warnings.warn(
            'Link._device_id is left only for backward compatibility and '
            'likely to be removed. Use Link.device instead.',
            DeprecationWarning)
        device = self.device
        return device.device.id if device.name.startswith('@cupy:') else None

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        d = self.__dict__
        for name in sorted(self._params):
            visitor.visit_variable(d[name])
        for name in sorted(self._persistent):
            value = d[name]
            if _is_array(value):
                d[name] = visitor.visit_array(value)
        for _, child in self._named_children():
            child.device_resident_accept(visitor)

    def serialize(self, serializer):
        """Saves or loads the parameters and persistent values (and those of
        the children, under their names)."""
        d = self.__dict__
        # Any callable ``serializer(key, value)`` works, as in Chainer; only a
        # Deserializer has a dry run (the validating pass of a staged load).
        dry_run = (isinstance(serializer, serializer_module.Deserializer)
                   and serializer.dry_run)
        for name in sorted(self._params):
            param = d[name]
            data = serializer(name, param.array)
            if data is None and param.array is not None and not dry_run \
                    and isinstance(serializer,
                                   serializer_module.Deserializer):
                # saved before its lazy initialization: the parameter keeps
                # its value, as in Chainer (said, not silent)
                warnings.warn(
                    '{}: the file holds None (a parameter saved before its '
                    'initialization); the parameter keeps its current '
                    'value'.format(getattr(serializer, 'path', '') + name),
                    RuntimeWarning, stacklevel=2)
            if param.array is None and data is not None and not dry_run:
                # An uninitialized parameter takes the loaded shape.
                param.initialize(data.shape)
                xp = param.xp
                with backend.get_device_from_array(param.array).create_context():
                    param.array[...] = xp.asarray(data)
        for name in sorted(self._persistent):
            value = serializer(name, d[name])
            if value is None and isinstance(d[name],
                                            backend._get_array_types()):
                # a statistic (BatchNormalization's avg_mean) stays an array
                raise serializer_module._none_refused(
                    getattr(serializer, 'path', '') + name, d[name])
            if not dry_run:
                d[name] = value
        for key, child in self._named_children():
            child.serialize(serializer[key])

    # --- printing ----------------------------------------------------------

    @property
    def printable_specs(self):
        """Yields the ``(name, value)`` pairs shown by ``str(link)``."""
        return iter(())

    def __str__(self):
        specs = ', '.join('{}={}'.format(k, v) for k, v in
                          self.printable_specs)
        return '{}({})'.format(type(self).__name__, specs)


class Chain(Link):
    """A link that holds named child links.

    Assign child links inside ``with self.init_scope():`` (or use
    :meth:`add_link`); their parameters appear under ``/name/...``.

    >>> class Two(Chain):
    ...     def __init__(self):
    ...         super().__init__()
    ...         with self.init_scope():
    ...             self.a = Link(w=(2,))
    ...             self.b = Link(w=(3,))
    >>> [name for name, _ in Two().namedparams()]
    ['/a/w', '/b/w']
    """

    def __init__(self, **links):
        super().__init__()
        self.__dict__['_children'] = set()
        for name, link in links.items():
            self.add_link(name, link)

    def __getitem__(self, name):
        """The child (or any attribute) ``name``."""
        return getattr(self, name)

    def __setattr__(self, name, value):
        if self._within_init_scope and isinstance(value, Link):
            # As Chainer: a link never replaces an attribute (a child, a
            # parameter, a plain or class attribute) inside init_scope.
            if hasattr(self, name):
                raise AttributeError(
                    'cannot register a new link {}: attribute '
                    'exists'.format(name))
            value.name = name
            self._children.add(name)
            self._params.discard(name)
            self._persistent.discard(name)
        super().__setattr__(name, value)

    def __delattr__(self, name):
        if '_children' in self.__dict__:
            self._children.discard(name)
        super().__delattr__(name)

    def add_link(self, name, link):
        """Registers ``link`` as the child ``name``."""
        if name in self.__dict__:
            raise AttributeError(
                'cannot register a new link {}: attribute exists'.format(name))
        if not isinstance(link, Link):
            raise TypeError('cannot register a non-link object as a child')
        with self.init_scope():
            setattr(self, name, link)

    def _named_children(self):
        d = self.__dict__
        return [(name, d[name]) for name in sorted(self._children)]

    def _child(self, key):
        return self.__dict__[key]

    def children(self):
        for _, child in self._named_children():
            yield child

    def namedparams(self, include_uninit=True):
        yield from super().namedparams(include_uninit)
        for key, child in self._named_children():
            prefix = '/' + key
            for path, param in child.namedparams(include_uninit):
                yield prefix + path, param

    def namedlinks(self, skipself=False):
        if not skipself:
            yield '/', self
        for key, child in self._named_children():
            prefix = '/' + key
            yield prefix, child
            for path, link in child.namedlinks(True):
                yield prefix + path, link

    def copy(self, mode='share'):
        ret = super().copy(mode)
        d = ret.__dict__
        d['_children'] = set(self._children)
        for name in self._children:
            child = d[name].copy(mode)
            child.name = name
            d[name] = child
        return ret

    def __str__(self):
        return _listing(type(self).__name__,
                        [(k, str(c)) for k, c in self._named_children()])


class ChainList(Link, collections.abc.MutableSequence):
    """A link that holds a list of child links (a MutableSequence).

    Children are named by their index (``/0/W``, ``/1/W``...).

    Args:
        links: The initial children.

    >>> cl = ChainList(Link(w=(2,)), Link(w=(3,)))
    >>> len(cl), [name for name, _ in cl.namedparams()]
    (2, ['/0/w', '/1/w'])
    """

    def __init__(self, *links):
        super().__init__()
        self.__dict__['_children'] = []
        for link in links:
            self.add_link(link)

    def _rename(self):
        for i, child in enumerate(self._children):
            child.name = str(i)

    @staticmethod
    def _check_link(link):
        if not isinstance(link, Link):
            raise TypeError('ChainList: a child must be a Link, got '
                            '{}'.format(type(link).__name__))

    def __setattr__(self, name, value):
        if self._within_init_scope and isinstance(value, Link):
            raise TypeError('cannot register a new link within a "with '
                            'chainlist.init_scope():" block; use add_link')
        super().__setattr__(name, value)

    def add_link(self, link):
        """Appends ``link`` as a child."""
        self._check_link(link)
        link.name = str(len(self._children))
        self._children.append(link)

    def __getitem__(self, index):
        return self._children[index]

    def __setitem__(self, index, value):
        if isinstance(index, slice):
            value = list(value)
            for link in value:
                self._check_link(link)
        else:
            self._check_link(value)
        self._children[index] = value
        self._rename()

    def __delitem__(self, index):
        del self._children[index]
        self._rename()

    def insert(self, index, link):
        """Inserts ``link`` before ``index``."""
        self._check_link(link)
        self._children.insert(index, link)
        self._rename()

    def __iter__(self):
        return iter(self._children)

    def __len__(self):
        return len(self._children)

    def _named_children(self):
        return [(str(i), c) for i, c in enumerate(self._children)]

    def _child(self, key):
        return self._children[int(key)]

    def children(self):
        yield from self._children

    def namedparams(self, include_uninit=True):
        yield from super().namedparams(include_uninit)
        for key, child in self._named_children():
            prefix = '/' + key
            for path, param in child.namedparams(include_uninit):
                yield prefix + path, param

    def namedlinks(self, skipself=False):
        if not skipself:
            yield '/', self
        for key, child in self._named_children():
            prefix = '/' + key
            yield prefix, child
            for path, link in child.namedlinks(True):
                yield prefix + path, link

    def copy(self, mode='share'):
        ret = super().copy(mode)
        children = [child.copy(mode) for child in self._children]
        ret.__dict__['_children'] = children
        ret._rename()
        return ret

    def __str__(self):
        return _listing(type(self).__name__,
                        [(k, str(c)) for k, c in self._named_children()])
