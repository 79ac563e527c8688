"""One harness for op tests: forward against a NumPy reference, then the
gradient and the second-order gradient against numerical ones, per dtype.

    check_op(F.exp, lambda rng, dt: (rng.randn(3, 2).astype(dt),), numpy.exp)

Every test that calls it runs twice (conftest.py): on NumPy, and, marked
``gpu``, with its inputs sent to ``DEVICE`` (and each output's gradient to
that output's device); the constants that a test's function takes besides
its inputs go there by ``on_device``.
"""

import numpy

from chainer import backend
from chainer import gradient_check
from chainer import testing
from chainer.variable import Variable

# The device of the current test's arrays; None for NumPy (conftest.py sets
# it for the gpu copy of a test).
DEVICE = None

FLOATS = (numpy.float16, numpy.float32, numpy.float64)

# Forward tolerances per dtype (the reference is computed in float64).
FWD_TOL = {
    numpy.float16: dict(atol=5e-3, rtol=5e-3),
    numpy.float32: dict(atol=1e-5, rtol=1e-5),
    numpy.float64: dict(atol=1e-12, rtol=1e-12),
}
# Gradient tolerances: the numerical gradient is taken in float64.
BWD_TOL = {
    numpy.float16: dict(atol=5e-2, rtol=5e-2),
    numpy.float32: dict(atol=1e-3, rtol=1e-3),
    numpy.float64: dict(atol=1e-6, rtol=1e-6),
}


def _as_tuple(x):
    return x if isinstance(x, tuple) else (x,)


def send(arrays):
    """The NumPy arrays of a tuple moved to ``DEVICE`` (others kept)."""
    if DEVICE is None:
        return arrays
    return tuple(DEVICE.send(a) if isinstance(a, numpy.ndarray) else a
                 for a in arrays)


def on_device(*arrays):
    """Constant arrays that the op under test takes besides its inputs
    (labels, masks, indices), on the device of the inputs: one array, or a
    tuple of them for several. Call it inside the function under test (or
    the test's body), where ``DEVICE`` is set."""
    sent = send(arrays)
    return sent[0] if len(sent) == 1 else sent


def _like(arrays, targets):
    """The NumPy arrays of a tuple each sent to the device of its target
    (an output's gradient to that output's device: F.copy's may differ
    from the inputs')."""
    if DEVICE is None:
        return arrays
    return tuple(backend.get_device_from_array(t).send(a)
                 for a, t in zip(arrays, targets))


def check_op(func, make_inputs, reference=None, dtypes=FLOATS,
             backward=True, double_backward=True, seed=0, fwd_tol=None,
             bwd_tol=None, eps=None, no_grads=None, check_dtype=True):
    """Runs the standard checks of one op.

    Args:
        func: The function under test, taking the inputs.
        make_inputs: ``(rng, dtype) -> tuple of arrays``.
        reference: ``(*inputs as float64) -> array or tuple`` (None to skip
            the forward check).
        dtypes: The float dtypes to check.
        backward, double_backward (bool): Which gradient checks to run.
        fwd_tol, bwd_tol: ``{dtype: dict(atol=, rtol=)}`` overrides.
        eps: Step of the numerical gradient (float64 computation).
        no_grads: Passed to the gradient checks.
        check_dtype (bool): The outputs must have the first input's dtype.
    """
    for dtype in dtypes:
        rng = numpy.random.RandomState(seed)
        cpu_xs = _as_tuple(make_inputs(rng, dtype))
        xs = send(cpu_xs)
        ys = _as_tuple(func(*xs))
        for y in ys:
            assert isinstance(y, Variable), type(y)
        if reference is not None:
            expected = _as_tuple(reference(*[
                x.astype(numpy.float64) if x.dtype.kind == 'f' else x
                for x in cpu_xs]))
            assert len(ys) == len(expected)
            tol = (fwd_tol or {}).get(dtype, FWD_TOL[dtype])
            for y, e in zip(ys, expected):
                assert y.shape == numpy.shape(e), (y.shape, numpy.shape(e))
                if check_dtype:
                    assert y.dtype == dtype, (y.dtype, dtype)
                testing.assert_allclose(y.array, e, **tol)
        if not (backward or double_backward):
            continue
        gys = _like(tuple(numpy.asarray(rng.randn(*y.shape)).astype(y.dtype)
                          for y in ys), ys)
        tol = dict((bwd_tol or {}).get(dtype, BWD_TOL[dtype]))
        kw = dict(tol, dtype=numpy.float64, no_grads=no_grads)
        if eps is not None:
            kw['eps'] = eps
        if backward:
            gradient_check.check_backward(func, xs, gys, **kw)
        if double_backward:
            fxs = [x for x in xs if x.dtype.kind == 'f']
            ggxs = _like(tuple(
                numpy.asarray(rng.randn(*x.shape)).astype(x.dtype)
                for x in fxs), fxs)
            gradient_check.check_double_backward(func, xs, gys, ggxs, **kw)


def uniform(rng, shape, dtype, low=-1, high=1):
    return rng.uniform(low, high, shape).astype(dtype)


def spy_calls(monkeypatch, module, attr='_loops'):
    """Replaces ``module.attr`` (C loops, say) by a stand-in that records
    the name of each function called through it, then calls the real one;
    returns the list of names."""
    calls = []
    real = getattr(module, attr)

    class Spy:
        def __getattr__(self, name):
            fn = getattr(real, name)

            def call(*args, **kwargs):
                calls.append(name)
                return fn(*args, **kwargs)
            return call
    monkeypatch.setattr(module, attr, Spy())
    return calls
