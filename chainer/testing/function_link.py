"""Declarative test cases for functions and links: ``FunctionTestCase``,
``LinkTestCase`` and ``LinkInitializersTestCase``.

A test class states how to make inputs, how to run the function (or link)
and what it should give; the base class runs the forward check against the
expectation and the gradient checks of :mod:`chainer.gradient_check`, on
the backend that :func:`chainer.testing.inject_backend_tests` gives.
"""

import unittest

import numpy

import chainer
from chainer import backend
from chainer import gradient_check
from chainer import initializers
from chainer.testing import array as array_module

# Resampling attempts before giving up on dodging a non-differentiable point.
_MAX_DODGE = 100


class _TestError(AssertionError):
    """Base of the errors raised when the tested code is wrong."""

    @classmethod
    def check(cls, expr, message):
        if not expr:
            raise cls(message)

    @classmethod
    def fail(cls, message, exc=None):
        if exc is not None:
            message = '{}\n\n(caused by)\n{}: {}\n'.format(
                message, type(exc).__name__, exc)
            raise cls(message) from exc
        raise cls(message)


class FunctionTestError(_TestError):
    """Raised when the target function is implemented incorrectly."""


class LinkTestError(_TestError):
    """Raised when the target link is implemented incorrectly."""


class InitializerArgument:
    """A pair of an initializer argument and the initializer-like it
    stands for.

    For :meth:`LinkInitializersTestCase.get_initializers`, when what is
    passed to the link (``argument_value``, e.g. ``None``) is not what the
    link fills its parameter with (``expected_initializer``, e.g. ``0``).
    """

    def __init__(self, argument_value, expected_initializer):
        if expected_initializer is None:
            raise ValueError('expected_initializer cannot be None')
        self.argument_value = argument_value
        self.expected_initializer = expected_initializer

    def __repr__(self):
        return 'InitializerArgument({!r}, {!r})'.format(
            self.argument_value, self.expected_initializer)


# --- helpers ---------------------------------------------------------------

def _cpu_config():
    from chainer.testing.backend import BackendConfig
    return BackendConfig({})


def _shapes_dtypes(arrays):
    return ', '.join(
        'None' if a is None else '{}:{}'.format(a.shape, a.dtype)
        for a in arrays)


def _to_numpy(a):
    if a is None:
        return None
    return backend.CpuDevice().send(a)


def _make_noncontiguous(a):
    """A non-contiguous copy of ``a`` (same device), when one exists."""
    if a is None or a.ndim == 0 or a.size <= 1:
        return a
    xp = backend.get_array_module(a)
    buf = xp.empty(a.shape + (2,), dtype=a.dtype)
    view = buf[..., 0]
    view[...] = a
    return view


def _check_array_tuple(arrays, what, error, allow_none=False):
    if isinstance(arrays, list):
        arrays = tuple(arrays)
    if not isinstance(arrays, tuple):
        raise error('{} must return a tuple of arrays, got {}'.format(
            what, type(arrays).__name__))
    out = []
    for a in arrays:
        if isinstance(a, numpy.generic):
            # NumPy ufuncs give scalars for 0-d inputs.
            a = numpy.asarray(a)
        elif not (isinstance(a, numpy.ndarray) or
                  (a is None and allow_none)):
            raise error('{} must return a tuple of numpy.ndarray{}, got an '
                        'item of type {}'.format(
                            what, ' or None' if allow_none else '',
                            type(a).__name__))
        out.append(a)
    return tuple(out)


def _as_outputs(outputs, what, error):
    if isinstance(outputs, list):
        outputs = tuple(outputs)
    if not isinstance(outputs, tuple):
        raise error('{} must return a tuple of Variables, got {}'.format(
            what, type(outputs).__name__))
    for y in outputs:
        if not isinstance(y, chainer.Variable):
            raise error('{} must return a tuple of Variables, got an item of '
                        'type {}'.format(what, type(y).__name__))
    return outputs


def _check_outputs_match(outputs, expected, error):
    """Compares the output arrays with the expected ones (both numpy)."""
    if len(outputs) != len(expected):
        error.fail(
            'Number of outputs ({}, {}) does not match\n'
            'Expected shapes and dtypes: {}\n'
            'Actual shapes and dtypes:   {}\n'.format(
                len(outputs), len(expected), _shapes_dtypes(expected),
                _shapes_dtypes(outputs)))
    if any(a.shape != e.shape or a.dtype != e.dtype
           for a, e in zip(outputs, expected)):
        error.fail(
            'Shapes and/or dtypes do not match\n'
            'Expected shapes and dtypes: {}\n'
            'Actual shapes and dtypes:   {}\n'.format(
                _shapes_dtypes(expected), _shapes_dtypes(outputs)))


