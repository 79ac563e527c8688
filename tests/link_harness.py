"""Shared checks for link tests: parameter layout, gradients reaching the
parameters, npz round trips and copies.

    check_params(L.Linear(3, 2), {'/W': (2, 3), '/b': (2,)})
"""

import numpy

from chainer import gradient_check
from chainer import serializers


def check_params(link, expected, dtype=numpy.float32):
    """``expected``: ``{path: shape or None (uninitialized)}``; all of the
    link's parameters, nothing else."""
    got = {name: (p.shape if p.array is not None else None)
           for name, p in link.namedparams()}
    assert got == {k: (tuple(v) if v is not None else None)
                   for k, v in expected.items()}, got
    for name, p in link.namedparams():
        if p.array is not None:
            assert p.dtype == dtype, (name, p.dtype)


def check_param_grads(link, inputs, y_grad=None, no_grads=None, eps=1e-2,
                      atol=1e-3, rtol=1e-3):
    """Numerical vs analytic gradients for the float inputs and every
    parameter of ``link`` (computed in float64)."""
    params = tuple(p for _, p in sorted(link.namedparams()))
    for p in params:
        p.array = p.array.astype(numpy.float64)
    inputs = tuple(x.astype(numpy.float64) if x.dtype.kind == 'f' else x
                   for x in inputs)
    if y_grad is not None:
        y_grad = tuple(g.astype(numpy.float64) for g in (
            y_grad if isinstance(y_grad, tuple) else (y_grad,)))
    gradient_check.check_backward(link, inputs, y_grad, params=params,
                                  no_grads=no_grads, eps=eps, atol=atol,
                                  rtol=rtol)


def roundtrip_npz(src, dst, tmp_path):
    """Saves ``src`` and loads it into ``dst``; their parameters and
    persistent values must then agree."""
    path = str(tmp_path / 'link.npz')
    serializers.save_npz(path, src)
    serializers.load_npz(path, dst)
    for (n1, p1), (n2, p2) in zip(sorted(src.namedparams()),
                                  sorted(dst.namedparams())):
        assert n1 == n2
        numpy.testing.assert_array_equal(p1.array, p2.array)
    for (_, l1), (_, l2) in zip(src.namedlinks(), dst.namedlinks()):
        for name in l1._persistent:
            numpy.testing.assert_array_equal(getattr(l1, name),
                                             getattr(l2, name))


def check_copies(link):
    """``copy('copy')`` gives independent equal data; ``copy('share')``
    shares it."""
    deep = link.copy('copy')
    shared = link.copy('share')
    for (name, p), (_, q), (_, r) in zip(link.namedparams(),
                                         deep.namedparams(),
                                         shared.namedparams()):
        if p.array is None:
            continue
        numpy.testing.assert_array_equal(p.array, q.array)
        assert q.array is not p.array
        assert r.array is p.array


# Deterministic parameters and inputs (the same values were set on the
# reference Chainer when the expected numbers in the tests were recorded).

def fill(link):
    # the same deterministic parameters were set on the reference Chainer
    for k, (_, p) in enumerate(sorted(link.namedparams())):
        p.array[...] = (numpy.cos(numpy.arange(p.size) * 0.7 + k) *
                        0.5).reshape(p.shape)


def seq(shape, k):
    size = int(numpy.prod(shape))
    return numpy.sin(numpy.arange(size) * 0.3 + k).reshape(shape).astype('f')


def to64(link):
    params = tuple(p for _, p in sorted(link.namedparams()))
    for p in params:
        p.array = p.array.astype(numpy.float64)
    return params
