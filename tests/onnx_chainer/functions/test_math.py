import numpy
import pytest

import chainer
import chainer.functions as F
from onnx_harness import LATEST, Fn, check, rand

pytestmark = pytest.mark.filterwarnings('ignore:batch_matmul is deprecated')


def pos(*shape):
    return numpy.random.uniform(0.2, 2.0, shape).astype(numpy.float32)


def unit(*shape):
    return numpy.random.uniform(-0.9, 0.9, shape).astype(numpy.float32)


A = (2, 3)
# name: (function, inputs, first opset)
UNARY = {
    'neg': (lambda x: -x, rand, 7),
    'absolute': (lambda x: abs(x), rand, 7),
    'exp': (F.exp, rand, 7),
    'log': (F.log, pos, 7),
    'log2': (F.log2, pos, 7),
    'log10': (F.log10, pos, 7),
    'log1p': (F.log1p, pos, 7),
    'expm1': (F.expm1, rand, 7),
    'sqrt': (F.sqrt, pos, 7),
    'rsqrt': (F.rsqrt, pos, 7),
    'square': (F.square, rand, 7),
    'sin': (F.sin, rand, 7),
    'cos': (F.cos, rand, 7),
    'tan': (F.tan, unit, 7),
    'arcsin': (F.arcsin, unit, 7),
    'arccos': (F.arccos, unit, 7),
    'arctan': (F.arctan, rand, 7),
    'sinh': (F.sinh, rand, 9),
    'cosh': (F.cosh, rand, 9),
    'arctanh': (F.arctanh, unit, 9),
    'erf': (F.erf, rand, 9),
    'erfc': (F.erfc, rand, 9),
    'identity': (F.identity, rand, 7),
    'clip': (lambda x: F.clip(x, -0.5, 0.7), rand, 7),
    'add_constant': (lambda x: x + 1.5, rand, 7),
    'add_array': (lambda x: x + numpy.arange(4, dtype='f'), rand, 7),
    'sub_constant': (lambda x: x - 2, rand, 7),
    'sub_from_constant': (lambda x: 1 - x, rand, 7),
    'mul_constant': (lambda x: x * 2.5, rand, 7),
    'div_constant': (lambda x: x / 4, rand, 7),
    'div_from_constant': (lambda x: 2 / x, pos, 7),
    'pow_var_const': (lambda x: x ** 2.3, pos, 7),
    'pow_const_var': (lambda x: 2.3 ** x, rand, 7),
    'sum': (F.sum, rand, 7),
    'sum_axis': (lambda x: F.sum(x, axis=1), rand, 7),
    'sum_keepdims': (lambda x: F.sum(x, axis=(0, 2), keepdims=True), rand,
                     7),
    'mean': (lambda x: F.mean(x, axis=-1), rand, 7),
    'average': (lambda x: F.average(x, axis=0, keepdims=True), rand, 7),
    'max': (F.max, rand, 7),
    'max_axis': (lambda x: F.max(x, axis=0), rand, 7),
    'min_keepdims': (lambda x: F.min(x, axis=1, keepdims=True), rand, 7),
    'prod': (lambda x: F.prod(x, axis=1), rand, 7),
    'logsumexp': (F.logsumexp, rand, 7),
    'logsumexp_axis': (lambda x: F.logsumexp(x, axis=2), rand, 7),
    'argmax': (F.argmax, rand, 7),
    'argmax_axis': (lambda x: F.argmax(x, axis=1), rand, 7),
    'argmin_axis': (lambda x: F.argmin(x, axis=-1), rand, 7),
    'sum_to': (lambda x: F.sum_to(x, (3, 1)), rand, 7),
    'cumsum': (lambda x: F.cumsum(x, axis=1), rand, 11),
    'cumsum_flat': (lambda x: F.cumsum(x), rand, 11),
}


@pytest.mark.parametrize('name', sorted(UNARY))
def test_unary(name):
    fn, make, since = UNARY[name]
    check(Fn(fn), make(2, 3, 4), since=since)