def _check_forward_values(outputs, expected, options, error):
    _check_outputs_match(outputs, expected, error)
    failures = []
    for i, (a, e) in enumerate(zip(outputs, expected)):
        try:
            array_module.assert_allclose(a, e, **options)
        except AssertionError as exc:
            failures.append((i, exc))
    if failures:
        msg = ('Outputs do not match the expected values.\n'
               'Indices of outputs that do not match: {}\n'
               'Expected shapes and dtypes: {}\n'
               'Actual shapes and dtypes:   {}\n'.format(
                   ', '.join(str(i) for i, _ in failures),
                   _shapes_dtypes(expected), _shapes_dtypes(outputs)))
        for i, exc in failures:
            msg += '\n\nError details of output [{}]:\n{}\n'.format(i, exc)
        error.fail(msg)


def _random_like(templates):
    return tuple(
        None if t is None else
        numpy.random.uniform(-1, 1, t.shape).astype(t.dtype)
        for t in templates)


def _check_grads_like(grads, outputs, kind):
    """``grads`` must match the shapes/dtypes of ``outputs``."""
    if len(grads) != len(outputs):
        raise ValueError(
            '{} must contain equally as many elements as the number of '
            'output elements.\n'
            'Output shapes and dtypes         : {}\n'
            'Output gradient shapes and dtypes: {}'.format(
                kind, _shapes_dtypes(outputs), _shapes_dtypes(grads)))
    if any(g is not None and (g.shape != y.shape or g.dtype != y.dtype)
           for g, y in zip(grads, outputs)):
        raise ValueError(
            'Shapes and/or dtypes of outputs and {} do not match.\n'
            'Output shapes and dtypes         : {}\n'
            'Output gradient shapes and dtypes: {}'.format(
                kind.lower(), _shapes_dtypes(outputs),
                _shapes_dtypes(grads)))


class _TestCaseBase(unittest.TestCase):
    """What the function and link test cases share."""

    # The base classes are not tests themselves (pytest collects any
    # TestCase it sees, e.g. after ``from chainer.testing import
    # FunctionTestCase``); their subclasses are.
    __test__ = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if '__test__' not in cls.__dict__:
            cls.__test__ = True

    backend_config = None
    test_name = None
    skip_forward_test = False
    skip_backward_test = False
    dodge_nondifferentiable = False
    numerical_grad_dtype = numpy.float64
    contiguous = None
    check_forward_options = {}
    check_backward_options = {}
    _error = _TestError
    _option_names = ('check_forward_options', 'check_backward_options')

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Each test gets its own copies: ``setUp`` typically updates them
        # (``self.check_backward_options.update(...)``), which must not
        # reach the class (and every other test of the process).
        for name in self._option_names:
            setattr(self, name, dict(getattr(type(self), name) or {}))

    def before_test(self, test_name):
        """Called before each test (raise :class:`unittest.SkipTest` to skip
        it)."""

    def generate_inputs(self):
        """Returns a tuple of input ``numpy.ndarray`` s."""
        raise NotImplementedError('generate_inputs is not implemented')

    def generate_grad_outputs(self, outputs_template):
        """Returns the output gradients (uniform in ``[-1, 1]`` by
        default), shaped like ``outputs_template``."""
        return _random_like(outputs_template)

    def _begin(self, test_name, backend_config):
        if backend_config is None:
            backend_config = _cpu_config()
        self.backend_config = backend_config
        self.test_name = test_name
        self.before_test(test_name)
        return backend_config

    def _generate_inputs(self):
        return _check_array_tuple(self.generate_inputs(),
                                  'generate_inputs()', TypeError)

    def _to_device(self, arrays, backend_config):
        out = []
        for a in arrays:
            if a is not None:
                a = backend_config.get_array(a)
                if self.contiguous is None:
                    a = _make_noncontiguous(a)
            out.append(a)
        return tuple(out)

    def _backward_options(self, options):
        opts = {'dtype': self.numerical_grad_dtype}
        opts.update(options)
        opts['detect_nondifferentiable'] = bool(self.dodge_nondifferentiable)
        return opts

    def _run_dodging(self, attempt):
        """Runs ``attempt()``; resamples (by running it again) while it
        hits a non-differentiable point and dodging is on."""
        for _ in range(_MAX_DODGE):
            try:
                return attempt()
            except gradient_check.NondifferentiableError:
                if not self.dodge_nondifferentiable:
                    raise
        raise self._error(
            'could not find a differentiable point in {} samples'.format(
                _MAX_DODGE))


