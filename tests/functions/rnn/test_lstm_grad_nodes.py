"""lstm.LSTMGrad and slstm.SLSTMGrad (Chainer's private functions of one
step's gradients) give the gradients that backward gives, and can be
differentiated again."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import gradient_check
from chainer.functions.rnn import lstm, slstm


@pytest.mark.parametrize('batch', [3, 2, 0])
def test_lstm_grad_matches_backward(batch):
    rng = numpy.random.RandomState(0)
    c_prev = chainer.Variable(rng.randn(3, 2, 4))
    x = chainer.Variable(rng.randn(batch, 8, 4))
    c, h = F.lstm(c_prev, x)
    gc, gh = rng.randn(*c.shape), rng.randn(*h.shape)
    c.grad, h.grad = gc, gh
    chainer.backward([c, h])
    gc_prev, gx = lstm.LSTMGrad()(c_prev.array, x.array, c.array, gc, gh)
    numpy.testing.assert_allclose(gc_prev.array, c_prev.grad, rtol=1e-10)
    numpy.testing.assert_allclose(gx.array, x.grad, rtol=1e-10)


def test_lstm_grad_backward():
    rng = numpy.random.RandomState(1)
    inputs = [rng.randn(3, 2, 4), rng.randn(2, 8, 4), rng.randn(3, 2, 4),
              rng.randn(3, 2, 4), rng.randn(2, 2, 4)]
    gradient_check.check_backward(
        lstm.LSTMGrad(), inputs, [rng.randn(3, 2, 4), rng.randn(2, 8, 4)])


def test_slstm_grad_matches_backward_and_differentiates():
    rng = numpy.random.RandomState(2)
    c1, c2 = (chainer.Variable(rng.randn(2, 3)) for _ in range(2))
    x1, x2 = (chainer.Variable(rng.randn(2, 12)) for _ in range(2))
    c, h = F.slstm(c1, c2, x1, x2)
    gc, gh = rng.randn(2, 3), rng.randn(2, 3)
    c.grad, h.grad = gc, gh
    chainer.backward([c, h])
    outs = slstm.SLSTMGrad()(c1.array, c2.array, x1.array, x2.array,
                             c.array, gc, gh)
    for got, want in zip(outs, (c1.grad, c2.grad, x1.grad, x2.grad)):
        numpy.testing.assert_allclose(got.array, want, rtol=1e-10)
    inputs = [v.array for v in (c1, c2, x1, x2, c)] + [gc, gh]
    gradient_check.check_backward(
        slstm.SLSTMGrad(), inputs, [rng.randn(2, 3), rng.randn(2, 3),
                                    rng.randn(2, 12), rng.randn(2, 12)])
