"""Chainer's ChainerX backend module, by name: chainer-ng has no ChainerX
core (``chainerx.is_available()`` is False), so these are the
:mod:`chainer.backend` names that say so."""

from chainer.backend import ChainerxDevice, from_chx, to_chx  # NOQA
