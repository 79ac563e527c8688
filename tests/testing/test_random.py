import random
import unittest

import numpy

from chainer import testing


def _draw():
    return numpy.random.rand(3), random.random(), testing.generate_seed()


def test_fix_random_function_is_reproducible_and_restores_state():
    f = testing.fix_random()(_draw)
    numpy.random.seed(123)
    expected_next = numpy.random.rand()
    numpy.random.seed(123)
    a = f()
    b = f()
    numpy.testing.assert_array_equal(a[0], b[0])
    assert a[1] == b[1] and a[2] == b[2]
    # The global state is what it was before the call.
    assert numpy.random.rand() == expected_next


def test_generate_seed_range():
    seeds = {testing.generate_seed() for _ in range(20)}
    assert all(0 <= s < 2 ** 32 for s in seeds)
    assert len(seeds) > 1


def test_fix_random_class_fixes_each_test():
    values = []

    @testing.fix_random()
    class Case(unittest.TestCase):
        def setUp(self):
            self.x = numpy.random.rand()

        def test_a(self):
            values.append((self.x, numpy.random.rand()))

        def test_b(self):
            values.append((self.x, numpy.random.rand()))

    result = unittest.TestResult()
    Case('test_a').run(result)
    numpy.random.rand()  # disturb the global state in between
    Case('test_b').run(result)
    assert result.wasSuccessful()
    assert values[0] == values[1]


@testing.fix_random(setup_method='setup_method',
                    teardown_method='teardown_method')
class TestFixRandomPlain:

    def test_reproducible(self):
        x = numpy.random.rand()
        numpy.random.seed(testing.random._seed())
        assert x == numpy.random.rand()


def test_fix_random_seeds_numpy_with_100_as_chainer():
    numpy.random.seed(100)
    expected = numpy.random.rand()
    numpy.random.seed(5)
    assert testing.fix_random()(numpy.random.rand)() == expected


def test_fix_random_nondeterministic_env(monkeypatch):
    f = testing.fix_random()(lambda: numpy.random.rand(4))
    monkeypatch.setenv('CHAINER_TEST_RANDOM_NONDETERMINISTIC', '0')
    numpy.testing.assert_array_equal(f(), f())
    monkeypatch.setenv('CHAINER_TEST_RANDOM_NONDETERMINISTIC', '1')
    assert not numpy.array_equal(f(), f())
