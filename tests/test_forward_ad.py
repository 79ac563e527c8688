"""chainer.jvp: forward-mode derivatives against numerical directional
derivatives for every public function (the table of tests/bad_input_cases),
native rules against derived ones, jvp of jvp and of grad, and bad input."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import gradient_check

import bad_input_cases as cases

# Functions whose output is random or piecewise constant: a numerical
# derivative says nothing about them.
RANDOM = {'dropout', 'gaussian', 'gumbel_softmax', 'rrelu',
          'simplified_dropconnect', 'zoneout'}
PIECEWISE_CONSTANT = {'classification_summary', 'precision', 'f1_score'}
# Batch renormalization's correction factors r and d are constants to its
# gradient by design (as in the paper and Chainer), so its backward, and the
# jvp derived from it, are not the numerical derivative.
STOPPED_GRADIENT = {'batch_renormalization'}
# Their backward cannot be differentiated (as in Chainer): jvp says so.
NO_DOUBLE_BACKPROP = {
    'connectionist_temporal_classification', 'decorrelated_batch_normalization',
    'forget', 'softmax_cross_entropy', 'spatial_transformer_sampler'}
# Inputs that get no tangent: Chainer gives no gradient for them (regions,
# running statistics).
NO_TANGENT = {'roi_average_align_2d': (1,), 'roi_max_align_2d': (1,),
              'roi_average_pooling_2d': (1,), 'roi_max_pooling_2d': (1,),
              'roi_pooling_2d': (1,)}
# Weights in float32 inside the call: checked in float32.
FLOAT32 = {'gaussian_nll', 'n_step_bigru', 'n_step_bilstm', 'n_step_birnn',
           'n_step_gru', 'n_step_lstm', 'n_step_rnn'}
# The table's two operands are equal: move one off the tie.
SHIFTED = {'maximum': 1, 'minimum': 1, 'fmod': 1}


def _case(name):
    call, args, spec = cases.CASES[name]
    skip = set(spec['labels']) | set(spec['int_ok']) | set(
        NO_TANGENT.get(name, ()))
    args = list(args)
    if name in SHIFTED:
        args[SHIFTED[name]] = args[SHIFTED[name]] + 3.0
    dtype = numpy.float32 if name in FLOAT32 else numpy.float64
    floats = [i for i, a in enumerate(args)
              if isinstance(a, numpy.ndarray) and a.dtype.kind == 'f']
    for i in floats:
        args[i] = args[i].astype(dtype)
    idx = [i for i in floats if i not in skip]
    rs = numpy.random.RandomState(1)
    xs = [args[i].astype(dtype) for i in idx]
    ts = [rs.uniform(-1, 1, args[i].shape).astype(dtype) for i in idx]
    if name == 'cholesky':  # only the lower triangle is read
        ts = [(t + t.T) / 2 for t in ts]

    def f(*vs):
        full = list(args)
        for i, v in zip(idx, vs):
            full[i] = v
        out = call(*full)
        if isinstance(out, (list, tuple)):
            out = tuple(o for o in out if isinstance(o, chainer.Variable))
        return out
    return f, xs, ts, dtype


@pytest.mark.parametrize('name', sorted(
    set(cases.CASES) - RANDOM - PIECEWISE_CONSTANT - NO_DOUBLE_BACKPROP -
    STOPPED_GRADIENT))
def test_jvp_of_every_function(name):
    f, xs, ts, dtype = _case(name)
    if not xs:
        pytest.skip('no float input')
    if dtype == numpy.float64:
        gradient_check.check_jvp(f, xs, ts, eps=1e-6, atol=1e-6, rtol=1e-5)
    else:
        gradient_check.check_jvp(f, xs, ts, eps=1e-2, atol=1e-2, rtol=1e-2)


@pytest.mark.parametrize('name', sorted(NO_DOUBLE_BACKPROP))
def test_jvp_refuses_where_backward_is_not_differentiable(name):
    f, xs, ts, _ = _case(name)
    xs = [chainer.Variable(x) for x in xs]
    ys = f(*xs)
    ys = ys if isinstance(ys, tuple) else (ys,)
    with pytest.raises((RuntimeError, NotImplementedError, TypeError)) as e:
        chainer.jvp(list(ys), xs, ts)
    words = name.replace('_', ' ').split()[0]
    assert words in str(e.value).replace('_', ' ').lower()


def test_native_rules_are_used_and_agree(monkeypatch):
    from chainer.functions import _jvp_rules
    from chainer.functions.activation.tanh import Tanh
    from chainer.functions.math.matmul import MatMul
    chainer.jvp([F.tanh(chainer.Variable(numpy.ones(2)))],
                [chainer.Variable(numpy.ones(2))], [None])  # registers
    assert Tanh.jvp is _jvp_rules._diagonal
    assert MatMul.jvp is _jvp_rules._multilinear
    rs = numpy.random.RandomState(0)
    x, w = rs.randn(4, 3), rs.randn(3, 5)
    gradient_check.check_jvp(lambda a, b: F.tanh(a @ b), (x, w),
                             (rs.randn(4, 3), rs.randn(3, 5)), eps=1e-6)


def _mlp(x, w1, w2):
    return F.sum(F.sigmoid(F.linear(F.tanh(F.linear(x, w1)), w2)) ** 2)


def test_hessian_vector_product_forward_over_reverse():
    rs = numpy.random.RandomState(0)
    x, w1, w2 = rs.randn(3, 4), rs.randn(5, 4), rs.randn(2, 5)
    v = rs.randn(5, 4)
    w1v = chainer.Variable(w1)
    g, = chainer.grad([_mlp(x, w1v, w2)], [w1v],
                      enable_double_backprop=True)
    hv, = chainer.jvp([g], [w1v], [v])

    def grad_at(w):
        wv = chainer.Variable(w)
        gw, = chainer.grad([_mlp(x, wv, w2)], [wv])
        return gw.array
    eps = 1e-6
    numerical = (grad_at(w1 + eps * v) - grad_at(w1 - eps * v)) / (2 * eps)
    numpy.testing.assert_allclose(hv.array, numerical, atol=1e-6, rtol=1e-5)
    # reverse over reverse gives the same product (the Hessian is symmetric)
    gv, = chainer.grad([F.sum(g * v)], [w1v])
    numpy.testing.assert_allclose(hv.array, gv.array, atol=1e-10)


def test_jvp_of_jvp_and_grad_of_jvp():
    rs = numpy.random.RandomState(1)
    x = chainer.Variable(rs.randn(6))
    t1, t2 = rs.randn(6), rs.randn(6)
    y = F.sum(F.exp(F.sin(x)) * x)
    d1, = chainer.jvp([y], [x], [t1], enable_double_backprop=True)
    d2, = chainer.jvp([d1], [x], [t2])

    def f(z):
        return numpy.sum(numpy.exp(numpy.sin(z)) * z)
    eps = 1e-4

    def dir1(z):
        return (f(z + eps * t1) - f(z - eps * t1)) / (2 * eps)
    numerical = (dir1(x.array + eps * t2) - dir1(x.array - eps * t2)) / (
        2 * eps)
    numpy.testing.assert_allclose(d2.array, numerical, rtol=1e-5)
    g, = chainer.grad([d1], [x])  # d/dx of (grad f . t1) = H t1
    numpy.testing.assert_allclose(
        numpy.dot(g.array, t2), d2.array, rtol=1e-10)


def test_convolution_network_jvp():
    rs = numpy.random.RandomState(2)
    x = rs.randn(2, 3, 6, 6)
    w = rs.randn(4, 3, 3, 3) * 0.3
    b = rs.randn(4)

    def net(x, w, b):
        h = F.relu(F.convolution_2d(x, w, b, pad=1))
        return F.average_pooling_2d(F.max_pooling_2d(h, 2), 3)
    gradient_check.check_jvp(net, (x, w, b),
                             (rs.randn(*x.shape), rs.randn(*w.shape),
                              rs.randn(4)), eps=1e-6, atol=1e-6)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32,
                                   numpy.float64])
def test_dtypes_are_kept(dtype):
    x = chainer.Variable(numpy.linspace(-1, 1, 6).astype(dtype))
    y = F.tanh(x) * 2 + F.sum(x)
    t = numpy.ones(6, dtype)
    dy, = chainer.jvp([y], [x], [t])
    assert dy.dtype == dtype
    want = 2 * (1 - numpy.tanh(x.array.astype(numpy.float64)) ** 2) + 6
    tol = 1e-2 if dtype == numpy.float16 else 1e-6
    numpy.testing.assert_allclose(dy.array, want, rtol=tol)


def test_unreached_outputs_and_inputs():
    x = chainer.Variable(numpy.ones(3))
    z = chainer.Variable(numpy.ones(2))
    y = x * 2
    dy, dz = chainer.jvp([y, z * 1], [x], [None])
    numpy.testing.assert_array_equal(dy.array, numpy.zeros(3))
    numpy.testing.assert_array_equal(dz.array, numpy.zeros(2))
    dx, = chainer.jvp([x], [x], [numpy.full(3, 5.)])  # output is the input
    numpy.testing.assert_array_equal(dx.array, numpy.full(3, 5.))
    # the same input twice: the tangents add
    dy, = chainer.jvp([y], [x, x], [numpy.ones(3), numpy.ones(3)])
    numpy.testing.assert_array_equal(dy.array, numpy.full(3, 4.))


def test_bad_input():
    x = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    y = F.exp(x)
    with pytest.raises(ValueError, match=r'tangents\[0\] must have the shape '
                                         r'of inputs\[0\], \(2, 3\)'):
        chainer.jvp([y], [x], [numpy.ones(3, numpy.float32)])
    with pytest.raises(TypeError, match='dtype of inputs'):
        chainer.jvp([y], [x], [numpy.ones((2, 3))])
    with pytest.raises(ValueError, match='one entry per input'):
        chainer.jvp([y], [x], [])
    with pytest.raises(TypeError, match=r'outputs must be a tuple or a list'):
        chainer.jvp(y, [x], [None])
    with pytest.raises(TypeError, match=r'inputs\[0\] must be a Variable'):
        chainer.jvp([y], [x.array], [None])
    with pytest.raises(TypeError, match=r'tangents\[0\] must be None'):
        chainer.jvp([y], [x], ['a'])
    i = chainer.Variable(numpy.ones(3, numpy.int32))
    with pytest.raises(TypeError, match='only floating-point inputs'):
        chainer.jvp([F.cast(i, numpy.float32)], [i],
                    [numpy.ones(3, numpy.int32)])


def test_legacy_function_is_refused_by_name():
    class Twice(chainer.Function):
        def forward(self, inputs):
            return inputs[0] * 2,

        def backward(self, inputs, grad_outputs):
            return grad_outputs[0] * 2,
    x = chainer.Variable(numpy.ones(2))
    y = Twice()(x)
    with pytest.raises(TypeError, match='Twice is a legacy chainer.Function'):
        chainer.jvp([y], [x], [numpy.ones(2)])


def test_check_jvp_catches_a_wrong_rule():
    class Wrong(chainer.FunctionNode):
        def forward(self, inputs):
            return inputs[0] * 3,

        def backward(self, indexes, grad_outputs):
            return grad_outputs[0] * 3,

        def jvp(self, tangents):
            return tangents[0] * 2,  # should be 3

    with pytest.raises(AssertionError, match='native forward-mode'):
        gradient_check.check_jvp(lambda x: Wrong().apply((x,))[0],
                                 numpy.ones(3), numpy.ones(3))
