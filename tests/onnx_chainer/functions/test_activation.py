import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L
from onnx_harness import Fn, check, rand

CASES = {
    'relu': lambda x: F.relu(x),
    'sigmoid': lambda x: F.sigmoid(x),
    'tanh': lambda x: F.tanh(x),
    'leaky_relu': lambda x: F.leaky_relu(x, slope=0.1),
    'elu': lambda x: F.elu(x, alpha=0.7),
    'selu': lambda x: F.selu(x),
    'hard_sigmoid': lambda x: F.hard_sigmoid(x),
    'clipped_relu': lambda x: F.clipped_relu(x, z=1.5),
    'softmax': lambda x: F.softmax(x),
    'softmax_axis0': lambda x: F.softmax(x, axis=0),
    'softmax_last': lambda x: F.softmax(x, axis=-1),
    'log_softmax': lambda x: F.log_softmax(x),
    'log_softmax_axis2': lambda x: F.log_softmax(x, axis=2),
    'softplus': lambda x: F.softplus(x),
    'softplus_beta': lambda x: F.softplus(x, beta=2.5),
    'prelu_array': lambda x: F.prelu(x, numpy.full((3, 4), 0.3, 'f')),
    'swish': lambda x: F.swish(x, numpy.linspace(0.5, 1.5, 3).astype('f')),
    'crelu': lambda x: F.crelu(x),
    'maxout': lambda x: F.maxout(F.reshape(x, (2, 12)), 3),
}


@pytest.mark.parametrize('name', sorted(CASES))
def test_activation(name):
    check(Fn(CASES[name]), rand(2, 3, 4, scale=2))


def test_prelu_link():
    model = Fn(lambda m, x: m.prelu(x), prelu=L.PReLU(shape=(3,)))
    model.prelu.W.array[:] = [0.1, 0.2, 0.3]
    onnx_model = check(model, rand(2, 3, 4))
    assert [t.name for t in onnx_model.graph.initializer] == ['param_prelu_W']


def test_rrelu_test_mode():
    # In test mode the slope is the mean of its range: a constant.
    with chainer.using_config('train', False):
        check(Fn(lambda x: F.rrelu(x)), rand(2, 3))
