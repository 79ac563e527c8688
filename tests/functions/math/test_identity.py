import numpy

import chainer
import chainer.functions as F
from chainer.functions.math import identity as identity_mod
from op_harness import check_op


def test_identity_one():
    check_op(F.identity, lambda rng, dt: (rng.randn(2, 3).astype(dt),),
             lambda x: x)


def test_identity_many():
    check_op(lambda a, b: F.identity(a, b),
             lambda rng, dt: (rng.randn(2).astype(dt),
                              rng.randn(3, 1).astype(dt)),
             lambda a, b: (a, b))


def test_identity_is_a_graph_node():
    x = chainer.Variable(numpy.ones((0, 2), numpy.float32))
    y = F.identity(x)
    assert y is not x
    assert isinstance(y.creator, identity_mod.Identity)
    assert y.shape == (0, 2)
    a, b = F.identity(x, x)
    assert a.creator is b.creator
