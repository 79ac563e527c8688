"""``unary_math_function_unittest``: a ready-made test class for
elementwise functions of one input."""

import numpy

import chainer
from chainer import gradient_check
from chainer.testing import array as _array
from chainer.testing import attr
from chainer.testing import parameterized

# Chainer's default tolerances; the options given to the decorator update
# them (a key given replaces that key only).
_FWD_TOL = {'atol': 1e-4, 'rtol': 1e-4}
_FWD_TOL_FLOAT16 = {'atol': 9.77e-4, 'rtol': 9.77e-4}
_BWD_TOL = {'dtype': numpy.float64, 'atol': 1e-4, 'rtol': 1e-4}
_BWD_TOL_FLOAT16 = {'eps': 2 ** -4, 'atol': 2 ** -4, 'rtol': 2 ** -4,
                    'dtype': numpy.float64}


def _options(default, default_float16, given, dtype):
    options = dict(default_float16 if dtype == numpy.float16 else default)
    options.update(given or {})
    return options


def _default_make_data(shape, dtype):
    x = numpy.random.uniform(-1, 1, shape).astype(dtype)
    gy = numpy.random.uniform(-1, 1, shape).astype(dtype)
    ggx = numpy.random.uniform(-1, 1, shape).astype(dtype)
    return x, gy, ggx


def _func_name(func):
    name = getattr(func, '__name__', None)
    if name is None:
        name = type(func).__name__
    return name.lower()


def _as_callable(func):
    """A legacy Function (class or instance) becomes a callable."""
    if isinstance(func, type) and issubclass(func, chainer.Function):
        return lambda x: func()(x)
    return func


def unary_math_function_unittest(func, func_expected=None,
                                 label_expected=None, make_data=None,
                                 is_linear=None, forward_options=None,
                                 backward_options=None,
                                 double_backward_options=None):
    """Decorator that turns a test class into tests of a unary elementwise
    function: forward (against ``func_expected``), backward and double
    backward, on CPU and GPU (skipped without CuPy), for shapes ``(3, 2)``
    and ``()`` and dtypes float16/32/64.

    Args:
        func: The function under test (or a legacy Function class).
        func_expected: ``(x, dtype) -> expected array``; by default the
            NumPy function of the same name.
        label_expected (str): If given, also tests the label of the
            function node of the output (``test_label``).
        make_data: ``(shape, dtype) -> (x, gy, ggx)``; by default uniform in
            ``[-1, 1]``.
        is_linear (bool): If True, the double backward test runs on
            ``func(x) ** 2`` (kept for compatibility; not needed).
        forward_options (dict): Options of
            :func:`chainer.testing.assert_allclose`; they update the
            defaults (``atol=rtol=1e-4``; ``9.77e-4`` for float16).
        backward_options, double_backward_options (dict): Options of
            :func:`chainer.gradient_check.check_backward` and
            ``check_double_backward``; they update the defaults
            (``dtype=numpy.float64, atol=rtol=1e-4``; for float16 ``eps``,
            ``atol`` and ``rtol`` are ``2 ** -4``).

    >>> import unittest
    >>> from chainer import testing
    >>> import chainer.functions as F
    >>> @testing.unary_math_function_unittest(F.exp)
    ... class TestExp(unittest.TestCase):
    ...     pass
    """
    f = _as_callable(func)
    if func_expected is None:
        name = _func_name(func)
        np_func = getattr(numpy, name, None)
        if np_func is None:
            raise ValueError(
                'unary_math_function_unittest: numpy has no function {!r}; '
                'give func_expected'.format(name))

        def func_expected(x, dtype):
            return numpy.asarray(np_func(x)).astype(dtype, copy=False)
    if make_data is None:
        make_data = _default_make_data

    def setup(self):
        self.x, self.gy, self.ggx = [
            numpy.asarray(a) for a in make_data(self.shape, self.dtype)]
        dtype = numpy.dtype(self.dtype)
        self.forward_options = _options(
            _FWD_TOL, _FWD_TOL_FLOAT16, forward_options, dtype)
        self.backward_options = _options(
            _BWD_TOL, _BWD_TOL_FLOAT16, backward_options, dtype)
        self.double_backward_options = _options(
            _BWD_TOL, _BWD_TOL_FLOAT16, double_backward_options, dtype)

    def check_forward(self, x_data):
        y = f(chainer.Variable(x_data))
        assert y.array.dtype == numpy.dtype(self.dtype), (
            'output dtype {} != input dtype {}'.format(y.dtype, self.dtype))
        expected = func_expected(self.x, dtype=self.dtype)
        _array.assert_allclose(y.array, expected, **self.forward_options)

    def check_backward(self, x_data, gy):
        gradient_check.check_backward(f, x_data, gy, **self.backward_options)

    def check_double_backward(self, x_data, gy, ggx):
        if is_linear:
            def g(x):
                y = f(x)
                return y * y
        else:
            g = f
        gradient_check.check_double_backward(
            g, x_data, gy, ggx, **self.double_backward_options)

    def to_gpu(self, *arrays):
        from chainer.backends import cuda
        return [cuda.to_gpu(a) for a in arrays]

    def test_forward_cpu(self):
        self.check_forward(self.x)

    def test_forward_gpu(self):
        self.check_forward(*self._to_gpu(self.x))

    def test_backward_cpu(self):
        self.check_backward(self.x, self.gy)

    def test_backward_gpu(self):
        self.check_backward(*self._to_gpu(self.x, self.gy))

    def test_double_backward_cpu(self):
        self.check_double_backward(self.x, self.gy, self.ggx)

    def test_double_backward_gpu(self):
        self.check_double_backward(*self._to_gpu(self.x, self.gy, self.ggx))

    def test_label(self):
        y = f(chainer.Variable(self.x))
        assert y.creator.label == label_expected, (
            'label {!r} != {!r}'.format(y.creator.label, label_expected))

    def decorator(klass):
        orig_setup = klass.__dict__.get('setUp')

        def setUp(self):
            if orig_setup is not None:
                orig_setup(self)
            setup(self)

        members = {
            'setUp': setUp,
            'check_forward': check_forward,
            'check_backward': check_backward,
            'check_double_backward': check_double_backward,
            '_to_gpu': to_gpu,
            'test_forward_cpu': test_forward_cpu,
            'test_forward_gpu': attr.gpu(test_forward_gpu),
            'test_backward_cpu': test_backward_cpu,
            'test_backward_gpu': attr.gpu(test_backward_gpu),
            'test_double_backward_cpu': test_double_backward_cpu,
            'test_double_backward_gpu': attr.gpu(test_double_backward_gpu),
        }
        if label_expected is not None:
            members['test_label'] = test_label
        for name, value in members.items():
            setattr(klass, name, value)
        return parameterized.parameterize(*parameterized.product({
            'shape': [(3, 2), ()],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }))(klass)

    return decorator
