import os
import sys

import numpy
import pytest

# Lets test modules import the shared harness (tests/op_harness.py).
sys.path.insert(0, os.path.dirname(__file__))


@pytest.fixture(autouse=True)
def _fixed_seed():
    numpy.random.seed(0)
    yield
