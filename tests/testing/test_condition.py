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


def test_bad_arguments_raise_assertion_error_as_chainer():
    with pytest.raises(AssertionError, match='min_success'):
        condition.repeat_with_success_at_least(2, 3)
    with pytest.raises(AssertionError):
        condition.repeat_with_success_at_least(-1, 0)
    with pytest.raises(AssertionError):
        condition.retry(0)
    # accepted, as in Chainer
    condition.repeat_with_success_at_least(10, -1)
    condition.repeat(0)


def test_zero_successes_needed_runs_nothing():
    f = _Counter([])
    condition.repeat_with_success_at_least(3, 0)(f)(object())
    assert f.calls == 0


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


def test_pytest_skip_becomes_unittest_skip_after_one_trial():
    calls = []

    def f(ins):
        calls.append(1)
        pytest.skip('reason given')

    with pytest.raises(unittest.SkipTest, match='reason given'):
        condition.repeat(5)(f)(object())
    assert calls == [1]


def test_unittest_skip_after_one_trial():
    calls = []

    def f(ins):
        calls.append(1)
        raise unittest.SkipTest('why')

    with pytest.raises(unittest.SkipTest, match='why'):
        condition.retry(5)(f)(object())
    assert calls == [1]


def test_keyboard_interrupt_is_not_a_failed_trial():
    calls = []

    def f(ins):
        calls.append(1)
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        condition.retry(5)(f)(object())
    assert calls == [1]


def test_errors_count_as_failed_trials():
    calls = []

    def f(ins):
        calls.append(1)
        raise ValueError('broken {}'.format(len(calls)))

    with pytest.raises(AssertionError) as info:
        condition.retry(3)(f)(object())
    assert calls == [1, 1, 1]
    assert 'first error message:' in str(info.value)
    assert 'ValueError: broken 1' in str(info.value)


class TestRetryInPytest:
    attempts = 0

    @condition.retry(3)
    def test_flaky(self):
        TestRetryInPytest.attempts += 1
        assert TestRetryInPytest.attempts >= 2