# --- FunctionTestCase -----------------------------------------------------

class FunctionTestCase(_TestCaseBase):
    """A base class for function test cases.

    Override ``generate_inputs(self)`` (a tuple of NumPy input arrays),
    ``forward(self, inputs, device)`` (runs the function on ``inputs``, a
    tuple of :class:`~chainer.Variable` on ``device``; returns a tuple of
    Variables) and ``forward_expected(self, inputs)`` (the expected outputs
    from the NumPy inputs, a tuple of arrays). Optionally override
    ``before_test(test_name)``, ``generate_grad_outputs(outputs_template)``,
    ``generate_grad_grad_inputs(inputs_template)`` (uniform in ``[-1, 1]``
    by default; None entries for omitted gradients) and
    ``check_forward_outputs(outputs, expected_outputs)``.

    The tests ``test_forward``, ``test_backward`` and
    ``test_double_backward`` take a :class:`~chainer.testing.BackendConfig`
    (use :func:`~chainer.testing.inject_backend_tests`; without it they run
    on the CPU).

    Attributes:
        check_forward_options (dict): Options of ``assert_allclose``.
        check_backward_options (dict): Options of ``check_backward``.
        check_double_backward_options (dict): Options of
            ``check_double_backward``.
        skip_forward_test, skip_backward_test, skip_double_backward_test
            (bool): Skip those tests.
        dodge_nondifferentiable (bool): Resample the inputs while they lie
            at a non-differentiable point.
        numerical_grad_dtype: The dtype of numerical gradients (float64).
        contiguous (None or 'C'): None makes the input arrays (and the
            gradients) non-contiguous where possible.
        backend_config, test_name: Set while a test runs.

    >>> import numpy
    >>> import chainer.functions as F
    >>> from chainer import testing
    >>> @testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
    ... class TestExp(testing.FunctionTestCase):
    ...     def generate_inputs(self):
    ...         return numpy.random.uniform(-1, 1, (2, 3)).astype('f'),
    ...     def forward(self, inputs, device):
    ...         return F.exp(inputs[0]),
    ...     def forward_expected(self, inputs):
    ...         return numpy.exp(inputs[0]),
    """

    __test__ = False

    skip_double_backward_test = False
    check_double_backward_options = {}
    _error = FunctionTestError
    _option_names = ('check_forward_options', 'check_backward_options',
                     'check_double_backward_options')

    def forward(self, inputs, device):
        """Runs the function on the input Variables; returns a tuple of
        output Variables."""
        raise NotImplementedError('forward is not implemented')

    def forward_expected(self, inputs):
        """Returns the expected outputs (NumPy arrays) for the inputs."""
        raise NotImplementedError('forward_expected is not implemented')

    def generate_grad_grad_inputs(self, inputs_template):
        """Returns the gradients of the input gradients (uniform in
        ``[-1, 1]`` by default), shaped like ``inputs_template``."""
        return _random_like(inputs_template)

    def check_forward_outputs(self, outputs, expected_outputs):
        """Compares the outputs (arrays) with the expected ones; raises
        :class:`FunctionTestError` on a mismatch."""
        _check_forward_values(outputs, expected_outputs,
                              self.check_forward_options, FunctionTestError)

    def _forward_expected(self, inputs):
        expected = self.forward_expected(tuple(
            a.copy() for a in inputs))
        return _check_array_tuple(expected, 'forward_expected()', TypeError)

    def _forward(self, inputs, device):
        outputs = self.forward(inputs, device)
        return _as_outputs(outputs, 'forward()', TypeError)

    def _output_template(self, inputs, backend_config):
        try:
            return self._forward_expected(inputs)
        except NotImplementedError:
            xs = self._to_device(inputs, backend_config)
            with backend_config:
                ys = self._forward(
                    tuple(chainer.Variable(x) for x in xs),
                    backend_config.device)
            return tuple(_to_numpy(y.array) for y in ys)

    def run_test_forward(self, backend_config):
        if self.skip_forward_test:
            raise unittest.SkipTest('skip_forward_test is set')
        backend_config = self._begin('test_forward', backend_config)
        inputs = self._generate_inputs()
        expected = self._forward_expected(inputs)
        xs = self._to_device(inputs, backend_config)
        with backend_config:
            outputs = self._forward(
                tuple(chainer.Variable(x) for x in xs),
                backend_config.device)
        self.check_forward_outputs(
            tuple(_to_numpy(y.array) for y in outputs), expected)

    def _checked_forward(self, device, grad_outputs):
        checked = []

        def f(*args):
            outputs = self._forward(args, device)
            if not checked:
                _check_grads_like(grad_outputs, outputs, 'Output gradients')
                checked.append(True)
            return outputs
        return f

    def run_test_backward(self, backend_config):
        if self.skip_backward_test:
            raise unittest.SkipTest('skip_backward_test is set')
        backend_config = self._begin('test_backward', backend_config)

        def attempt():
            inputs = self._generate_inputs()
            template = self._output_template(inputs, backend_config)
            gys = _check_array_tuple(
                self.generate_grad_outputs(template),
                'generate_grad_outputs()', TypeError, allow_none=True)
            xs = self._to_device(inputs, backend_config)
            gys = self._to_device(gys, backend_config)
            f = self._checked_forward(backend_config.device, gys)
            with backend_config:
                try:
                    gradient_check.check_backward(
                        f, xs, gys, **self._backward_options(
                            self.check_backward_options))
                except AssertionError as e:
                    FunctionTestError.fail(
                        'backward is not implemented correctly', e)

        self._run_dodging(attempt)

    def run_test_double_backward(self, backend_config):
        if self.skip_double_backward_test:
            raise unittest.SkipTest('skip_double_backward_test is set')
        backend_config = self._begin('test_double_backward', backend_config)

        def attempt():
            inputs = self._generate_inputs()
            template = self._output_template(inputs, backend_config)
            gys = _check_array_tuple(
                self.generate_grad_outputs(template),
                'generate_grad_outputs()', TypeError, allow_none=True)
            ggxs = _check_array_tuple(
                self.generate_grad_grad_inputs(inputs),
                'generate_grad_grad_inputs()', TypeError, allow_none=True)
            _check_grads_like(ggxs, inputs, 'Grad-grad inputs')
            xs = self._to_device(inputs, backend_config)
            gys = self._to_device(gys, backend_config)
            ggxs = self._to_device(ggxs, backend_config)
            f = self._checked_forward(backend_config.device, gys)
            with backend_config:
                try:
                    gradient_check.check_double_backward(
                        f, xs, gys, ggxs, **self._backward_options(
                            self.check_double_backward_options))
                except AssertionError as e:
                    FunctionTestError.fail(
                        'double backward is not implemented correctly', e)

        self._run_dodging(attempt)

    def test_forward(self, backend_config=None):
        """Tests forward computation."""
        self.run_test_forward(backend_config)

    def test_backward(self, backend_config=None):
        """Tests backward computation."""
        self.run_test_backward(backend_config)

    def test_double_backward(self, backend_config=None):
        """Tests double-backward computation."""
        self.run_test_double_backward(backend_config)


