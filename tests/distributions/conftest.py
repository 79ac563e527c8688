import os
import sys

import pytest

# Lets the test modules here import the shared checks (dist_cases.py).
sys.path.insert(0, os.path.dirname(__file__))


@pytest.fixture
def spec(request):
    """The test module: its data drive the shared checks of dist_cases."""
    return request.module
