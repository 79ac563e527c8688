import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing

stats = pytest.importorskip('scipy.stats')


class _Normal:
    """A minimal normal distribution, enough for the harness."""

    def __init__(self, loc, scale):
        self.loc = chainer.as_variable(loc)
        self.scale = chainer.as_variable(scale)

    batch_shape = property(lambda self: self.loc.shape)
    event_shape = property(lambda self: ())
    support = 'real'
    mean = property(lambda self: self.loc)
    stddev = property(lambda self: self.scale)
    variance = property(lambda self: self.scale ** 2)

    @property
    def entropy(self):
        return 0.5 + 0.5 * numpy.log(2 * numpy.pi) + F.log(self.scale)

    def log_prob(self, x):
        z = (x - self.loc) / self.scale
        return -0.5 * z ** 2 - F.log(self.scale) - \
            0.5 * numpy.log(2 * numpy.pi)

    def prob(self, x):
        return F.exp(self.log_prob(x))

    def cdf(self, x):
        return 0.5 * F.erfc(-(x - self.loc) / (self.scale * numpy.sqrt(2)))

    def sample(self, sample_shape=()):
        # drawn by the parameters' array module (cupy.random on the GPU)
        xp = chainer.backend.get_array_module(self.loc)
        eps = xp.random.standard_normal(
            tuple(sample_shape) + self.batch_shape).astype(self.loc.dtype)
        return self.loc + self.scale * eps


class _BrokenNormal(_Normal):
    mean = property(lambda self: self.loc + 0.5)


@testing.parameterize(*testing.product({
    'shape': [(2, 3), ()],
    'is_variable': [True, False],
    'sample_shape': [(3, 2)],
}))
@testing.fix_random()
class TestNormalHarness(testing.distribution_unittest):

    scipy_onebyone = True
    dist_class = _Normal

    def setUp_configure(self):
        self.dist = self.dist_class
        self.scipy_dist = stats.norm
        self.test_targets = {'batch_shape', 'event_shape', 'mean', 'stddev',
                             'variance', 'entropy', 'log_prob', 'prob',
                             'cdf', 'sample', 'support'}
        loc = numpy.asarray(numpy.random.uniform(-1, 1, self.shape),
                            numpy.float32)
        scale = numpy.asarray(
            numpy.exp(numpy.random.uniform(-1, 1, self.shape)), numpy.float32)
        self.params = {'loc': loc, 'scale': scale}
        self.scipy_params = {'loc': loc, 'scale': scale}

    def sample_for_test(self):
        return numpy.random.normal(
            size=self.sample_shape + self.shape).astype(numpy.float32)


def _case(cls, name):
    case = cls(name)
    case.setUp()
    return case


def test_harness_catches_a_wrong_mean():
    class Broken(testing.distribution_unittest):
        def setUp_configure(self):
            self.shape = (3,)
            self.dist = _BrokenNormal
            self.scipy_dist = stats.norm
            self.test_targets = {'mean', 'log_prob'}
            loc = numpy.zeros(3, numpy.float32)
            scale = numpy.ones(3, numpy.float32)
            self.params = {'loc': loc, 'scale': scale}
            self.scipy_params = {'loc': loc, 'scale': scale}

        def sample_for_test(self):
            return numpy.zeros((2, 3), numpy.float32)

    case = _case(Broken, 'test_mean_cpu')
    with pytest.raises(AssertionError):
        case.test_mean_cpu()
    _case(Broken, 'test_log_prob_cpu').test_log_prob_cpu()
    with pytest.raises(Exception) as info:
        _case(Broken, 'test_cdf_cpu').test_cdf_cpu()
    assert str(info.value) == "'cdf' does not exist in test_targets."


def test_invalid_target_is_rejected():
    class Bad(testing.distribution_unittest):
        def setUp_configure(self):
            self.test_targets = {'median'}

    with pytest.raises(ValueError, match='median'):
        _case(Bad, 'test_mean_cpu')


class _Recorder:
    """A distribution that records its constructor arguments."""

    calls = []

    def __init__(self, **kwargs):
        _Recorder.calls.append(kwargs)
        self.loc = kwargs['loc']

    batch_shape = property(lambda self: self.loc.shape)

    @property
    def mean(self):
        return self.loc


def test_options_go_to_the_distribution_and_params_become_variables():
    class Case(testing.distribution_unittest):
        is_variable = True
        shape = (2,)

        def setUp_configure(self):
            self.dist = _Recorder
            self.scipy_dist = stats.norm
            self.test_targets = {'mean', 'batch_shape'}
            loc = numpy.array([0.5, -1.], numpy.float32)
            self.params = {'loc': loc}
            self.scipy_params = {'loc': loc}
            self.options = {'binary_check': True}

    _Recorder.calls = []
    case = _case(Case, 'test_mean_cpu')
    assert isinstance(case.params['loc'], chainer.Variable)
    case.test_mean_cpu()
    case.test_batch_shape_cpu()
    kwargs = _Recorder.calls[0]
    assert sorted(kwargs) == ['binary_check', 'loc']
    assert kwargs['binary_check'] is True
    assert isinstance(kwargs['loc'], chainer.Variable)


def test_onebyone_params_iter_yields_dicts_in_c_order():
    class Case(testing.distribution_unittest):
        shape = (2, 3)

        def setUp_configure(self):
            p = numpy.arange(6.).reshape(2, 3)
            self.dist = _Recorder
            self.scipy_dist = stats.norm
            self.params = {'loc': p}
            self.scipy_params = {'loc': p, 'scale': p + 1}

    case = _case(Case, 'test_mean_cpu')
    params = list(case.scipy_onebyone_params_iter())
    assert [float(d['loc']) for d in params] == [0, 1, 2, 3, 4, 5]
    assert [float(d['scale']) for d in params] == [1, 2, 3, 4, 5, 6]


def test_gpu_tests_are_marked_gpu():
    for name in ('test_mean_gpu', 'test_sample_gpu', 'test_batch_shape_gpu',
                 'test_support_gpu', 'test_event_shape_gpu'):
        method = getattr(TestNormalHarness.cases[0], name)
        assert 'gpu' in [m.name for m in method.pytestmark], name
    cpu = TestNormalHarness.cases[0].test_mean_cpu
    assert 'gpu' not in [m.name for m in getattr(cpu, 'pytestmark', [])]


def test_sample_check_catches_a_wrong_spread():
    class Wide(_Normal):
        def sample(self, sample_shape=()):
            return super().sample(sample_shape) * 1.5

    class Case(testing.distribution_unittest):
        shape = (3,)
        sample_shape = (2,)
        dist_class = Wide

        def setUp_configure(self):
            self.dist = self.dist_class
            self.scipy_dist = stats.norm
            self.test_targets = {'sample'}
            loc = numpy.zeros(3, numpy.float32)
            scale = numpy.ones(3, numpy.float32)
            self.params = {'loc': loc, 'scale': scale}
            self.scipy_params = {'loc': loc, 'scale': scale}

    with pytest.raises(AssertionError):
        _case(Case, 'test_sample_cpu').test_sample_cpu()
    Case.dist_class = _Normal
    _case(Case, 'test_sample_cpu').test_sample_cpu()
