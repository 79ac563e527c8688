import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.functions.math import einsum as einsum_mod
from chainer.utils.type_check import InvalidType
from op_harness import check_op

TOL16 = {numpy.float16: dict(atol=2e-2, rtol=2e-2)}


@pytest.mark.parametrize('subscripts,shapes', [
    ('ij,jk->ik', [(2, 3), (3, 2)]),
    ('ij,jk', [(2, 3), (3, 2)]),          # implicit output
    ('ij->j', [(2, 3)]),                  # summed in one operand only
    ('ii->i', [(3, 3)]),                  # diagonal
    ('iij->ji', [(2, 2, 3)]),
    ('ij,ij->ij', [(2, 3), (2, 3)]),
    ('i,j->ij', [(2,), (3,)]),
    ('bij,bjk->bik', [(2, 2, 3), (2, 3, 2)]),
    ('...j,jk->...k', [(2, 2, 3), (3, 2)]),
    ('ij,jk,kl->il', [(2, 3), (3, 2), (2, 2)]),
    ('ij,j->i', [(2, 3), (3,)]),
    ('ji', [(2, 3)]),
])
def test_einsum(subscripts, shapes):
    check_op(lambda *xs: F.einsum(subscripts, *xs),
             lambda rng, dt: tuple(rng.randn(*s).astype(dt)
                                   for s in shapes),
             lambda *xs: numpy.einsum(subscripts, *xs),
             fwd_tol=TOL16, bwd_tol=TOL16)


def test_einsum_scalar_outputs():
    a = chainer.Variable(numpy.arange(9, dtype=numpy.float32).reshape(3, 3))
    y = F.einsum('ii', a)
    assert isinstance(y.creator, einsum_mod.EinSum)
    assert float(y.array) == 12
    y.backward()
    numpy.testing.assert_array_equal(a.grad, numpy.eye(3))
    v = numpy.arange(3, dtype=numpy.float32)
    assert float(F.einsum('i,i', v, v).array) == 5


def test_einsum_mixed_dtype_and_empty():
    a = numpy.ones((2, 3), numpy.float32)
    b = numpy.ones((3, 2), numpy.float64)
    assert F.einsum('ij,jk->ik', a, b).dtype == numpy.float64
    y = F.einsum('ij,jk->ik', numpy.ones((0, 3)), numpy.ones((3, 2)))
    assert y.shape == (0, 2)


def test_einsum_errors():
    a = numpy.ones((2, 3), numpy.float32)
    with pytest.raises(ValueError, match='Number of einsum subscripts'):
        F.einsum('ij,jk->ik', a)
    with pytest.raises(InvalidType, match='EinSum'):
        F.einsum('ij,jk->ik', a, a)
    with pytest.raises(InvalidType):
        F.einsum('ij,ij->ij', numpy.ones((1, 3), numpy.float32),
                 numpy.ones((2, 3), numpy.float32))
    with pytest.raises(ValueError):
        F.einsum('ijk->i', a)
    with pytest.raises(ValueError):
        F.einsum('ij->ik', a)
    with pytest.raises(ValueError):
        F.einsum('i1->i', a)