BINARY = {
    'add': (lambda a, b: a + b, [A, A], 7),
    'add_broadcast': (lambda a, b: a + b, [(2, 3), (3,)], 7),
    'sub': (lambda a, b: a - b, [A, A], 7),
    'mul': (lambda a, b: a * b, [A, A], 7),
    'div': (lambda a, b: a / b, [A, 'pos'], 7),
    'pow': (lambda a, b: a ** b, ['pos', A], 7),
    'multi_add': (lambda a, b: F.add(a, b, a), [A, A], 7),
    'maximum': (F.maximum, [A, A], 7),
    'minimum': (F.minimum, [A, A], 7),
    'fmod': (F.fmod, [A, 'pos'], 10),
    'scalar_add': (lambda a, b: a + b, [(), ()], 7),
    'matmul': (F.matmul, [(2, 3), (3, 4)], 7),
    'matmul_transa': (lambda a, b: F.matmul(a, b, transa=True),
                      [(3, 2), (3, 4)], 7),
    'matmul_transb': (lambda a, b: F.matmul(a, b, transb=True),
                      [(2, 3), (4, 3)], 7),
    'matmul_batch': (lambda a, b: F.matmul(a, b, transa=True, transb=True),
                     [(5, 3, 2), (5, 4, 3)], 7),
    'matmul_vector': (lambda a, b: F.matmul(a, b, transa=True), [(3,), (3,)],
                      7),
    'batch_matmul': (lambda a, b: F.batch_matmul(a, b, transb=True),
                     [(2, 3, 4), (2, 5, 4)], 7),
    'batch_matmul_2d': (lambda a, b: F.batch_matmul(a, b, transa=True),
                        [(2, 3), (2, 3)], 7),
    'linear_interpolate': (F.linear_interpolate, [A, A, A], 7),
    'squared_error': (F.squared_error, [A, A], 7),
    'absolute_error': (F.absolute_error, [A, A], 7),
}


@pytest.mark.parametrize('name', sorted(BINARY))
def test_nary(name):
    fn, shapes, since = BINARY[name]
    xs = tuple(pos(*A) if s == 'pos' else rand(*s) for s in shapes)
    check(Fn(fn), xs, since=since)


def test_maximum_broadcast():
    # Broadcasting Max needs opset 8.
    check(Fn(lambda a, b: a * 1 + F.broadcast_to(b, (2, 3))),
          (rand(2, 3), rand(3)), opsets=(7,))
    check(Fn(F.maximum), (rand(2, 3), rand(2, 3)), opsets=(7, 8))


def test_constant_of_int_input():
    check(Fn(lambda x: x * 2 + 1), numpy.arange(6, dtype=numpy.int32))


def test_no_creator_output():
    # F.sign is not differentiable: its output is a constant of the graph.
    x = rand(2, 3)
    onnx_model = check(Fn(F.sign), x)
    assert [n.op_type for n in onnx_model.graph.node] == ['Constant']


def test_reductions_opset_forms():
    # ReduceSum takes its axes as an input from opset 13, the others from 18.
    x = chainer.Variable(rand(2, 3))
    for opset in (12, 13, 17, 18):
        m = check(Fn(lambda a: F.sum(a, axis=1) + F.max(a, axis=1)), x,
                  opsets=(opset,))
        forms = {n.op_type: len(n.input) for n in m.graph.node
                 if n.op_type.startswith('Reduce')}
        assert forms == {'ReduceSum': 1 + (opset >= 13),
                         'ReduceMax': 1 + (opset >= 18)}


def test_arctan2():
    y, x = rand(4, 5), rand(4, 5)
    # The axes and the origin (unsigned zeros), each quadrant.
    y[0, :3], x[0, :3] = [1., -1., 0.], 0.
    y[1, :2], x[1, :2] = 0., [2., -2.]
    check(Fn(F.arctan2), (y, x), opsets=(9, LATEST), since=9)
    check(Fn(F.arctan2), (rand(3, 1), rand(4)), opsets=(LATEST,), since=9)


@pytest.mark.parametrize('shape,axis', [
    ((3, 4), 1), ((2, 5, 3), -2), ((2, 3), None), ((4,), 0), ((1, 3), 0)])
def test_cumprod(shape, axis):
    x = rand(*shape)
    x.ravel()[1] = 0.  # a zero and negatives (which logs could not take)
    check(Fn(lambda x: F.cumprod(x, axis)), x, opsets=(7, 11, 13, LATEST),
          rtol=0, atol=0)  # the same products in the same order


@pytest.mark.parametrize('a,b,axes', [
    ((3, 4, 5), (4, 5, 2), 2),
    ((3, 4, 5), (5, 3), ([0, 2], [1, 0])),
    ((2, 3), (3, 4), 1),
    ((2, 3), (4,), 0),
])
def test_tensordot(a, b, axes):
    check(Fn(lambda a, b: F.tensordot(a, b, axes)), (rand(*a), rand(*b)),
          opsets=(7, 13, LATEST))


@pytest.mark.parametrize('subscripts,shapes', [
    ('ij,jk->ik', ((2, 3), (3, 4))),
    ('bij,bjk->bik', ((2, 2, 3), (2, 3, 4))),
    ('ij->ji', ((2, 3),)),
    ('ii->i', ((3, 3),)),
    ('ij,j', ((2, 3), (3,))),
    ('i,j,k->ijk', ((2,), (3,), (2,))),
])
def test_einsum(subscripts, shapes):
    check(Fn(lambda *xs: F.einsum(subscripts, *xs)),
          tuple(rand(*s) for s in shapes), opsets=(12, LATEST), since=12)
