"""Second derivatives round as Chainer 7.8.1's do: the values below were
printed by Chainer 7.8.1 (NumPy 1.26) for the same inputs; its gradient
nodes multiply in a fixed order, and so do ours."""

import numpy
import pytest

import chainer
import chainer.functions as F

X = [0.85, 1.7, 0.3]
W = numpy.array([0.7, -1.3, 2.1], numpy.float32)   # the output gradient
W2 = numpy.array([1.7, 0.6, -0.9], numpy.float32)  # the gradient's

CHAINER = {
    'pow3': ([1.5172499418258667, -11.270999908447266, 0.5669999718666077],
             [6.069000244140625, -7.955999851226807, -3.4019997119903564]),
    'pow2.5': ([1.3714072704315186, -7.203718662261963, 0.8626630902290344],
               [4.114221572875977, -3.8137333393096924,
                -3.881983518600464]),
    'sigmoid': ([0.14684097468852997, -0.1697874516248703,
                 0.513362467288971],
                [-0.10013501346111298, 0.07040096819400787,
                 0.06878877431154251]),
    'log_softmax': ([0.3170143961906433, -2.1960511207580566,
                     1.8790364265441895],
                    [-0.3983461558818817, 0.05366694927215576,
                     0.3446792662143707]),
}
FUNCS = {
    'pow3': lambda v: v ** 3,
    'pow2.5': lambda v: v ** 2.5,
    'sigmoid': F.sigmoid,
    'log_softmax': lambda v: F.reshape(F.log_softmax(F.reshape(v, (1, 3))),
                                       (3,)),
}


@pytest.mark.parametrize('name', sorted(FUNCS))
def test_second_derivative_is_chainers(name):
    x = chainer.Variable(numpy.array(X, numpy.float32))
    g, = chainer.grad([F.sum(FUNCS[name](x) * W)], [x],
                      enable_double_backprop=True)
    gg, = chainer.grad([F.sum(g * W2)], [x])
    want_g, want_gg = CHAINER[name]
    assert g.array.tolist() == want_g
    assert gg.array.tolist() == want_gg


def test_softmax_cross_entropy_double_backprop_is_chainers():
    # enable_double_backprop=True: Chainer's composition of -log_softmax,
    # the labels' entries, the mask and the mean, to the last bit
    rng = numpy.random.RandomState(3)
    x = chainer.Variable(rng.randn(3, 4).astype(numpy.float32))
    t = numpy.array([0, 3, 1], numpy.int32)
    loss = F.softmax_cross_entropy(x, t, enable_double_backprop=True)
    assert loss.dtype == numpy.float32
    assert float(loss.array) == 1.3364596366882324
    g, = chainer.grad([loss], [x], enable_double_backprop=True)
    assert g.array[1].tolist() == [0.08668389916419983, 0.0802299976348877,
                                   0.10531067848205566, -0.2722245454788208]
    gg, = chainer.grad([F.sum(g * g)], [x])
    assert gg.array[2].tolist() == [-0.0013829590752720833,
                                    -0.03574848547577858,
                                    -0.00264490838162601,
                                    0.03977634757757187]
    # the same loss as the one-node path, to rounding
    plain = F.softmax_cross_entropy(x, t)
    numpy.testing.assert_allclose(plain.array, loss.array, rtol=1e-6)


@pytest.mark.parametrize('kw', [dict(normalize=False), dict(reduce='no'),
                                dict(ignore_label=2),
                                dict(class_weight=numpy.array(
                                    [1., 2., .5, 3.], numpy.float32))])
def test_softmax_cross_entropy_double_backprop_options(kw):
    rng = numpy.random.RandomState(4)
    x = rng.randn(5, 4).astype(numpy.float64)
    t = numpy.array([0, 2, 3, 2, 1], numpy.int32)
    if 'class_weight' in kw:
        kw = dict(kw, class_weight=kw['class_weight'].astype(x.dtype))
    composed = F.softmax_cross_entropy(x, t, enable_double_backprop=True,
                                       **kw)
    plain = F.softmax_cross_entropy(x, t, **kw)
    assert composed.shape == plain.shape and composed.dtype == plain.dtype
    numpy.testing.assert_allclose(composed.array, plain.array, rtol=1e-12)

    def f(x):
        y = F.softmax_cross_entropy(x, t, enable_double_backprop=True, **kw)
        return y * y
    gy = numpy.ones(plain.shape, x.dtype)
    chainer.gradient_check.check_backward(f, x, gy, dtype=numpy.float64)
    chainer.gradient_check.check_double_backward(
        f, x, gy, rng.randn(*x.shape), dtype=numpy.float64)
