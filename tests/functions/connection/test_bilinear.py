import re

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op, uniform

# F.bilinear of Chainer 7.8.1 on the inputs of test_matches_chainer.
CHAINER_OUT = [[3.808786, -1.063283], [7.93197, -6.967979]]


def ref(e1, e2, W, V1=None, V2=None, b=None):
    B = len(e1)
    e1 = e1.reshape(B, -1)
    e2 = e2.reshape(B, -1)
    y = numpy.einsum('ij,ik,jkl->il', e1, e2, W)
    if V1 is not None:
        y = y + e1 @ V1 + e2 @ V2 + b
    return y


def test_bilinear_plain():
    check_op(F.bilinear, lambda rng, dt: (
        uniform(rng, (2, 3), dt), uniform(rng, (2, 4), dt),
        uniform(rng, (3, 4, 2), dt)), ref)


def test_bilinear_full_and_nd_inputs():
    # e2 (2, 2, 2) is flattened to (2, 4); its gradient keeps the shape.
    check_op(F.bilinear, lambda rng, dt: (
        uniform(rng, (2, 3), dt), uniform(rng, (2, 2, 2), dt),
        uniform(rng, (3, 4, 2), dt), uniform(rng, (3, 2), dt),
        uniform(rng, (4, 2), dt), uniform(rng, (2,), dt)), ref)


def test_matches_chainer():
    rng = numpy.random.RandomState(0)
    args = [rng.randn(*s).astype(numpy.float32) for s in
            [(2, 3), (2, 2), (3, 2, 2), (3, 2), (2, 2), (2,)]]
    y = F.bilinear(*args)
    assert type(y.creator).__name__ == 'BilinearFunction'
    numpy.testing.assert_allclose(y.array, CHAINER_OUT, atol=1e-5)


def test_empty_batch():
    e1 = chainer.Variable(numpy.zeros((0, 3), numpy.float32))
    y = F.bilinear(e1, numpy.zeros((0, 4), numpy.float32),
                   numpy.ones((3, 4, 5), numpy.float32))
    assert y.shape == (0, 5)
    F.sum(y).backward()
    assert e1.grad.shape == (0, 3)


def test_errors():
    f = numpy.float32
    e1, e2 = numpy.ones((2, 3), f), numpy.ones((2, 4), f)
    W, V1, V2, b = (numpy.ones(s, f) for s in [(3, 4, 5), (3, 5), (4, 5),
                                               (5,)])
    with pytest.raises(ValueError, match='must be None'):
        F.bilinear(e1, e2, W, V1)
    with pytest.raises(InvalidType, match=re.escape(
            "Expect: in_types[1].dtype == <class 'numpy.float32'>\n"
            "Actual: float64 != <class 'numpy.float32'>")):
        F.bilinear(e1, e2.astype(numpy.float64), W)
    with pytest.raises(InvalidType, match='dtype.kind == f'):
        F.bilinear(e1.astype(numpy.int32), e2, W)
    with pytest.raises(InvalidType, match=re.escape(
            'Expect: in_types[0].shape[0] == in_types[1].shape[0]\n'
            'Actual: 1 != 2')):
        F.bilinear(e1[:1], e2, W)
    with pytest.raises(InvalidType, match=re.escape(
            'Expect: prod(in_types[0].shape[1:]) == in_types[2].shape[0]\n'
            'Actual: 3 != 2')):
        F.bilinear(e1, e2, W[:2])
    with pytest.raises(InvalidType, match=re.escape(
            'Expect: in_types[2].ndim == 3\nActual: 2 != 3')):
        F.bilinear(e1, e2, W[0])
    with pytest.raises(InvalidType, match=re.escape(
            'Expect: in_types[0].ndim >= 2\nActual: 1 < 2')):
        F.bilinear(e1[0], e2, W)
    with pytest.raises(InvalidType, match=re.escape(
            'Expect: in_types[5].shape[0] == in_types[2].shape[2]\n'
            'Actual: 2 != 5')):
        F.bilinear(e1, e2, W, V1, V2, b[:2])
    with pytest.raises(InvalidType, match=re.escape(
            'Expect: in_types[3].shape[0] == in_types[2].shape[0]\n'
            'Actual: 2 != 3')):
        F.bilinear(e1, e2, W, V1[:2], V2, b)


def test_mixed_dtypes_without_type_check():
    # as Chainer: float32 only is a type check; with it off the product
    # e1 W e2 promotes, V1, V2 and b add in its dtype
    rng = numpy.random.RandomState(5)
    e1, e2 = rng.randn(3, 2), rng.randn(3, 3)
    W, V1, V2, b = rng.randn(2, 3, 4), rng.randn(2, 4), rng.randn(3, 4), \
        rng.randn(4)
    expect = numpy.einsum('ij,ik,jkl->il', e1, e2, W) + e1.dot(V1) + \
        e2.dot(V2) + b
    f32 = [a.astype(numpy.float32) for a in (e1, e2, W, V1, V2, b)]
    with pytest.raises(InvalidType, match=r'in_types\[2\].dtype == '):
        F.bilinear(f32[0], f32[1], W, *f32[3:])
    with chainer.using_config('type_check', False):
        y = F.bilinear(f32[0], f32[1], W, *f32[3:])
        z = F.bilinear(*f32[:3], V1, f32[4], b)
        w = F.bilinear(e1, e2, f32[2].astype(numpy.float16))
    assert y.dtype == numpy.float64 and z.dtype == numpy.float32
    assert w.dtype == numpy.float64
    numpy.testing.assert_allclose(y.array, expect, rtol=1e-5)
    numpy.testing.assert_allclose(z.array, expect, rtol=1e-5)
