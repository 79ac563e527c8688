"""LinkHook: code that runs around the forward pass of Links."""

import collections
import threading

_thread_local = threading.local()


def _get_link_hooks():
    """The thread-local OrderedDict of the link hooks active in ``with``
    blocks (they apply to every Link called in the block)."""
    hooks = getattr(_thread_local, 'link_hooks', None)
    if hooks is None:
        hooks = collections.OrderedDict()
        _thread_local.link_hooks = hooks
    return hooks


class _ForwardPreprocessCallbackArgs:
    """What :meth:`LinkHook.forward_preprocess` gets: ``link``,
    ``forward_name``, ``args`` and ``kwargs``."""

    def __init__(self, link, forward_name, args, kwargs):
        self.link = link
        self.forward_name = forward_name
        self.args = args
        self.kwargs = kwargs

    def __repr__(self):
        return '<{} link={} forward_name={} args={} kwargs={}>'.format(
            type(self).__name__, self.link, self.forward_name, self.args,
            self.kwargs)


class _ForwardPostprocessCallbackArgs(_ForwardPreprocessCallbackArgs):
    """What :meth:`LinkHook.forward_postprocess` gets: the same, and
    ``out``, the result of the forward."""

    def __init__(self, link, forward_name, args, kwargs, out):
        super().__init__(link, forward_name, args, kwargs)
        self.out = out


class LinkHook:
    """The base class of link hooks.

    A hook sees each call of a Link: :meth:`forward_preprocess` before
    ``forward`` runs and :meth:`forward_postprocess` after. Register one on
    a link with :meth:`chainer.Link.add_hook`, or for every link within a
    ``with hook:`` block (thread-local).

    Attributes:
        name (str): The key of the hook (``'LinkHook'`` by default). Two hooks
            of the same name cannot be registered at once.

    >>> import chainer
    >>> class Count(LinkHook):
    ...     name = 'count'
    ...     n = 0
    ...     def forward_preprocess(self, args):
    ...         self.n += 1
    """

    name = 'LinkHook'

    def __enter__(self):
        hooks = _get_link_hooks()
        if self.name in hooks:
            raise KeyError('hook {} already exists'.format(self.name))
        hooks[self.name] = self
        self.added(None)
        return self

    def __exit__(self, *_):
        self.deleted(None)
        del _get_link_hooks()[self.name]

    def added(self, link):
        """Called when the hook is registered (``link`` is None for a
        ``with`` block)."""

    def deleted(self, link):
        """Called when the hook is unregistered (``link`` is None for a
        ``with`` block)."""

    def forward_preprocess(self, args):
        """Called before the forward; ``args`` has ``link``,
        ``forward_name``, ``args`` and ``kwargs``."""

    def forward_postprocess(self, args):
        """Called after the forward; ``args`` also has ``out``."""