# --- LinkTestCase ---------------------------------------------------------

class _LinkTestBase(_TestCaseBase):

    __test__ = False

    param_names = ()
    _error = LinkTestError

    def generate_params(self):
        """Returns a tuple of initializer-likes, one per initializer
        argument of the link, passed to :meth:`create_link`."""
        raise NotImplementedError('generate_params is not implemented')

    def create_link(self, initializers):
        """Returns the link, made with the initializer-likes
        ``initializers``."""
        raise NotImplementedError('create_link is not implemented')

    def forward(self, link, inputs, device):
        """Runs the link on the input Variables (by default
        ``link(*inputs)``); returns a tuple of output Variables."""
        outputs = link(*inputs)
        if isinstance(outputs, chainer.Variable):
            outputs = (outputs,)
        return outputs

    def _create_link(self, initializers):
        link = self.create_link(initializers)
        if not isinstance(link, chainer.Link):
            raise TypeError('create_link() must return a chainer.Link, got '
                            '{}'.format(type(link).__name__))
        return link

    def _generate_params(self):
        params = self.generate_params()
        if isinstance(params, list):
            params = tuple(params)
        if not isinstance(params, tuple):
            raise TypeError('generate_params() must return a tuple, got '
                            '{}'.format(type(params).__name__))
        return params

    def _forward(self, link, inputs, device):
        return _as_outputs(self.forward(link, inputs, device), 'forward()',
                           TypeError)

    def _link_params(self, link):
        params = []
        for name in self.param_names:
            p = getattr(link, name, None)
            if not isinstance(p, chainer.Parameter):
                raise LinkTestError('the link has no parameter {!r}'.format(
                    name))
            params.append(p)
        return params

    def _prepare(self, backend_config):
        """A link on the device (parameters made non-contiguous unless
        ``contiguous``), and the inputs."""
        link = self._create_link(self._generate_params())
        inputs = self._generate_inputs()
        link.to_device(backend_config.device)
        xs = self._to_device(inputs, backend_config)
        return link, inputs, xs

    def _noncontiguous_params(self, link):
        if self.contiguous is None:
            for p in link.params():
                if p.array is not None:
                    p.array = _make_noncontiguous(p.array)


