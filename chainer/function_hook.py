"""FunctionHook: callbacks around the forward and backward of functions."""

import collections

from chainer.configuration import _local_store


def get_function_hooks():
    """The ordered dict of the function hooks active in this thread."""
    hooks = _local_store.__dict__.get('_function_hooks')
    if hooks is None:
        hooks = collections.OrderedDict()
        _local_store._function_hooks = hooks
    return hooks


class FunctionHook:
    """Base class of function hooks.

    A hook registered with ``with hook:`` (for every function in the block)
    or with :meth:`FunctionNode.add_hook` is called before and after the
    forward and backward of each function.
    """

    name = 'FunctionHook'

    def __enter__(self):
        hooks = get_function_hooks()
        if self.name in hooks:
            raise KeyError('hook {} already exists'.format(self.name))
        hooks[self.name] = self
        self.added(None)
        return self

    def __exit__(self, *_):
        hooks = get_function_hooks()
        hooks[self.name].deleted(None)
        del hooks[self.name]

    def added(self, function):
        """Called when the hook is registered (function None: globally)."""

    def deleted(self, function):
        """Called when the hook is unregistered."""

    def forward_preprocess(self, function, in_data):
        """Called before the forward of ``function``."""

    def forward_postprocess(self, function, in_data):
        """Called after the forward of ``function``."""

    def backward_preprocess(self, function, in_data, out_grad):
        """Called before the backward of ``function``."""

    def backward_postprocess(self, function, in_data, out_grad):
        """Called after the backward of ``function``."""
