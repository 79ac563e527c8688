import numpy

import chainer


def to_host_value(value):
    """A reported value (Variable, array, number) as a NumPy value."""
    if isinstance(value, chainer.Variable):
        value = value.array
    if not isinstance(value, (int, float, numpy.ndarray, numpy.generic)):
        value = chainer.backend.CpuDevice().send(value)
    return value


def float_persistents(link):
    """``(name, owner, attribute)`` of every floating-point array persistent
    in ``link``, in the same order on every rank."""
    out = []
    for path, sub in sorted(link.namedlinks()):
        for name in sorted(getattr(sub, '_persistent', ())):
            value = getattr(sub, name)
            if hasattr(value, 'dtype') and getattr(value, 'ndim', 0) >= 0 and \
                    numpy.dtype(value.dtype).kind == 'f' and hasattr(value, 'shape'):
                out.append((path + '/' + name, sub, name))
    return out