class LinkTestCase(_LinkTestBase):
    """A base class for link forward and backward test cases.

    Override ``generate_params(self)`` (a tuple of initializer-likes, one
    per initializer argument of the link), ``create_link(self,
    initializers)``, ``generate_inputs(self)``, and
    ``forward_expected(self, link, inputs)`` (the expected outputs computed
    from the link, which is on the CPU, and the NumPy inputs). The default
    ``forward(self, link, inputs, device)`` returns ``link(*inputs)``.
    Optionally override ``before_test``, ``generate_grad_outputs`` and
    ``check_forward_outputs``.

    Attributes:
        param_names (tuple of str): The parameters whose gradients the
            backward test checks.
        skip_forward_test, skip_backward_test (bool): Skip those tests.
        check_forward_options, check_backward_options (dict): Tolerances.
        dodge_nondifferentiable, numerical_grad_dtype, contiguous: As for
            :class:`FunctionTestCase`.

    >>> import numpy
    >>> import chainer
    >>> from chainer import testing
    >>> @testing.inject_backend_tests(None, [{}])
    ... class TestLinear(testing.LinkTestCase):
    ...     param_names = ('W', 'b')
    ...     def generate_params(self):
    ...         W = numpy.random.uniform(-1, 1, (3, 2)).astype('f')
    ...         b = numpy.random.uniform(-1, 1, (3,)).astype('f')
    ...         return W, b
    ...     def generate_inputs(self):
    ...         return numpy.random.uniform(-1, 1, (1, 2)).astype('f'),
    ...     def create_link(self, initializers):
    ...         W, b = initializers
    ...         return chainer.links.Linear(2, 3, initialW=W, initial_bias=b)
    ...     def forward_expected(self, link, inputs):
    ...         x, = inputs
    ...         return x.dot(link.W.array.T) + link.b.array,
    """

    __test__ = False

    def forward_expected(self, link, inputs):
        """Returns the expected outputs (NumPy arrays)."""
        raise NotImplementedError('forward_expected is not implemented')

    def check_forward_outputs(self, outputs, expected_outputs):
        """Compares the outputs with the expected ones; raises
        :class:`LinkTestError` on a mismatch."""
        _check_forward_values(outputs, expected_outputs,
                              self.check_forward_options, LinkTestError)

    def _forward_expected(self, link, inputs):
        expected = self.forward_expected(link, tuple(
            a.copy() for a in inputs))
        return _check_array_tuple(expected, 'forward_expected()', TypeError)

    def run_test_forward(self, backend_config):
        if self.skip_forward_test:
            raise unittest.SkipTest('skip_forward_test is set')
        backend_config = self._begin('test_forward', backend_config)
        link, inputs, xs = self._prepare(backend_config)
        self._noncontiguous_params(link)
        with backend_config:
            outputs = self._forward(
                link, tuple(chainer.Variable(x) for x in xs),
                backend_config.device)
        outputs = tuple(_to_numpy(y.array) for y in outputs)
        link.to_device(backend.CpuDevice())
        expected = self._forward_expected(link, inputs)
        self.check_forward_outputs(outputs, expected)

    def run_test_backward(self, backend_config):
        if self.skip_backward_test:
            raise unittest.SkipTest('skip_backward_test is set')
        backend_config = self._begin('test_backward', backend_config)

        def attempt():
            link, inputs, xs = self._prepare(backend_config)
            device = backend_config.device
            # One forward run initializes lazily created parameters and
            # gives the output template.
            with backend_config:
                ys = self._forward(
                    link, tuple(chainer.Variable(x) for x in xs), device)
            template = tuple(_to_numpy(y.array) for y in ys)
            gys = _check_array_tuple(
                self.generate_grad_outputs(template),
                'generate_grad_outputs()', TypeError, allow_none=True)
            gys = self._to_device(gys, backend_config)
            self._noncontiguous_params(link)
            params = self._link_params(link)
            checked = []

            def f(*args):
                outputs = self._forward(link, args, device)
                if not checked:
                    _check_grads_like(gys, outputs, 'Output gradients')
                    checked.append(True)
                return outputs

            with backend_config:
                try:
                    gradient_check.check_backward(
                        f, xs, gys, params=params,
                        **self._backward_options(self.check_backward_options))
                except AssertionError as e:
                    LinkTestError.fail(
                        'backward is not implemented correctly', e)

        self._run_dodging(attempt)

    def test_forward(self, backend_config=None):
        """Tests forward computation."""
        self.run_test_forward(backend_config)

    def test_backward(self, backend_config=None):
        """Tests backward computation."""
        self.run_test_backward(backend_config)


