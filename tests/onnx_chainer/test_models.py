"""Whole models export and reproduce chainer-ng's outputs in onnxruntime."""

import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L
from onnx_harness import LATEST, check, rand


class MLP(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(None, 16)
            self.l2 = L.Linear(16, 16)
            self.l3 = L.Linear(16, 10)

    def forward(self, x):
        h = F.relu(self.l1(x))
        h = F.relu(self.l2(h))
        return F.softmax(self.l3(h))


class CNN(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.conv1 = L.Convolution2D(3, 8, 3, pad=1)
            self.bn1 = L.BatchNormalization(8)
            self.conv2 = L.Convolution2D(8, 8, 3, pad=1)
            self.bn2 = L.BatchNormalization(8)
            self.fc = L.Linear(None, 5)

    def forward(self, x):
        h = F.max_pooling_2d(F.relu(self.bn1(self.conv1(x))), 2)
        h = F.average_pooling_2d(F.relu(self.bn2(self.conv2(h))), 2)
        return self.fc(F.dropout(h, self.ratio))


class VGGLike(chainer.Chain):
    """VGG16's layout (blocks of 3x3 convolutions and max pooling, three
    fully connected layers with dropout), narrow."""

    def __init__(self, widths=(4, 8, 8, 16, 16), repeats=(2, 2, 3, 3, 3)):
        super().__init__()
        self.blocks = []
        with self.init_scope():
            n_in = 3
            for i, (width, n) in enumerate(zip(widths, repeats)):
                names = []
                for j in range(n):
                    name = 'conv{}_{}'.format(i + 1, j + 1)
                    setattr(self, name, L.Convolution2D(n_in, width, 3,
                                                        pad=1))
                    names.append(name)
                    n_in = width
                self.blocks.append(names)
            self.fc6 = L.Linear(None, 32)
            self.fc7 = L.Linear(32, 32)
            self.fc8 = L.Linear(32, 10)

    def forward(self, x):
        h = x
        for names in self.blocks:
            for name in names:
                h = F.relu(getattr(self, name)(h))
            h = F.max_pooling_2d(h, 2, stride=2)
        h = F.dropout(F.relu(self.fc6(h)), self.ratio)
        h = F.dropout(F.relu(self.fc7(h)), self.ratio)
        return self.fc8(h)


class Bottleneck(chainer.Chain):

    def __init__(self, n_in, n_mid, n_out, stride):
        super().__init__()
        with self.init_scope():
            self.conv1 = L.Convolution2D(n_in, n_mid, 1, stride, nobias=True)
            self.bn1 = L.BatchNormalization(n_mid)
            self.conv2 = L.Convolution2D(n_mid, n_mid, 3, 1, 1, nobias=True)
            self.bn2 = L.BatchNormalization(n_mid)
            self.conv3 = L.Convolution2D(n_mid, n_out, 1, nobias=True)
            self.bn3 = L.BatchNormalization(n_out)
            if stride != 1 or n_in != n_out:
                self.proj = L.Convolution2D(n_in, n_out, 1, stride,
                                            nobias=True)
                self.bn4 = L.BatchNormalization(n_out)

    def forward(self, x):
        h = F.relu(self.bn1(self.conv1(x)))
        h = F.relu(self.bn2(self.conv2(h)))
        h = self.bn3(self.conv3(h))
        shortcut = self.bn4(self.proj(x)) if hasattr(self, 'proj') else x
        return F.relu(h + shortcut)  # the residual add


class ResNetLike(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.conv1 = L.Convolution2D(3, 8, 7, 2, 3)
            self.bn1 = L.BatchNormalization(8)
            self.res2 = chainer.Sequential(Bottleneck(8, 4, 16, 1),
                                           Bottleneck(16, 4, 16, 1))
            self.res3 = chainer.Sequential(Bottleneck(16, 8, 32, 2),
                                           Bottleneck(32, 8, 32, 1))
            self.fc = L.Linear(32, 10)

    def forward(self, x):
        h = F.relu(self.bn1(self.conv1(x)))
        h = F.max_pooling_2d(h, 3, stride=2)
        h = self.res3(self.res2(h))
        h = F.average_pooling_2d(h, h.shape[2:])
        return self.fc(h)


def _randomize(model):
    # Running statistics away from 0 and 1, so that they matter.
    for link in model.links():
        if isinstance(link, L.BatchNormalization):
            shape = link.avg_mean.shape
            link.avg_mean[:] = numpy.random.uniform(-0.5, 0.5, shape)
            link.avg_var[:] = numpy.random.uniform(0.5, 2, shape)
    return model


@pytest.mark.parametrize('make,shape', [
    (MLP, (4, 12)),
    (CNN, (2, 3, 8, 8)),
    (VGGLike, (1, 3, 32, 32)),
    (ResNetLike, (2, 3, 32, 32)),
])
@pytest.mark.parametrize('train', [False, True])
def test_model(make, shape, train):
    model = _randomize(make())
    # Dropout in training mode draws a mask at random, which onnxruntime
    # does not: those runs keep its ratio at 0.
    model.ratio = 0.0 if train else 0.5
    onnx_model = check(model, rand(*shape), opsets=(7, 11, 13, LATEST),
                       train=train, rtol=1e-5, atol=1e-5)
    names = {t.name for t in onnx_model.graph.initializer}
    assert {'param_' + path[1:].replace('/', '_')
            for path, _ in model.namedparams()} <= names


class UnrolledLSTM(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.lstm = L.LSTM(4, 6)
            self.out = L.Linear(6, 3)

    def forward(self, *xs):
        self.lstm.reset_state()
        hs = [self.lstm(x) for x in xs]
        return self.out(hs[-1]), F.stack(hs)


def test_unrolled_lstm():
    xs = tuple(rand(2, 4) for _ in range(5))
    check(UnrolledLSTM(), xs, opsets=(7, 13, LATEST), rtol=1e-5, atol=1e-5)


class NStep(chainer.Chain):

    def __init__(self, link):
        super().__init__()
        with self.init_scope():
            self.rnn = link

    def forward(self, *xs):
        if isinstance(self.rnn, (L.NStepLSTM, L.NStepBiLSTM)):
            hy, cy, ys = self.rnn(None, None, list(xs))
            return (hy, cy) + tuple(ys)
        hy, ys = self.rnn(None, list(xs))
        return (hy,) + tuple(ys)


@pytest.mark.parametrize('link,op_type', [
    (lambda: L.NStepLSTM(2, 4, 5, 0.0), 'LSTM'),
    (lambda: L.NStepBiLSTM(2, 4, 3, 0.0), 'LSTM'),
    (lambda: L.NStepGRU(2, 4, 5, 0.0), 'GRU'),
    (lambda: L.NStepBiGRU(1, 4, 5, 0.0), 'GRU'),
    (lambda: L.NStepRNNTanh(1, 4, 5, 0.0), 'RNN'),
])
def test_n_step_rnn(link, op_type):
    # Sequences in any order, of different lengths: one ONNX node a layer.
    xs = (rand(3, 4), rand(4, 4), rand(1, 4))
    model = NStep(link())
    onnx_model = check(model, xs, opsets=(7, 14, LATEST), rtol=1e-5,
                       atol=1e-5)
    ops = [n.op_type for n in onnx_model.graph.node]
    assert ops.count(op_type) == model.rnn.n_layers


class NStepWithStates(chainer.Chain):

    def __init__(self, link):
        super().__init__()
        with self.init_scope():
            self.rnn = link

    def forward(self, hx, cx, *xs):
        hy, cy, ys = self.rnn(hx, cx, list(xs))
        return (hy, cy) + tuple(ys)


def test_n_step_lstm_states_given():
    # The states are graph inputs, permuted with the sequences by length.
    model = NStepWithStates(L.NStepBiLSTM(2, 3, 4, 0.0))
    args = (rand(4, 3, 4), rand(4, 3, 4), rand(2, 3), rand(5, 3), rand(3, 3))
    onnx_model = check(model, args, opsets=(7, 14, LATEST), atol=1e-5)
    assert [n.op_type for n in onnx_model.graph.node].count('LSTM') == 2


def test_n_step_dropout_in_training_mode_unrolled():
    # Dropout between the layers draws its mask at random: the layers stay
    # unrolled, with ONNX's Dropout between them.
    import onnx_chainer
    model = NStepWithStates(L.NStepLSTM(2, 3, 4, 0.5))
    args = (rand(2, 2, 4), rand(2, 2, 4), rand(2, 3), rand(1, 3))
    onnx_model = onnx_chainer.export(model, args, train=True)
    ops = {n.op_type for n in onnx_model.graph.node}
    assert 'Dropout' in ops and 'LSTM' not in ops
