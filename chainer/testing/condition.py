"""Repeated trials of flaky (random) tests: ``repeat``, ``retry`` and
``repeat_with_success_at_least``."""

import functools
import traceback
import unittest

from chainer.testing import _bundle


def _run_trial(f, ins, args, kwargs):
    """One trial. A unittest case runs on a fresh instance, with its own
    ``setUp`` and ``tearDown``; other objects run the method as is."""
    if isinstance(ins, unittest.TestCase):
        case = type(ins)(ins._testMethodName)
        case.setUp()
        try:
            f(case, *args, **kwargs)
        finally:
            case.tearDown()
    else:
        f(ins, *args, **kwargs)


def repeat_with_success_at_least(times, min_success):
    """Runs a test up to ``times`` times; it passes once it has succeeded
    ``min_success`` times (the remaining trials are skipped), and fails as
    soon as that cannot happen any more.

    A trial that skips (``self.skipTest``, :class:`unittest.SkipTest` or
    ``pytest.skip``) skips the test at once, with
    :class:`unittest.SkipTest`.

    Args:
        times (int): The number of trials.
        min_success (int): The number of successes needed.

    Raises:
        AssertionError: If ``min_success`` is greater than ``times`` (as in
            Chainer).
    """
    if min_success > times:
        raise AssertionError(
            'repeat_with_success_at_least: min_success ({}) must not be '
            'greater than times ({})'.format(min_success, times))

    def decorator(f):
        @functools.wraps(f)
        def wrapper(ins, *args, **kwargs):
            success = 0
            failures = []
            for i in range(times):
                if success >= min_success:
                    break
                if (times - i) + success < min_success:
                    break
                try:
                    _run_trial(f, ins, args, kwargs)
                except BaseException as e:
                    if type(e).__name__ == 'Skipped':  # pytest.skip
                        raise unittest.SkipTest(
                            getattr(e, 'msg', None) or str(e)) from None
                    if _bundle._is_skip(e) or not isinstance(e, Exception):
                        raise
                    failures.append(traceback.format_exc())
                else:
                    success += 1
            if success < min_success:
                raise AssertionError(
                    '\nFail: {}, Success: {}\n\nThe first error message:\n'
                    '{}'.format(len(failures), success, failures[0]))
        return wrapper

    return decorator


def repeat(times):
    """Runs a test ``times`` times; it passes only if every trial
    succeeds."""
    return repeat_with_success_at_least(times, times)


def retry(times):
    """Runs a test up to ``times`` times; it passes if one trial
    succeeds."""
    return repeat_with_success_at_least(times, 1)
