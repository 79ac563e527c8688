"""``distribution_unittest``: a base test case checking a
:class:`chainer.Distribution` against the matching ``scipy.stats``
distribution."""

import unittest

import numpy

import chainer
from chainer.testing import array as array_module
from chainer.testing import attr

# Draws of the sampling test, and its tolerance on the sample moments.
_N_SAMPLES = 100000
_SAMPLE_TOL = {'atol': 3e-2, 'rtol': 3e-2}

_TARGETS = frozenset((
    'batch_shape', 'cdf', 'entropy', 'event_shape', 'icdf', 'log_cdf',
    'log_prob', 'log_survival', 'mean', 'prob', 'sample', 'stddev',
    'support', 'survival', 'variance'))


def _to_cpu(x):
    x = getattr(x, 'array', x)
    if x is None:
        return None
    return chainer.backend.CpuDevice().send(x)


def _skip_without_cupy():
    from chainer.backends import cuda
    if not cuda.available:
        raise unittest.SkipTest('CuPy is not available')


def _to_gpu(x):
    from chainer.backends import cuda
    if isinstance(x, chainer.Variable):
        return chainer.Variable(cuda.to_gpu(x.array))
    return cuda.to_gpu(x)


class distribution_unittest(unittest.TestCase):
    """A base class for tests of distributions.

    A subclass (usually parameterized with ``shape``, ``is_variable`` and
    ``sample_shape``) defines ``setUp_configure(self)``, which sets:

    - ``self.dist``: the distribution class under test;
    - ``self.scipy_dist``: the ``scipy.stats`` distribution to compare
      with;
    - ``self.params``: the keyword arguments of ``self.dist`` (wrapped in
      Variables by ``setUp`` when ``self.is_variable``), and
      ``self.scipy_params``, those of the SciPy methods;
    - ``self.test_targets``: the names of the checks to run, among
      ``batch_shape``, ``event_shape``, ``support``, ``mean``,
      ``variance``, ``stddev``, ``entropy``, ``log_prob``, ``prob``,
      ``cdf``, ``log_cdf``, ``icdf``, ``survival``, ``log_survival`` and
      ``sample``; the tests of the others are skipped;
    - optionally ``self.options`` (more keyword arguments of ``self.dist``,
      not given to SciPy), ``self.support`` (``'real'``),
      ``self.event_shape`` (``()``) and ``self.continuous`` (True: SciPy's
      ``pdf``/``logpdf``, else ``pmf``/``logpmf``);

    and ``sample_for_test(self)``, points of shape ``sample_shape + shape +
    event_shape`` at which densities are compared. Set the class attribute
    ``scipy_onebyone`` when the SciPy distribution does not broadcast its
    parameters: its methods are then called once per batch element, with
    the parameters of :meth:`scipy_onebyone_params_iter`.

    Each check ``check_<target>(is_gpu)`` has a ``test_<target>_cpu`` and a
    ``test_<target>_gpu`` test (marked ``gpu``); a subclass may override a
    check. Values are compared with :func:`chainer.testing.assert_allclose`
    at its default tolerance; the sampling test compares the mean and the
    standard deviation of 100000 draws with those of as many SciPy draws.
    """

    scipy_onebyone = False
    # Not a test itself; its subclasses are (see FunctionTestCase).
    __test__ = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if '__test__' not in cls.__dict__:
            cls.__test__ = True
        _mark_gpu_tests()

    def setUp(self):
        self.support = 'real'
        if not hasattr(self, 'event_shape'):
            self.event_shape = ()
        self.continuous = True
        self.test_targets = set()
        self.options = {}
        self.setUp_configure()
        invalid = set(self.test_targets) - _TARGETS
        if invalid:
            raise ValueError('invalid target(s): {}'.format(invalid))
        if getattr(self, 'is_variable', False):
            self.params = {k: chainer.Variable(v)
                           for k, v in self.params.items()}

    def setUp_configure(self):
        raise NotImplementedError('setUp_configure is not implemented')

    def _skip_unless(self, target):
        if target not in self.test_targets:
            self.skipTest(
                '\'{}\' does not exist in test_targets.'.format(target))

    @property
    def cpu_dist(self):
        """The distribution under test, on the CPU."""
        return self.dist(**self.params, **self.options)

    @property
    def gpu_dist(self):
        """The distribution under test, its parameters sent to the GPU."""
        params = {k: _to_gpu(v) for k, v in self.params.items()}
        return self.dist(**params, **self.options)

    def _dist(self, is_gpu):
        return self.gpu_dist if is_gpu else self.cpu_dist

    @property
    def _batch_shape(self):
        return tuple(getattr(self, 'shape', ()))

    def scipy_onebyone_params_iter(self):
        """Yields the SciPy parameters of each batch element (a dict), the
        elements in C order."""
        for index in numpy.ndindex(*self._batch_shape):
            yield {k: numpy.asarray(v)[index]
                   for k, v in self.scipy_params.items()}

    def _scipy(self, name, points=None, onebyone=None):
        """SciPy's method ``name`` (at ``points``, of shape
        ``sample_shape + batch_shape + event_shape``)."""
        f = getattr(self.scipy_dist, name)
        if onebyone is None:
            onebyone = self.scipy_onebyone
        if not onebyone:
            if points is None:
                return numpy.asarray(f(**self.scipy_params))
            return numpy.asarray(f(points, **self.scipy_params))
        batch = self._batch_shape
        lead = 0 if points is None else (
            points.ndim - len(batch) - len(self.event_shape))
        results = []
        for index, params in zip(numpy.ndindex(*batch),
                                 self.scipy_onebyone_params_iter()):
            if points is None:
                results.append(numpy.asarray(f(**params)))
            else:
                key = (slice(None),) * lead + index
                results.append(numpy.asarray(f(points[key], **params)))
        return _stack_batch(results, lead, batch)

    def _compare(self, actual, expected, **tol):
        array_module.assert_allclose(_to_cpu(actual), expected, **tol)

    # --- shapes and support (no SciPy) --------------------------------------

    def _check_attribute(self, target, expected, is_gpu):
        self._skip_unless(target)
        self.assertEqual(getattr(self._dist(is_gpu), target), expected)

    def test_batch_shape_cpu(self):
        self._check_attribute('batch_shape', self._batch_shape, False)

    def test_batch_shape_gpu(self):
        _skip_without_cupy()
        self._check_attribute('batch_shape', self._batch_shape, True)

    def test_event_shape_cpu(self):
        self._check_attribute('event_shape', tuple(self.event_shape), False)

    def test_event_shape_gpu(self):
        _skip_without_cupy()
        self._check_attribute('event_shape', tuple(self.event_shape), True)

    def test_support_cpu(self):
        self._check_attribute('support', self.support, False)

    def test_support_gpu(self):
        _skip_without_cupy()
        self._check_attribute('support', self.support, True)

    # --- moments -------------------------------------------------------------

    def _check_property(self, target, scipy_name, is_gpu):
        self._skip_unless(target)
        actual = getattr(self._dist(is_gpu), target)
        self._compare(actual, self._scipy(scipy_name))

    def check_mean(self, is_gpu):
        self._check_property('mean', 'mean', is_gpu)

    def check_variance(self, is_gpu):
        self._check_property('variance', 'var', is_gpu)

    def check_stddev(self, is_gpu):
        self._check_property('stddev', 'std', is_gpu)

    def check_entropy(self, is_gpu):
        self._check_property('entropy', 'entropy', is_gpu)

    # --- functions of a point ------------------------------------------------

    def _check_function(self, target, method, scipy_name, is_gpu,
                        points=None, onebyone=None):
        self._skip_unless(target)
        if points is None:
            points = self.sample_for_test()
        x = _to_gpu(points) if is_gpu else points
        actual = getattr(self._dist(is_gpu), method)(x)
        self._compare(actual, self._scipy(scipy_name, points, onebyone))

    def check_log_prob(self, is_gpu):
        self._check_function('log_prob', 'log_prob',
                             'logpdf' if self.continuous else 'logpmf',
                             is_gpu)

    def check_prob(self, is_gpu):
        self._check_function('prob', 'prob',
                             'pdf' if self.continuous else 'pmf', is_gpu)

    def check_cdf(self, is_gpu):
        self._check_function('cdf', 'cdf', 'cdf', is_gpu)

    def check_log_cdf(self, is_gpu):
        self._check_function('log_cdf', 'log_cdf', 'logcdf', is_gpu)

    def check_survival(self, is_gpu):
        self._check_function('survival', 'survival_function', 'sf', is_gpu)

    def check_log_survival(self, is_gpu):
        self._check_function('log_survival', 'log_survival_function',
                             'logsf', is_gpu)

    def check_icdf(self, is_gpu):
        # Probabilities, not points: SciPy's ppf takes the whole batch.
        self._skip_unless('icdf')
        sample_shape = tuple(getattr(self, 'sample_shape', ()))
        p = numpy.random.uniform(
            0, 1, sample_shape + self._batch_shape).astype(numpy.float32)
        self._check_function('icdf', 'icdf', 'ppf', is_gpu, points=p,
                             onebyone=False)

    # --- sampling ------------------------------------------------------------

    def check_sample(self, is_gpu):
        self._skip_unless('sample')
        sample_shape = tuple(getattr(self, 'sample_shape', ()))
        smp1 = _to_cpu(self._dist(is_gpu).sample(
            sample_shape=(_N_SAMPLES,) + sample_shape))
        if self.scipy_onebyone:
            draws = [numpy.asarray(self.scipy_dist.rvs(
                size=(_N_SAMPLES,) + sample_shape, **params))
                for params in self.scipy_onebyone_params_iter()]
            smp2 = _stack_batch(draws, 1 + len(sample_shape),
                                self._batch_shape)
        else:
            smp2 = numpy.asarray(self.scipy_dist.rvs(
                size=(_N_SAMPLES,) + sample_shape + self._batch_shape,
                **self.scipy_params))
        array_module.assert_allclose(smp1.mean(axis=0), smp2.mean(axis=0),
                                     **_SAMPLE_TOL)
        array_module.assert_allclose(smp1.std(axis=0), smp2.std(axis=0),
                                     **_SAMPLE_TOL)


