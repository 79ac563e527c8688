"""Shared checks for link tests: parameter layout, gradients reaching the
parameters, npz round trips and copies.

    check_params(L.Linear(3, 2), {'/W': (2, 3), '/b': (2,)})

The gpu copy of a test (conftest.py) runs the gradient, round-trip and copy
checks with the link on ``op_harness.DEVICE``; the link is back on the CPU
when a check returns.
"""

import contextlib

import numpy

import op_harness
from chainer import gradient_check
from chainer import serializers
from chainer.backends import cuda


@contextlib.contextmanager
def _on_device(*links):
    if op_harness.DEVICE is None:
        yield
        return
    for link in links:
        link.to_device(op_harness.DEVICE)
    try:
        yield
    finally:
        for link in links:
            link.to_device('@numpy')


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
    with _on_device(link):
        gradient_check.check_backward(
            link, op_harness.send(inputs),
            None if y_grad is None else op_harness.send(y_grad),
            params=params, no_grads=no_grads, eps=eps, atol=atol, rtol=rtol)


def roundtrip_npz(src, dst, tmp_path):
    """Saves ``src`` and loads it into ``dst``; their parameters and
    persistent values must then agree."""
    path = str(tmp_path / 'link.npz')
    with _on_device(src):
        serializers.save_npz(path, src)  # from the device on the gpu copy
    serializers.load_npz(path, dst)
    with _on_device(dst):
        if op_harness.DEVICE is not None:
            serializers.load_npz(path, dst)  # and onto the device
        for (n1, p1), (n2, p2) in zip(sorted(src.namedparams()),
                                      sorted(dst.namedparams())):
            assert n1 == n2
            numpy.testing.assert_array_equal(p1.array, cuda.to_cpu(p2.array))
        for (_, l1), (_, l2) in zip(src.namedlinks(), dst.namedlinks()):
            for name in l1._persistent:
                numpy.testing.assert_array_equal(
                    getattr(l1, name), _to_cpu(getattr(l2, name)))


def _to_cpu(value):
    return cuda.to_cpu(value) if hasattr(value, 'shape') else value


def check_copies(link):
    """``copy('copy')`` gives independent equal data; ``copy('share')``
    shares it."""
    with _on_device(link):
        deep = link.copy('copy')
        shared = link.copy('share')
        for (name, p), (_, q), (_, r) in zip(link.namedparams(),
                                             deep.namedparams(),
                                             shared.namedparams()):
            if p.array is None:
                continue
            assert q.device == p.device, (name, q.device, p.device)
            numpy.testing.assert_array_equal(cuda.to_cpu(p.array),
                                             cuda.to_cpu(q.array))
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
