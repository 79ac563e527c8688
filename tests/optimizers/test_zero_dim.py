"""Optimizers update 0-d parameters (AdaBound's clip and MSVAG's factor
are scalars there)."""

import numpy
import pytest

import chainer
from chainer import optimizers


@pytest.mark.parametrize('make', [
    lambda: optimizers.AdaBound(), lambda: optimizers.AMSBound(),
    lambda: optimizers.MSVAG(), lambda: optimizers.Adam()])
def test_zero_dim_parameter(make):
    link = chainer.Link()
    with link.init_scope():
        link.p = chainer.Parameter(numpy.array(1., numpy.float32))
    opt = make()
    opt.setup(link)
    for _ in range(3):
        link.cleargrads()
        link.p.grad = numpy.array(0.5, numpy.float32)
        opt.update()
    assert link.p.array.shape == () and link.p.array < 1
