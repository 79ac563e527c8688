import numpy
import pytest

import chainer
import chainer.links as L
from link_harness import check_params, fill, seq


def test_params_and_attributes():
    lstm = L.StatefulZoneoutLSTM(3, 2, c_ratio=0.3, h_ratio=0.2)
    check_params(lstm, {'/upward/W': (8, 3), '/upward/b': (8,),
                        '/lateral/W': (8, 2)})
    assert (lstm.c_ratio, lstm.h_ratio, lstm.state_size) == (0.3, 0.2, 2)
    assert lstm.h is None and lstm.c is None


def test_rejects_train_and_unknown():
    with pytest.raises(ValueError, match='train argument'):
        L.StatefulZoneoutLSTM(3, 2, train=True)
    with pytest.raises(TypeError, match='foo'):
        L.StatefulZoneoutLSTM(3, 2, foo=1)


def test_test_mode_is_plain_lstm_matching_reference():
    lstm = L.StatefulZoneoutLSTM(3, 2)
    fill(lstm)
    with chainer.using_config('train', False):
        y1 = lstm(seq((2, 3), 0))
        y2 = lstm(seq((2, 3), 1))
    numpy.testing.assert_allclose(y1.array, [[-0.052778, -0.047919],
                                             [-0.031429, -0.19465]],
                                  atol=2e-6)
    numpy.testing.assert_allclose(y2.array, [[-0.068064, -0.218434],
                                             [-0.049958, -0.292929]],
                                  atol=2e-6)


def test_train_mode_ratios():
    lstm = L.StatefulZoneoutLSTM(3, 2, c_ratio=1.0, h_ratio=1.0)
    with chainer.using_config('train', True):
        y = lstm(numpy.ones((2, 3), 'f'))
    # ratio 1: every element keeps its previous (zero) state
    assert (y.array == 0).all() and (lstm.c.array == 0).all()
    lstm = L.StatefulZoneoutLSTM(3, 2, c_ratio=0.0, h_ratio=0.0)
    with chainer.using_config('train', True):
        y = lstm(numpy.ones((2, 3), 'f'))
    with chainer.using_config('train', False):
        ref = L.StatefulZoneoutLSTM(3, 2)
        ref.copyparams(lstm)
        numpy.testing.assert_allclose(
            y.array, ref(numpy.ones((2, 3), 'f')).array)


def test_state_and_gradient_flow():
    lstm = L.StatefulZoneoutLSTM(3, 2)
    c = chainer.Variable(numpy.zeros((1, 2), 'f'))
    h = chainer.Variable(numpy.zeros((1, 2), 'f'))
    lstm.set_state(c, h)
    assert lstm.c is c and lstm.h is h
    with pytest.raises(AssertionError):  # Chainer asserts
        lstm.set_state(c, None)
    lstm.reset_state()
    lstm.cleargrads()
    with chainer.using_config('train', False):
        chainer.functions.sum(lstm(numpy.ones((1, 3), 'f'))).backward()
    assert numpy.abs(lstm.upward.W.grad).sum() > 0
