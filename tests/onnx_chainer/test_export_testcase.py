import os

import numpy
import onnx
import pytest
from onnx import numpy_helper

import chainer
import chainer.functions as F
import chainer.links as L
import onnx_chainer
from onnx_chainer.replace_func import fake_as_funcnode
from onnx_chainer.testing import test_onnxruntime
from onnx_harness import rand


def model():
    return chainer.Sequential(
        L.Convolution2D(None, 4, 3, 1, 1), F.relu,
        L.Convolution2D(4, 2, 3, 1, 1), F.relu,
        L.Linear(None, 6), L.BatchNormalization(6), F.relu, L.Linear(6, 3))


def load(path):
    t = onnx.load_tensor(path)
    return t.name, numpy_helper.to_array(t)


@pytest.mark.parametrize('in_names,out_names', [(None, None), (['x'], ['y'])])
def test_files(tmp_path, in_names, out_names):
    out = str(tmp_path / 'case')
    x = rand(2, 3, 5, 5)
    onnx_chainer.export_testcase(model(), (x,), out, input_names=in_names,
                                 output_names=out_names)
    data = os.path.join(out, 'test_data_set_0')
    assert sorted(os.listdir(out)) == ['model.onnx', 'test_data_set_0']
    assert sorted(os.listdir(data)) == ['input_0.pb', 'output_0.pb']
    name, array = load(os.path.join(data, 'input_0.pb'))
    assert name == (in_names[0] if in_names else 'Input_0')
    numpy.testing.assert_array_equal(array, x)
    name, _ = load(os.path.join(data, 'output_0.pb'))
    assert name == (out_names[0] if out_names else 'LinearFunction_1')
    test_onnxruntime.check_model_expect(out)


@pytest.mark.parametrize('train', [False, True])
def test_output_grad(tmp_path, train):
    out = str(tmp_path)
    m = model()
    x = rand(2, 3, 5, 5)
    onnx_chainer.export_testcase(m, x, out, output_grad=True, train=train)
    onnx_model = onnx.load(os.path.join(out, 'model.onnx'))
    initializers = {t.name for t in onnx_model.graph.initializer}
    grads = dict(load(os.path.join(out, 'test_data_set_0',
                                   'gradient_{}.pb'.format(i)))
                 for i in range(10))
    assert not os.path.exists(
        os.path.join(out, 'test_data_set_0', 'gradient_10.pb'))
    assert set(grads) <= initializers
    # the gradients of the sum of the outputs
    m.cleargrads()
    with chainer.using_config('train', train):
        F.sum(m(x)).backward()
    for path, p in m.namedparams():
        numpy.testing.assert_allclose(
            grads['param' + path.replace('/', '_')], p.grad, rtol=1e-5,
            atol=1e-6)


def test_output_grad_of_a_cut_graph(tmp_path):
    class Half(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.l = L.Linear(None, 2)
            self.half = fake_as_funcnode(lambda h, value=0.5: h.array * value,
                                         'MulConstant',
                                         experimental_warning=False)

        def forward(self, x):
            return F.sum(self.half(self.l(x)))

    out = str(tmp_path / 'case')
    with pytest.raises(ValueError, match='got no gradient'):
        onnx_chainer.export_testcase(Half(), rand(2, 5), out,
                                     output_grad=True)
    assert not os.path.exists(out)


def test_into_an_existing_folder(tmp_path):
    out = str(tmp_path / 'case')
    onnx_chainer.export_testcase(model(), rand(2, 3, 5, 5), out)
    assert oct(os.stat(out).st_mode & 0o777) == oct(0o777 & ~_umask())
    open(os.path.join(out, 'notes.txt'), 'w').close()
    x = rand(1, 3, 5, 5)
    onnx_chainer.export_testcase(model(), x, out)
    assert sorted(os.listdir(out)) == ['model.onnx', 'notes.txt',
                                       'test_data_set_0']
    _, array = load(os.path.join(out, 'test_data_set_0', 'input_0.pb'))
    numpy.testing.assert_array_equal(array, x)
    assert os.listdir(str(tmp_path)) == ['case']  # no temporary left


def _umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_failing_export_writes_nothing(tmp_path):
    out = str(tmp_path / 'case')
    with pytest.raises(RuntimeError):
        onnx_chainer.export_testcase(chainer.Sequential(lambda x: x.array),
                                     rand(2), out)
    assert not os.path.exists(out)
