"""Chainer's private collections module: on Python 3 its ``OrderedDict`` is
the standard one."""

from collections import OrderedDict  # NOQA
