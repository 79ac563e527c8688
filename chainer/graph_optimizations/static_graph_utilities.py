"""``@static_code``: marks code that ran outside the traced graph."""

import functools


def static_code(*dec_args, **dec_kwargs):
    """Decorator kept for compatibility: the function runs as written."""
    def wrap(func):
        @functools.wraps(func)
        def wrapped(*a, **k):
            return func(*a, **k)
        return wrapped

    if len(dec_args) == 1 and not dec_kwargs and callable(dec_args[0]):
        return wrap(dec_args[0])
    return wrap


def static_forward_optimizations(func, inputs):
    """Hook that FunctionNode.apply may call before forward.

    Chainer used it to record ``func`` into a static schedule being traced;
    chainer-ng never traces, so there is nothing to do.
    """
    return None
