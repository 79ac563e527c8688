"""``chainer.testing``: helpers for testing Chainer code (and code built on
Chainer): parameterized test classes, backend injection, declarative
function and link test cases, reproducible randomness, flaky-test retries
and more."""

from chainer.testing import _bundle  # NOQA
from chainer.testing import array  # NOQA
from chainer.testing import attr  # NOQA
from chainer.testing import backend  # NOQA
from chainer.testing import condition  # NOQA
from chainer.testing import distribution_test  # NOQA
from chainer.testing import function_link  # NOQA
from chainer.testing import helper  # NOQA
from chainer.testing import matrix  # NOQA
from chainer.testing import parameterized  # NOQA
from chainer.testing import random  # NOQA
from chainer.testing import serializer  # NOQA
from chainer.testing import training  # NOQA
from chainer.testing import unary_math_function_test  # NOQA

from chainer.testing.array import assert_allclose  # NOQA
from chainer.testing.backend import BackendConfig  # NOQA
from chainer.testing.backend import inject_backend_tests  # NOQA
from chainer.testing.distribution_test import distribution_unittest  # NOQA
from chainer.testing.function_link import FunctionTestCase  # NOQA
from chainer.testing.function_link import FunctionTestError  # NOQA
from chainer.testing.function_link import InitializerArgument  # NOQA
from chainer.testing.function_link import LinkInitializersTestCase  # NOQA
from chainer.testing.function_link import LinkTestCase  # NOQA
from chainer.testing.function_link import LinkTestError  # NOQA
from chainer.testing.helper import assert_warns  # NOQA
from chainer.testing.helper import patch  # NOQA
from chainer.testing.helper import run_module  # NOQA
from chainer.testing.helper import with_requires  # NOQA
from chainer.testing.helper import without_requires  # NOQA
from chainer.testing.matrix import generate_matrix  # NOQA
from chainer.testing.parameterized import from_pytest_parameterize  # NOQA
from chainer.testing.parameterized import parameterize  # NOQA
from chainer.testing.parameterized import parameterize_pytest  # NOQA
from chainer.testing.parameterized import product  # NOQA
from chainer.testing.parameterized import product_dict  # NOQA
from chainer.testing.random import fix_random  # NOQA
from chainer.testing.random import generate_seed  # NOQA
from chainer.testing.serializer import save_and_load  # NOQA
from chainer.testing.serializer import save_and_load_hdf5  # NOQA
from chainer.testing.serializer import save_and_load_npz  # NOQA
from chainer.testing.training import get_trainer_with_mock_updater  # NOQA
from chainer.testing.unary_math_function_test import unary_math_function_unittest  # NOQA
