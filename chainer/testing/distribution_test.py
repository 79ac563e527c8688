"""``distribution_unittest``: a base test case checking a
:class:`chainer.Distribution` against the matching ``scipy.stats``
distribution."""

import unittest

import numpy

import chainer
from chainer.testing import array as array_module

# Samples drawn by the sampling test, and its tolerance on the moments.
_N_SAMPLES = 100000
_SAMPLE_TOL = {'atol': 3e-2, 'rtol': 3e-2}


def _to_cpu(x):
    x = getattr(x, 'array', x)
    if x is None:
        return None
    return chainer.backend.CpuDevice().send(x)


class distribution_unittest(unittest.TestCase):
    """A base class for tests of distributions.

    A subclass (usually parameterized with ``shape``, ``is_variable`` and
    ``sample_shape``) defines ``setUp_configure(self)``, which sets:

    - ``self.dist``: the distribution class under test;
    - ``self.scipy_dist``: the ``scipy.stats`` distribution to compare
      with;
    - ``self.params`` / ``self.scipy_params``: the constructor arguments of
      both (``params`` are wrapped in Variables when ``self.is_variable``);
    - ``self.test_targets``: the names of the checks to run, among
      ``batch_shape``, ``event_shape``, ``mean``, ``variance``, ``stddev``,
      ``entropy``, ``log_prob``, ``prob``, ``cdf``, ``log_cdf``, ``icdf``,
      ``survival``, ``log_survival``, ``sample`` and ``support``;
    - optionally ``self.support`` (``'real'``), ``self.event_shape``
      (``()``), ``self.continuous`` (True: pdf, else pmf) and
      ``self.options`` (tolerances of the comparisons);

    and ``sample_for_test(self)``, points of shape ``sample_shape + shape +
    event_shape`` at which densities are compared. Set the class attribute
    ``scipy_onebyone`` when the SciPy distribution does not broadcast its
    parameters: it is then evaluated for each batch element separately.

    Each check has a ``_cpu`` and a ``_gpu`` test (the latter skipped
    without CuPy); checks not in ``test_targets`` are skipped.
    """

    scipy_onebyone = False
    # Not a test itself; its subclasses are (see FunctionTestCase).
    __test__ = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if '__test__' not in cls.__dict__:
            cls.__test__ = True

    def setUp(self):
        self.support = 'real'
        if not hasattr(self, 'event_shape'):
            self.event_shape = ()
        self.continuous = True
        self.test_targets = set()
        self.options = {}
        self.setUp_configure()
        targets_not_found = self.test_targets - _TARGETS
        if targets_not_found:
            raise ValueError('invalid test_targets: {}'.format(
                ', '.join(sorted(targets_not_found))))

    def setUp_configure(self):
        raise NotImplementedError('setUp_configure is not implemented')

    def _skip_unless(self, target):
        if target not in self.test_targets:
            raise unittest.SkipTest('{} is not in test_targets'.format(
                target))

    def _make_dist(self, is_gpu):
        params = self.params
        if is_gpu:
            from chainer.backends import cuda
            params = {k: cuda.to_gpu(v) for k, v in params.items()}
        if getattr(self, 'is_variable', False):
            params = {k: chainer.Variable(v) if v.dtype.kind == 'f' else v
                      for k, v in params.items()}
        return self.dist(**params)

    @property
    def cpu_dist(self):
        return self._make_dist(False)

    @property
    def gpu_dist(self):
        return self._make_dist(True)

    def _dist(self, is_gpu):
        return self.gpu_dist if is_gpu else self.cpu_dist

    def _to_device(self, x, is_gpu):
        if is_gpu:
            from chainer.backends import cuda
            return cuda.to_gpu(x)
        return x

    @property
    def _batch_shape(self):
        return tuple(getattr(self, 'shape', ()))

    def scipy_onebyone_params_iter(self):
        """Yields ``(batch index, scipy params of that element)``."""
        for index in numpy.ndindex(*self._batch_shape):
            yield index, {k: numpy.asarray(v)[index]
                          for k, v in self.scipy_params.items()}

    def _scipy(self, name, points=None):
        """The SciPy value of method ``name`` (at ``points`` of shape
        ``sample_shape + batch_shape + event_shape``)."""
        if not self.scipy_onebyone:
            f = getattr(self.scipy_dist, name)
            if points is None:
                return numpy.asarray(f(**self.scipy_params))
            return numpy.asarray(f(points, **self.scipy_params))
        batch = self._batch_shape
        n_event = len(self.event_shape)
        results = {}
        for index, params in self.scipy_onebyone_params_iter():
            f = getattr(self.scipy_dist, name)
            if points is None:
                results[index] = numpy.asarray(f(**params))
            else:
                lead = points.ndim - len(batch) - n_event
                key = (slice(None),) * lead + index
                results[index] = numpy.asarray(f(points[key], **params))
        first = next(iter(results.values()))
        if points is None:
            out = numpy.empty(batch + first.shape, first.dtype)
            for index, r in results.items():
                out[index] = r
            return out
        lead = points.ndim - len(batch) - n_event
        out = numpy.empty(first.shape[:lead] + batch + first.shape[lead:],
                          first.dtype)
        for index, r in results.items():
            out[(slice(None),) * lead + index] = r
        return out

    def _compare(self, actual, expected):
        array_module.assert_allclose(_to_cpu(actual), expected,
                                     **self.options)

    # --- shapes and support --------------------------------------------

    def _check_batch_shape(self, is_gpu):
        self._skip_unless('batch_shape')
        self.assertEqual(self._dist(is_gpu).batch_shape, self._batch_shape)

    def _check_event_shape(self, is_gpu):
        self._skip_unless('event_shape')
        self.assertEqual(self._dist(is_gpu).event_shape,
                         tuple(self.event_shape))

    def _check_support(self, is_gpu):
        self._skip_unless('support')
        self.assertEqual(self._dist(is_gpu).support, self.support)

    # --- moments ---------------------------------------------------------

    def _check_property(self, target, attribute, scipy_name, is_gpu):
        self._skip_unless(target)
        actual = getattr(self._dist(is_gpu), attribute)
        self._compare(actual, self._scipy(scipy_name))

    def check_mean(self, is_gpu):
        self._check_property('mean', 'mean', 'mean', is_gpu)

    def check_variance(self, is_gpu):
        self._check_property('variance', 'variance', 'var', is_gpu)

    def check_stddev(self, is_gpu):
        self._check_property('stddev', 'stddev', 'std', is_gpu)

    def check_entropy(self, is_gpu):
        self._check_property('entropy', 'entropy', 'entropy', is_gpu)

    # --- functions of a point --------------------------------------------

    def _check_function(self, target, method, scipy_name, is_gpu,
                        points=None):
        self._skip_unless(target)
        if points is None:
            points = self.sample_for_test()
        actual = getattr(self._dist(is_gpu), method)(
            self._to_device(points, is_gpu))
        self._compare(actual, self._scipy(scipy_name, points))

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
        sample_shape = tuple(getattr(self, 'sample_shape', ()))
        dtype = numpy.asarray(next(iter(self.params.values()))).dtype
        if dtype.kind != 'f':
            dtype = numpy.dtype(numpy.float32)
        p = numpy.random.uniform(
            0.05, 0.95, sample_shape + self._batch_shape).astype(dtype)
        self._check_function('icdf', 'icdf', 'ppf', is_gpu, points=p)

    # --- sampling --------------------------------------------------------

    def check_sample(self, is_gpu):
        self._skip_unless('sample')
        dist = self._dist(is_gpu)
        sample_shape = tuple(getattr(self, 'sample_shape', ()))
        smp = _to_cpu(dist.sample(sample_shape))
        self.assertEqual(
            smp.shape,
            sample_shape + self._batch_shape + tuple(self.event_shape))
        many = _to_cpu(dist.sample((_N_SAMPLES,))).astype(numpy.float64)
        mean = self._scipy('mean')
        std = self._scipy('std')
        array_module.assert_allclose(many.mean(axis=0), mean, **_SAMPLE_TOL)
        array_module.assert_allclose(many.std(axis=0), std, **_SAMPLE_TOL)


_TARGETS = {'batch_shape', 'event_shape', 'support', 'mean', 'variance',
            'stddev', 'entropy', 'log_prob', 'prob', 'cdf', 'log_cdf', 'icdf',
            'survival', 'log_survival', 'sample'}


def _add_tests():
    def make(checker, is_gpu):
        def test(self):
            if is_gpu:
                from chainer.backends import cuda
                if not cuda.available:
                    raise unittest.SkipTest('CuPy is not available')
            getattr(self, checker)(is_gpu)
        return test

    for target in sorted(_TARGETS):
        checker = 'check_' + target
        if not hasattr(distribution_unittest, checker):
            checker = '_check_' + target
        cpu = make(checker, False)
        gpu = make(checker, True)
        cpu.__name__ = 'test_{}_cpu'.format(target)
        gpu.__name__ = 'test_{}_gpu'.format(target)
        setattr(distribution_unittest, cpu.__name__, cpu)
        setattr(distribution_unittest, gpu.__name__, gpu)


_add_tests()
