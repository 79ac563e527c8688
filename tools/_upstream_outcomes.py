"""pytest plugin of tools/run_upstream_tests.py.

- Appends ``nodeid<TAB>outcome`` for every test to the file named by
  $UPSTREAM_OUTCOMES (an error in set-up or tear-down counts as ``error``).
- Seeds NumPy's and Python's global generators before collection: some test
  ids hold arrays drawn at import time, and two runs should name them alike.
- Restores the few NumPy 1 names that the suite's own code uses and NumPy 2
  removed (``numpy.product``, ``numpy.complex_``, ``numpy.int``), so that
  its test files
  import as they do on the NumPy the reference run used. chainer-ng never
  uses them.
"""

import os
import random

import numpy

for _old, _new in (('product', 'prod'), ('cumproduct', 'cumprod'),
                   ('complex_', 'complex128'), ('float_', 'float64'),
                   ('alltrue', 'all'), ('sometrue', 'any')):
    if _old not in numpy.__dict__:
        setattr(numpy, _old, getattr(numpy, _new))
# The aliases of Python's own types that NumPy 1.24 removed (``numpy.int``).
for _old, _type in (('int', int), ('float', float), ('complex', complex),
                    ('object', object), ('str', str)):
    if _old not in numpy.__dict__:
        setattr(numpy, _old, _type)


def pytest_configure(config):
    numpy.random.seed(0)
    random.seed(0)


def _write(nodeid, outcome):
    with open(os.environ['UPSTREAM_OUTCOMES'], 'a') as f:
        # one line an id: some ids hold array reprs that span lines
        f.write('{}\t{}\n'.format(nodeid.replace('\n', '\\n'), outcome))


def pytest_runtest_logreport(report):
    if report.when == 'call':
        outcome = report.outcome
    elif report.failed:
        outcome = 'error'
    elif report.skipped:
        outcome = 'skipped'
    else:
        return
    _write(report.nodeid, outcome)


def pytest_collectreport(report):
    if report.failed:
        _write(report.nodeid + '::<collect>', 'error')
