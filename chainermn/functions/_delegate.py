"""Delegate variables: empty arrays that carry no value, only a place in the
graph, so that backward reaches a communication whose real output lives on
another rank."""

import numpy

import chainer


def empty_like_device(x=None):
    xp = numpy if x is None else chainer.backend.get_array_module(x)
    return xp.empty((0,), dtype=numpy.float32)


def delegate(xp=numpy):
    """A fresh delegate leaf (it requires a gradient, so backward walks to
    it)."""
    v = chainer.Variable(xp.empty((0,), dtype=numpy.float32))
    v.name = 'delegate_variable'
    return v


def ready(v):
    """Gives a delegate output its (empty) initial gradient, so that
    ``v.backward()`` runs without one."""
    v.name = 'delegate_variable'
    v.grad = v.array.copy()
    return v


def zeros_grad(xp, shape, dtype):
    return xp.zeros(shape, dtype=dtype)
