"""``@static_code`` and the hook Chainer's FunctionNode.apply called."""

import functools
import threading

_state = threading.local()  # .recorder: the Recorder of a forward recording


def static_code(*dec_args, **dec_kwargs):
    """Marks a function that a static chain's forward calls for its side
    effects (on arrays, in place) and that must run at every call.

    While a static chain records its forward, a call of the function is
    recorded with its arguments as they are (the same objects), and a replay
    calls it again with them at the same point among the ops.  It must
    return None (a value could not flow into the replayed ops: the chain
    then runs define-by-run).  Outside a recording it runs as written.

    >>> import numpy as np
    >>> from chainer import static_code
    >>> @static_code
    ... def fill(a, value):
    ...     a[...] = value
    >>> a = np.zeros(2, np.float32)
    >>> fill(a, 3)
    >>> a
    array([3., 3.], dtype=float32)
    """
    def wrap(func):
        @functools.wraps(func)
        def wrapped(*args, **kwargs):
            result = func(*args, **kwargs)
            recorder = getattr(_state, 'recorder', None)
            if recorder is not None:
                recorder.static_code(func, args, kwargs, result)
            return result
        return wrapped

    if len(dec_args) == 1 and not dec_kwargs and callable(dec_args[0]):
        return wrap(dec_args[0])
    return wrap


def static_forward_optimizations(func, inputs):
    """Chainer's hook for FunctionNode.apply; chainer-ng records a static
    chain's forward with a function hook instead, so it does nothing."""
    return None
