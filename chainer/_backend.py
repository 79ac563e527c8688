"""Chainer's private device module, for the code written against it.

Chainer kept its :class:`Device` base class here (``chainer.backend``
re-exported it), and libraries built on Chainer reach it by this path
(chainer-chemistry checks ``isinstance(device, chainer._backend.Device)``).
The class is :class:`chainer.backend.Device` itself, so both paths name one
type.
"""

import contextlib

from chainer.backend import Device  # NOQA

# The context a device without one makes current (a no-op).
_dummy_context = contextlib.nullcontext()


def _convert_arrays(array, func):
    """Applies ``func`` to an array, or to each array of a list or tuple.

    ``None`` entries stay ``None``, and an array that appears several times
    in the container is converted once, so the result shares it the same
    way.
    """
    if not isinstance(array, (list, tuple)):
        return func(array)
    done = {}
    out = []
    for a in array:
        if a is not None:
            key = id(a)
            if key not in done:
                done[key] = func(a)
            a = done[key]
        out.append(a)
    return type(array)(out)
