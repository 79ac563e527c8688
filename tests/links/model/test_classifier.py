import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import reporter
from link_harness import roundtrip_npz


def model_and_data():
    predictor = L.Linear(3, 2)
    predictor.W.array[...] = [[1, 0, -1], [0.5, 0.5, 0.5]]
    predictor.b.array[...] = [0.1, -0.1]
    x = numpy.array([[1, 2, 3], [-1, 0, 1]], numpy.float32)
    t = numpy.array([0, 1], numpy.int32)
    return predictor, x, t


def test_attributes():
    predictor, _, _ = model_and_data()
    model = L.Classifier(predictor)
    assert model.predictor is predictor
    assert model.lossfun is F.softmax_cross_entropy
    assert model.accfun is F.accuracy
    assert model.label_key == -1 and model.compute_accuracy is True
    assert model.y is None and model.loss is None and model.accuracy is None
    assert [n for n, _ in model.namedparams()] == ['/predictor/W',
                                                  '/predictor/b']


def test_forward_and_report():
    predictor, x, t = model_and_data()
    model = L.Classifier(predictor)
    rep = reporter.Reporter()
    rep.add_observer('main', model)
    observation = {}
    with rep.scope(observation):
        loss = model(x, t)
    y = x @ predictor.W.array.T + predictor.b.array
    expected = F.softmax_cross_entropy(y, t).array
    numpy.testing.assert_allclose(loss.array, expected, rtol=1e-6)
    numpy.testing.assert_allclose(model.y.array, y, rtol=1e-6)
    assert float(model.accuracy.array) == 0.5  # row 0 -> 1, row 1 -> 1
    assert set(observation) == {'main/loss', 'main/accuracy'}
    numpy.testing.assert_allclose(observation['main/loss'].array, expected)


def test_without_accuracy():
    predictor, x, t = model_and_data()
    model = L.Classifier(predictor)
    model.compute_accuracy = False
    model(x, t)
    assert model.accuracy is None and model.loss is not None


def test_label_keys():
    predictor, x, t = model_and_data()
    calls = []

    def lossfun(y, t_):
        calls.append(t_)
        return F.sum(y)

    model = L.Classifier(predictor, lossfun=lossfun, label_key=0)
    model.compute_accuracy = False
    model(t, x)
    assert calls[-1] is t
    model = L.Classifier(predictor, lossfun=lossfun, label_key='t')
    model.compute_accuracy = False
    model(x, t=t)
    assert calls[-1] is t


def test_label_key_errors():
    predictor, x, t = model_and_data()
    with pytest.raises(TypeError, match='label_key must be int or str'):
        L.Classifier(predictor, label_key=1.0)
    with pytest.raises(ValueError, match='Label key 5 is out of bounds'):
        L.Classifier(predictor, label_key=5)(x, t)
    with pytest.raises(ValueError, match='Label key "t" is not found'):
        L.Classifier(predictor, label_key='t')(x, t)


def test_training_step_reduces_loss(tmp_path):
    predictor, x, t = model_and_data()
    model = L.Classifier(predictor)
    losses = []
    for _ in range(5):
        model.cleargrads()
        loss = model(x, t)
        loss.backward()
        for p in model.params():
            p.array -= 0.5 * p.grad
        losses.append(float(loss.array))
    assert losses[-1] < losses[0]
    roundtrip_npz(model, L.Classifier(L.Linear(3, 2)), tmp_path)
    assert isinstance(model.loss, chainer.Variable)
