"""Configuration: the global defaults and their thread-local overlay.

``chainer.config.train`` is read on every op call, so the lookup has to be
cheap.  The thread-local overlay is a :class:`threading.local` subclass whose
*class* attributes are the global values: an attribute set in this thread is
found in the thread's own dict, anything else falls through to the class,
both at C speed, with no ``__getattr__`` in Python on the way.
"""

import contextlib
import sys
import threading


class _LocalStore(threading.local):
    """Per-thread values; class attributes hold the global defaults."""

    # The function hooks of this thread (see chainer.function_hook); read
    # on every op call, so it lives here, next to the flags.
    _function_hooks = None


def _show(entries, file):
    keys = sorted(entries)
    width = max((len(k) for k in keys), default=0)
    for key in keys:
        file.write('{:<{}} {}\n'.format(key, width, entries[key]))


def _entries(namespace):
    return {k: v for k, v in namespace.items()
            if not k.startswith('_') or k == '_will_recompute'}


class GlobalConfig:
    """The process-wide configuration: the defaults every thread sees.

    Its values are the class attributes of a :class:`threading.local`
    subclass of its own, which every :class:`LocalConfig` built on it
    instantiates, so a thread's lookup falls through to them at C speed.
    """

    __slots__ = ('_store_cls',)

    def __init__(self, _store_cls=None):
        if _store_cls is None:
            _store_cls = type('_Store', (threading.local,), {})
        object.__setattr__(self, '_store_cls', _store_cls)

    def __getattr__(self, name):
        try:
            return self._store_cls.__dict__[name]
        except KeyError:
            raise AttributeError(
                "'GlobalConfig' object has no attribute {!r}".format(
                    name)) from None

    def __setattr__(self, name, value):
        setattr(self._store_cls, name, value)

    def __delattr__(self, name):
        if name not in self._store_cls.__dict__:
            raise AttributeError(
                'chainer.global_config has no key {!r}'.format(name))
        delattr(self._store_cls, name)

    def show(self, file=sys.stdout):
        """Prints the global configuration, one ``key value`` per line."""
        _show(_entries(vars(self._store_cls)), file)


class LocalConfig:
    """The thread-local configuration, falling back to the global one."""

    __slots__ = ('_global', '_local')

    def __init__(self, global_config):
        object.__setattr__(self, '_global', global_config)
        object.__setattr__(self, '_local', global_config._store_cls())

    def __getattr__(self, name):
        try:
            return getattr(self._local, name)
        except AttributeError:
            raise AttributeError(
                "'GlobalConfig' object has no attribute {!r}".format(
                    name)) from None

    def __setattr__(self, name, value):
        setattr(self._local, name, value)

    def __delattr__(self, name):
        try:
            delattr(self._local, name)
        except AttributeError:
            # Chainer's store is a plain threading.local
            raise AttributeError(
                "'_thread._local' object has no attribute {!r}".format(
                    name)) from None

    def show(self, file=sys.stdout):
        """Prints the configuration seen by this thread."""
        entries = _entries(vars(type(self._local)))
        entries.update(_entries(self._local.__dict__))
        _show(entries, file)


global_config = GlobalConfig(_LocalStore)
config = LocalConfig(global_config)

# The store itself, for the few hot paths that read a flag on every call.
_local_store = config._local

_MISSING = object()


@contextlib.contextmanager
def using_config(name, value, config=config):
    """Sets ``config.<name>`` to ``value`` within a ``with`` block.

    Args:
        name (str): Name of the configuration key.
        value: Its value inside the block.
        config: The configuration to change (``chainer.config`` by default).

    >>> import chainer
    >>> with chainer.using_config('train', False):
    ...     chainer.config.train
    False
    >>> chainer.config.train
    True
    """
    if isinstance(config, LocalConfig):
        store = config._local.__dict__
        old = store.get(name, _MISSING)
        setattr(config._local, name, value)
        try:
            yield
        finally:
            if old is _MISSING:
                store.pop(name, None)
            else:
                setattr(config._local, name, old)
    else:
        old = getattr(config, name, _MISSING)
        setattr(config, name, value)
        try:
            yield
        finally:
            if old is _MISSING:
                delattr(config, name)
            else:
                setattr(config, name, old)
