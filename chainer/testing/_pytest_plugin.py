"""A pytest plugin registering the marks of :mod:`chainer.testing.attr`.

Load it with ``pytest -p chainer.testing._pytest_plugin`` (or list it in
``addopts``) so that ``@attr.gpu`` and friends raise no unknown-mark
warning.
"""

from chainer.testing import attr


def pytest_configure(config):
    registered = '\n'.join(config.getini('markers'))
    for name, doc in attr.MARKS.items():
        if name + ':' not in registered:
            config.addinivalue_line('markers', '{}: {}'.format(name, doc))
