import numpy

import chainer
import chainer.functions as F
from onnx_harness import Fn, check, keys_applied, rand


def test_dropout_test_mode_is_left_out():
    model = Fn(lambda x: F.relu(F.dropout(x)))
    m = check(model, rand(2, 5))
    assert [n.op_type for n in m.graph.node] == ['Relu']


def test_dropout_train_mode():
    # Recorded only in training mode; ONNX's Dropout infers the identity
    # (all zeros make the outputs agree).
    model = Fn(lambda x: F.dropout(x, 0.3))
    with chainer.using_config('train', True):
        assert keys_applied(model, rand(2, 5)) == {'Dropout'}
    m = check(model, numpy.zeros((2, 5), numpy.float32), train=True)
    assert [n.op_type for n in m.graph.node][-1] == 'Dropout'
