import unittest

import pytest

from chainer.testing import condition


class _Counter:

    def __init__(self, outcomes):
        self.outcomes = list(outcomes)
        self.calls = 0

    def __call__(self, ins):
        ok = self.outcomes[self.calls]
        self.calls += 1
        assert ok, 'trial {} failed'.format(self.calls)


def test_retry_passes_once_one_trial_succeeds():
    f = _Counter([False, True, False])
    condition.retry(3)(f)(object())
    assert f.calls == 2


def test_retry_fails_when_all_trials_fail():
    f = _Counter([False, False])
    with pytest.raises(AssertionError) as info:
        condition.retry(2)(f)(object())
    msg = str(info.value)
    assert 'Fail: 2, Success: 0' in msg
    assert 'trial 1 failed' in msg
    assert f.calls == 2


def test_repeat_needs_every_trial():
    f = _Counter([True, True, True])
    condition.repeat(3)(f)(object())
    assert f.calls == 3
    g = _Counter([True, False, True])
    with pytest.raises(AssertionError, match='Fail: 1, Success: 1'):
        condition.repeat(3)(g)(object())
    assert g.calls == 2  # stops once success is out of reach


def test_repeat_with_success_at_least_stops_early():
    f = _Counter([False, True, True, True, True])
    condition.repeat_with_success_at_least(5, 2)(f)(object())
    assert f.calls == 3
    with pytest.raises(ValueError):
        condition.repeat_with_success_at_least(2, 3)


def test_unittest_case_gets_fresh_setup_per_trial():
    log = []

    class Case(unittest.TestCase):
        def setUp(self):
            log.append('setUp')
            self.value = len(log)

        def tearDown(self):
            log.append('tearDown')

        @condition.retry(3)
        def test_x(self):
            log.append('trial')
            assert log.count('trial') >= 2

    result = unittest.TestResult()
    Case('test_x').run(result)
    assert result.wasSuccessful(), result.failures
    # The outer run, then one fresh case per trial.
    assert log == ['setUp', 'setUp', 'trial', 'tearDown', 'setUp', 'trial',
                   'tearDown', 'tearDown']


def test_skip_propagates():
    class Case(unittest.TestCase):
        @condition.repeat(3)
        def test_x(self):
            self.skipTest('no')

    result = unittest.TestResult()
    Case('test_x').run(result)
    assert len(result.skipped) == 1


class TestRetryInPytest:
    attempts = 0

    @condition.retry(3)
    def test_flaky(self):
        TestRetryInPytest.attempts += 1
        assert TestRetryInPytest.attempts >= 2
