"""Converters: functions that turn a list of examples into a minibatch.

A converter is called as ``converter(batch, device)``; ``device`` is a
:class:`chainer.backend.Device` (legacy ints and specifier strings are
turned into one before the converter's body sees them) or ``None``.
"""

import numpy

from chainer import backend


class Converter:
    """The base class of converters.

    A subclass implements ``__call__(batch, device)``: ``batch`` is the list
    of examples an iterator returned, ``device`` a
    :class:`chainer.backend.Device` (or ``None`` to leave arrays where they
    are). Most converters are written as functions decorated with
    :func:`converter` instead.
    """

    def __call__(self, batch, device):
        raise NotImplementedError('Concrete class must implement __call__.')


def _as_device(device):
    if device is None or isinstance(device, backend.Device):
        return device
    if isinstance(device, (int, numpy.integer)) and device < 0:
        return backend.CpuDevice()
    return backend.get_device(device)


class _ArbitraryCallableConverter(Converter):
    """A :class:`Converter` wrapping a callable ``f(batch, device, ...)``.

    The ``device`` argument (second positional or keyword) is resolved to a
    :class:`chainer.backend.Device` before ``f`` is called.
    """

    def __init__(self, base_callable):
        if not callable(base_callable):
            raise TypeError('converter: expected a callable, got {}'.format(
                type(base_callable).__name__))
        self.base_callable = base_callable
        self.__doc__ = getattr(base_callable, '__doc__', None)
        self.__wrapped__ = base_callable

    def __call__(self, *args, **kwargs):
        if len(args) >= 2:
            args = (args[0], _as_device(args[1])) + args[2:]
        elif 'device' in kwargs:
            kwargs['device'] = _as_device(kwargs['device'])
        return self.base_callable(*args, **kwargs)


def converter():
    """Decorator that makes a converter out of a function.

    The function takes ``(batch, device)`` (and any extra arguments); the
    decorated object is a :class:`Converter` whose ``device`` argument is
    always a :class:`chainer.backend.Device` or ``None``, even when the
    caller passes a legacy int such as ``-1`` or a string like ``'@numpy'``.

    >>> from chainer.dataset import converter
    >>> @converter()
    ... def first(batch, device=None):
    ...     return batch[0]
    >>> first([3, 4], -1)
    3
    """
    return _ArbitraryCallableConverter


def to_device(device, x):
    """Sends an array (or a list/tuple of arrays) to a device.

    Args:
        device: A device specifier (:class:`chainer.backend.Device`,
            ``'@numpy'``, ``'@cupy:0'``, ...) or a legacy int (negative means
            the CPU). ``None`` returns ``x`` unchanged.
        x: An array, a list or tuple of arrays, or ``None``.

    Returns:
        ``x`` on ``device``.
    """
    if device is None or x is None:
        return x
    return _as_device(device).send(x)


# The two helpers below keep Chainer's private names and signatures:
# libraries built on Chainer (chainer-chemistry) import them.

def _concat_arrays(arrays, padding):
    """Stacks one field of the examples along a new first axis, padding
    them to the largest shape with ``padding`` unless it is ``None``."""
    first = arrays[0]
    if not isinstance(first, backend._get_array_types()):
        # Python or NumPy scalars (labels): one array of them.
        first = numpy.asarray(first)
        arrays = [numpy.asarray(a) for a in arrays]
    if padding is not None:
        return _concat_arrays_with_padding(arrays, padding)
    with backend.get_device_from_array(first).create_context():
        # concatenate, not stack: ragged examples fail with Chainer's
        # (NumPy's concatenate) words
        return backend.get_array_module(first).concatenate(
            [a[None] for a in arrays])


def _concat_arrays_with_padding(arrays, padding):
    """Stacks arrays of one dtype and rank but different shapes, each at
    the start of a slot of the largest shape filled with ``padding``."""
    first = arrays[0]
    shape = tuple(numpy.max([a.shape for a in arrays], axis=0))
    with backend.get_device_from_array(first).create_context():
        out = backend.get_array_module(first).full(
            (len(arrays),) + shape, padding, dtype=first.dtype)
        for i, a in enumerate(arrays):
            out[(i,) + tuple(slice(n) for n in a.shape)] = a
    return out


def concat_examples_func(batch, device=None, padding=None):
    """Stacks a list of examples into a minibatch (see
    :data:`concat_examples`)."""
    if len(batch) == 0:
        raise ValueError('batch is empty')
    first = batch[0]
    if isinstance(first, tuple):
        if not isinstance(padding, tuple):
            padding = (padding,) * len(first)
        elif len(padding) != len(first):
            raise ValueError(
                'concat_examples: padding has {} entries but the examples '
                'have {}'.format(len(padding), len(first)))
        return tuple(
            to_device(device, _concat_arrays([ex[i] for ex in batch], p))
            for i, p in enumerate(padding))
    if isinstance(first, dict):
        if not isinstance(padding, dict):
            padding = dict.fromkeys(first, padding)
        return {key: to_device(device, _concat_arrays(
                    [ex[key] for ex in batch], padding.get(key)))
                for key in first}
    return to_device(device, _concat_arrays(batch, padding))


concat_examples = _ArbitraryCallableConverter(concat_examples_func)
concat_examples.__doc__ = """Stacks a list of examples into a minibatch.

    ``concat_examples(batch, device=None, padding=None)``.

    Each example is an array (or scalar), a tuple of them, or a dict of them.
    The result has the same structure, each field stacked along a new first
    axis: a list of ``(x, t)`` tuples gives ``(xs, ts)``; a list of dicts
    gives a dict of arrays.

    Args:
        batch (list): The examples; must not be empty.
        device: Where to send the arrays (see :func:`to_device`); ``None``
            leaves them where they are.
        padding: If not ``None``, arrays of different shapes are allowed:
            each is placed at the start of an array of the largest shape
            filled with this value. A tuple (for tuple examples) or a dict
            (for dict examples) gives one padding value per field.

    Returns:
        An array, a tuple of arrays or a dict of arrays.

    >>> import numpy as np
    >>> from chainer.dataset import concat_examples
    >>> x, t = concat_examples([(np.zeros(2), 0), (np.ones(2), 1)])
    >>> x.shape, t
    ((2, 2), array([0, 1]))
    """


class ConcatWithAsyncTransfer:
    """A converter that stacks examples on the CPU and sends them to a GPU.

    ``__call__(batch, device=None, padding=None)`` returns what
    :data:`concat_examples` returns. With CuPy, the host-to-device copy is
    issued on ``stream`` (when given) so that it can overlap with compute on
    ``compute_stream``; the stream is synchronized before returning, so the
    arrays are ready when the caller uses them.
    """

    def __init__(self, stream=None, compute_stream=None):
        self.stream = stream
        self.compute_stream = compute_stream

    def __call__(self, batch, device=None, padding=None):
        device = _as_device(device)
        host = concat_examples_func(batch, None, padding)
        if device is None or device.xp is numpy:
            return host
        with device.create_context():
            if self.stream is None:
                return _map(device.send_array, host)
            with self.stream:
                out = _map(device.send_array, host)
            self.stream.synchronize()
            return out


def _map(f, x):
    if isinstance(x, tuple):
        return tuple(f(a) for a in x)
    if isinstance(x, dict):
        return {k: f(a) for k, a in x.items()}
    return f(x)