class LinkInitializersTestCase(_LinkTestBase):
    """A base class for link parameter initializer test cases.

    Override ``generate_params``, ``create_link``, ``generate_inputs`` (and
    ``forward`` if ``link(*inputs)`` does not do), as for
    :class:`LinkTestCase`, and ``get_initializers(self)``: a tuple with, for
    each initializer argument of the link, a list of initializer-likes to
    try (deterministic ones; an :class:`InitializerArgument` when the
    argument differs from what the link fills its parameter with). Each is
    passed to ``create_link`` in turn, the other arguments taken from
    ``generate_params``; the link runs forward once (to initialize lazy
    parameters) and the parameter ``param_names[i]`` must equal the
    initializer's output.

    Attributes:
        param_names (tuple of str): The parameter of each initializer
            argument.
        check_initializers_options (dict): Tolerances of the comparison.
        skip_initializers_test (bool): Skip the test.
        contiguous: As for :class:`FunctionTestCase`.
    """

    __test__ = False

    skip_initializers_test = False
    check_initializers_options = {}

    def get_initializers(self):
        """Returns, for each initializer argument, the initializer-likes
        to test."""
        raise NotImplementedError('get_initializers is not implemented')

    def run_test_initializers(self, backend_config):
        if self.skip_initializers_test:
            raise unittest.SkipTest('skip_initializers_test is set')
        backend_config = self._begin('test_initializers', backend_config)
        defaults = self._generate_params()
        candidates = self.get_initializers()
        if len(candidates) != len(defaults):
            raise ValueError(
                'get_initializers() gave {} entries but generate_params() '
                'gave {}'.format(len(candidates), len(defaults)))
        if len(self.param_names) != len(defaults):
            raise ValueError(
                'param_names has {} names but generate_params() gave {} '
                'initializers'.format(len(self.param_names), len(defaults)))
        for i, inits in enumerate(candidates):
            for init in inits:
                if isinstance(init, InitializerArgument):
                    arg, expected = init.argument_value, \
                        init.expected_initializer
                else:
                    arg = expected = init
                args = list(defaults)
                args[i] = arg
                self._check_initializer(
                    tuple(args), self.param_names[i], expected,
                    backend_config)

    def _check_initializer(self, args, name, expected, backend_config):
        link = self._create_link(args)
        link.to_device(backend_config.device)
        xs = self._to_device(self._generate_inputs(), backend_config)
        with backend_config:
            self._forward(link, tuple(chainer.Variable(x) for x in xs),
                          backend_config.device)
        param = getattr(link, name, None)
        if not isinstance(param, chainer.Parameter) or param.array is None:
            raise LinkTestError('the link has no initialized parameter '
                                '{!r}'.format(name))
        actual = _to_numpy(param.array)
        init = initializers._get_initializer(expected)
        want = numpy.empty(actual.shape, dtype=actual.dtype)
        init(want)
        try:
            array_module.assert_allclose(
                actual, want, **self.check_initializers_options)
        except AssertionError as e:
            LinkTestError.fail(
                'parameter {!r} is not initialized correctly with {!r}'
                .format(name, expected), e)

    def test_initializers(self, backend_config=None):
        """Tests that the parameters of a links are correctly
        initialized."""
        self.run_test_initializers(backend_config)
