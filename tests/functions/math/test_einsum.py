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


def _interleave(xs, labels):
    """einsum's sublist form: each operand followed by its labels, then the
    output's labels when given."""
    operands = []
    for x, sub in zip(xs, labels):
        operands += [x, sub]
    return operands + labels[len(xs):]


@pytest.mark.parametrize('labels,shapes', [
    ([[0, 1], [1, 2], [0, 2]], [(2, 3), (3, 2)]),
    ([[0, 1], [1, 2]], [(2, 3), (3, 2)]),       # implicit output
    ([[27, 0]], [(2, 3)]),                      # 27 sorts after 0
    ([[Ellipsis, 1], [1, 2], [Ellipsis, 2]], [(2, 2, 3), (3, 2)]),
])
def test_einsum_sublist_form(labels, shapes):
    check_op(lambda *xs: F.einsum(*_interleave(xs, labels)),
             lambda rng, dt: tuple(rng.randn(*s).astype(dt) for s in shapes),
             lambda *xs: numpy.einsum(*_interleave(xs, labels)),
             fwd_tol=TOL16, bwd_tol=TOL16)


def test_einsum_ellipsis_rules():
    a = numpy.ones((2, 3), numpy.float32)
    # summing the ellipsis away, or making one up: refused, as in Chainer
    with pytest.raises(ValueError, match='ellipsis'):
        F.einsum('...i->', a)
    with pytest.raises(ValueError, match='ellipsis'):
        F.einsum('i,i->...', a[0], a[0])
    # ellipses of different lengths are not broadcast
    with pytest.raises(InvalidType, match='EinSum'):
        F.einsum('...i,...i', numpy.ones(2, numpy.float32),
                 numpy.ones((1, 2), numpy.float32))
    # Chainer's form of the subscripts: one comma-joined string
    y = einsum_mod.EinSum('ij,jk', 'ik').apply((a, a.T))[0]
    numpy.testing.assert_array_equal(y.array, numpy.full((2, 2), 3))


@pytest.mark.parametrize('in_subs,out_sub,in_shapes,out_shape', [
    ('i', 'ij', [(3,)], (3, 4)),        # broadcast along a new letter
    ('', 'i', [()], (3,)),
    (',i', 'ij', [(), (2,)], (2, 3)),
    (',ij', 'i', [(), (3, 4)], (3,)),
    ('i', 'ii', [(3,)], (3, 3)),        # written on the diagonal
])
def test_diag_einsum(in_subs, out_sub, in_shapes, out_shape):
    def reference(*xs):
        y = numpy.zeros(out_shape)
        letters = ''.join(dict.fromkeys(out_sub))
        core = numpy.einsum(in_subs + '->' + ''.join(
            c for c in letters if c in in_subs), *xs)
        for index in numpy.ndindex(*out_shape):
            pos = dict(zip(out_sub, index))
            if any(pos[c] != i for c, i in zip(out_sub, index)):
                continue
            y[index] = core[tuple(pos[c] for c in letters if c in in_subs)]
        return y

    check_op(lambda *xs: einsum_mod.DiagEinSum(in_subs, out_sub,
                                               out_shape).apply(xs)[0],
             lambda rng, dt: tuple(numpy.asarray(rng.randn(*s), dt)
                                   for s in in_shapes),
             reference, fwd_tol=TOL16, bwd_tol=TOL16)
