"""Small helpers shared by the distributions (private)."""

import numpy

import chainer
from chainer import backend
from chainer import distribution
from chainer.function_node import FunctionNode


def _as_params(*values):
    """Wraps each parameter in a Variable.

    Python and NumPy scalars become 0-d arrays of the dtype of the first
    array among ``values`` (the default dtype if there is none), so
    ``Normal(loc, 1.)`` works.
    """
    dtype = None
    xp = numpy
    for v in values:
        a = chainer.as_array(v)
        if hasattr(a, 'dtype') and not numpy.isscalar(a):
            dtype = a.dtype
            # scalars go to that array's device (CuPy does not mix with
            # NumPy arrays)
            xp = backend.get_array_module(a)
            break
    if dtype is None or dtype.kind != 'f':
        dtype = chainer.get_dtype()
    out = []
    for v in values:
        if v is None:
            out.append(None)
            continue
        if not isinstance(v, chainer.Variable):
            a = v
            if numpy.isscalar(a):
                a = xp.asarray(a, dtype=dtype)
            v = chainer.as_variable(a)
        out.append(v)
    return out if len(out) != 1 else out[0]


def _xp(*vs):
    return backend.get_array_module(*[chainer.as_array(v) for v in vs])


class ModifiedXLogX(FunctionNode):
    """``x * log(x)`` with the value 0 at ``x == 0``."""

    @property
    def label(self):
        return 'modified_xlogx'

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        xp = backend.get_array_module(x)
        with numpy.errstate(divide='ignore', invalid='ignore'):
            y = x * xp.log(x)
        return xp.where(x == 0, x.dtype.type(0), y).astype(x.dtype),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        # d/dx x log x = log x + 1 (-inf at 0, the limit of the slope).
        return grad_outputs[0] * (chainer.functions.log(x) + 1),


def _modified_xlogx(x):
    return ModifiedXLogX().apply((x,))[0]


def _lbeta(a, b):
    F = chainer.functions
    return F.lgamma(a) + F.lgamma(b) - F.lgamma(a + b)


def _where(cond, x, y):
    """``F.where`` taking a raw condition; a scalar or raw branch takes the
    dtype of the Variable one."""
    xp = backend.get_array_module(cond)
    cond = xp.asarray(cond)  # a comparison of 0-d arrays gives a scalar
    # The Variable branch sets the dtype (a raw branch computed from 0-d
    # arrays may have been promoted to float64 by NumPy 1).
    if isinstance(x, chainer.Variable):
        dtype = x.dtype
    elif isinstance(y, chainer.Variable) or hasattr(y, 'dtype'):
        dtype = y.dtype
    else:
        dtype = x.dtype
    if not isinstance(x, chainer.Variable):
        x = xp.asarray(x, dtype=dtype)
    if not isinstance(y, chainer.Variable):
        y = xp.asarray(y, dtype=dtype)
    return chainer.functions.where(cond, x, y)


def _input(x, dtype):
    """``x`` as a Variable or an array (Python scalars take ``dtype``)."""
    if isinstance(x, chainer.Variable):
        return x
    if numpy.isscalar(x) or isinstance(x, (list, tuple)):
        return numpy.asarray(x, dtype=dtype)
    return x


def _gpu_dtype(dtype):
    """The dtype to ask CuPy's generators for: they make only float32 and
    float64 (a float16 draw is made in float32 and cast)."""
    return numpy.float32 if numpy.dtype(dtype) == numpy.float16 else dtype


def _draw(xp, name, shape, dtype):
    """Standard draws of ``xp.random.<name>`` in ``dtype`` (NumPy's
    generators only make float64)."""
    if xp is numpy:
        return getattr(numpy.random, name)(size=shape).astype(dtype, copy=False)
    return getattr(xp.random, name)(
        size=shape, dtype=_gpu_dtype(dtype)).astype(dtype, copy=False)


def _standard_normal(xp, shape, dtype):
    return _draw(xp, 'standard_normal', shape, dtype)


def _uniform(xp, shape, dtype):
    """Uniform draws on [0, 1)."""
    return _draw(xp, 'random_sample', shape, dtype)


def _sample(array):
    """Wraps a sampled array (not differentiable)."""
    return chainer.Variable(array, requires_grad=False)


class _ScalarEvent(distribution.Distribution):
    """Base of the distributions with scalar events.

    The batch shape and the array module come from the first parameter named
    in ``_param_names``; ``params`` maps each name to its attribute.
    """

    _param_names = ()
    _support = 'real'

    @property
    def batch_shape(self):
        return getattr(self, self._param_names[0]).shape

    @property
    def event_shape(self):
        return ()

    @property
    def params(self):
        return {name: getattr(self, name) for name in self._param_names}

    @property
    def support(self):
        return self._support

    @property
    def xp(self):
        return _xp(getattr(self, self._param_names[0]))


class _LocScale(_ScalarEvent):
    """Base of the location-scale families: a sample is ``loc + scale * eps``
    with ``eps`` a standard draw of ``xp.random.<_noise>`` (reparameterized).
    """

    _param_names = ('loc', 'scale')
    _noise = None

    def __init__(self, loc, scale):
        self.loc, self.scale = _as_params(loc, scale)

    def sample_n(self, n):
        eps = _draw(self.xp, self._noise, (n,) + self.batch_shape,
                    self.loc.dtype)
        return self.loc + self.scale * eps
