"""Trainer extensions: the base class, the decorator and the priorities.

An extension is a callable ``ext(trainer)`` that the trainer invokes when
its trigger fires. Extensions run in order of priority, highest first:
writers (which add to the observation) before editors (which change it)
before readers (which log or print it).
"""

PRIORITY_WRITER = 300
PRIORITY_EDITOR = 200
PRIORITY_READER = 100


class Extension:
    """The base class of trainer extensions.

    A subclass implements ``__call__(trainer)``; ``trigger``, ``priority``
    and ``name`` are the defaults :meth:`Trainer.extend` uses when it is not
    told otherwise.

    Attributes:
        trigger: When to call the extension: ``(period, unit)`` or a
            callable trigger. Default ``(1, 'iteration')``.
        priority (int): Higher runs first. Default ``PRIORITY_READER``.
        name (str): The name under which the trainer registered it.
    """

    trigger = 1, 'iteration'
    priority = PRIORITY_READER
    name = None

    @property
    def default_name(self):
        """The name used when none is given: the class name."""
        return type(self).__name__

    def __call__(self, trainer):
        raise NotImplementedError(
            '{} does not implement __call__(trainer)'.format(
                type(self).__name__))

    def finalize(self):
        """Called once when training ends (also on an error)."""
        pass

    def initialize(self, trainer):
        """Called once before the training loop starts (and on resume)."""
        pass

    def on_error(self, trainer, exc, tb):
        """Called when the training loop raises ``exc`` (traceback ``tb``)."""
        pass

    def serialize(self, serializer):
        """Saves or loads the extension's state (nothing by default)."""
        pass


def make_extension(trigger=None, default_name=None, priority=None,
                   finalizer=None, initializer=None, on_error=None,
                   **kwargs):
    """Decorator that turns a function ``f(trainer)`` into an extension.

    It sets the attributes the trainer reads (``trigger``, ``priority``,
    ``default_name``, ``finalize``, ``initialize``, ``on_error``) on the
    function and returns it.

    >>> from chainer import training
    >>> @training.make_extension(trigger=(1, 'epoch'))
    ... def show_epoch(trainer):
    ...     print(trainer.updater.epoch)
    >>> show_epoch.trigger, show_epoch.default_name
    ((1, 'epoch'), 'show_epoch')
    """
    if 'invoke_before_training' in kwargs:
        raise ValueError(
            'invoke_before_training has been removed since Chainer v2.0.0. '
            'Use initializer= instead.')
    if kwargs:
        from chainer.utils import argument  # Chainer's text
        raise argument.unexpected_error('assert_kwargs_empty', kwargs)
    if trigger is None:
        trigger = Extension.trigger
    if priority is None:
        priority = Extension.priority

    def decorator(ext):
        ext.trigger = trigger
        ext.default_name = default_name or ext.__name__
        ext.priority = priority
        ext.finalize = finalizer
        ext.initialize = initializer
        ext.on_error = on_error
        return ext

    return decorator