def _stack_batch(results, lead, batch):
    """Arranges per-element results (in C order over ``batch``), each of
    shape ``lead_shape + rest``, into ``lead_shape + batch + rest``."""
    first = results[0] if results else numpy.zeros(())
    out = numpy.empty(first.shape[:lead] + tuple(batch) + first.shape[lead:],
                      first.dtype)
    for index, r in zip(numpy.ndindex(*batch), results):
        out[(slice(None),) * lead + index] = r
    return out


def _add_tests():
    def make(target, is_gpu):
        def test(self):
            if is_gpu:
                _skip_without_cupy()
            getattr(self, 'check_' + target)(is_gpu)
        test.__name__ = 'test_{}_{}'.format(target, 'gpu' if is_gpu else 'cpu')
        return test

    for target in sorted(_TARGETS - {'batch_shape', 'event_shape',
                                     'support'}):
        for is_gpu in (False, True):
            test = make(target, is_gpu)
            setattr(distribution_unittest, test.__name__, test)


def _mark_gpu_tests():
    """Marks the ``_gpu`` tests ``gpu`` (skipped without CuPy), when the
    first test class is defined: importing chainer must not import pytest,
    which the marks need."""
    if _marked or not attr.is_available():
        return
    for target in _TARGETS:
        name = 'test_{}_gpu'.format(target)
        setattr(distribution_unittest, name,
                attr.gpu(getattr(distribution_unittest, name)))
    _marked.append(True)


_marked = []
_add_tests()
