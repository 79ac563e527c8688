import numpy
import onnx
import pytest

import chainer
import chainer.functions as F
import onnx_chainer
from onnx_chainer import onnx_helper
from onnx_chainer.replace_func import as_funcnode, fake_as_funcnode
from onnx_harness import Fn, check, rand

pytestmark = pytest.mark.filterwarnings('ignore::FutureWarning')


def test_array_code_cuts_the_graph():
    # Without wrapping, code on arrays leaves the graph: the sigmoid's
    # input is a constant, not the graph input.
    m = onnx_chainer.export(Fn(lambda x: F.sigmoid(x.array + 0.1)), rand(3))
    node, = m.graph.node
    assert node.input[0] != 'Input_0'


class Full(chainer.Chain):

    def __init__(self, value):
        super().__init__()
        self.value = value

    @as_funcnode('NumpyFull')
    def full(self, x, value=0):
        return numpy.full(x.array.shape, value, numpy.float32)

    def forward(self, x):
        return F.sigmoid(self.full(x, value=self.value)) * x


def test_as_funcnode_with_external_converter():
    def convert(params):
        gb = onnx_helper.GraphBuilder()
        shape = gb.op('Shape', params.input_names)
        value = onnx.helper.make_tensor('value', onnx.TensorProto.FLOAT, [1],
                                        [params.func.value])
        gb.op_output_named('ConstantOfShape', [shape], params.output_names,
                           value=value)
        return gb.nodes()

    m = check(Full(0.5), rand(2, 3), since=9,
              external_converters={'NumpyFull': convert})
    assert [n.name for n in m.graph.node][:2] == [
        'NumpyFull_0_tmp_0', 'NumpyFull_0']


@pytest.mark.parametrize('kind', ['positional', 'keyword', 'default',
                                  'list'])
def test_attributes_for_builtin_converters(kind):
    if kind == 'positional':
        fn = fake_as_funcnode(lambda x, v: x.array + v, 'AddConstant',
                              rename_attributes=[(1, 'value')])
        model = Fn(lambda x: F.sigmoid(fn(x, 0.25)))
    elif kind == 'keyword':
        fn = fake_as_funcnode(lambda x=None, b=0: x.array + b, 'AddConstant',
                              rename_attributes=[('b', 'value')])
        model = Fn(lambda x: F.sigmoid(fn(x=x, b=0.25)))
    elif kind == 'default':
        @as_funcnode('AddConstant', rename_attributes=[('b', 'value')])
        def fn(x, b=0.25):
            return x.array + b
        model = Fn(lambda x: F.sigmoid(fn(x)))
    else:
        fn = fake_as_funcnode(lambda xs: xs[0].array + xs[1].array, 'Add')
        model = Fn(lambda x: F.sigmoid(fn([x, x * 2])))
    check(model, rand(2, 3))


def test_builtin_shape_and_dynamic_reshape():
    class Model(chainer.Chain):
        @as_funcnode('Shape')
        def shape(self, x):
            return numpy.array(x.shape, numpy.int64)

        @as_funcnode('Reshape')
        def reshape(self, x, shape):
            return F.reshape(x, tuple(shape.array))

        def forward(self, x, shape):
            return self.reshape(x, shape), self.shape(x)

    m = check(Model(), (rand(3, 4, 5), numpy.array([12, 5], numpy.int64)))
    assert [n.op_type for n in m.graph.node] == ['Reshape', 'Shape']
    assert not m.graph.initializer


def test_structure_is_kept():
    def f(x):
        return {'a': (x, x + 1), 'b': [x + 2, x + 3]}

    wrapped = fake_as_funcnode(f, 'xF', experimental_warning=False)
    x = chainer.Variable(rand(2, 3))
    out = wrapped(x)
    assert set(out) == {'a', 'b'} and len(out['a']) == 2
    assert all(isinstance(v, chainer.Variable) for v in out['b'])
    node = out['a'][0].creator
    assert node.label == 'xF' and len(node.outputs) == 4
    numpy.testing.assert_allclose(out['b'][1].array, x.array + 3)


def test_unknown_name_is_a_clear_error():
    fn = fake_as_funcnode(lambda x: x.array * 2, 'Twice',
                          experimental_warning=False)
    with pytest.raises(ValueError, match='Twice'):
        onnx_chainer.export(Fn(fn), rand(2))


def test_no_variable_argument_calls_through():
    fn = fake_as_funcnode(lambda x: x * 2, 'Twice',
                          experimental_warning=False)
    assert fn(3) == 6


@pytest.mark.parametrize('fn,args', [
    (lambda a, b: a * b, (2.3, 4.2)),
    (lambda a, b: a * b.array, (2.3, 4.2)),          # b not differentiable
    (lambda a, b, c: (a * b, a / b, a * b * c), (2.3, 4.2, 5)),
])
def test_backward_through_wrapped(fn, args):
    xs = [chainer.Variable(numpy.array(a)) if isinstance(a, float) else a
          for a in args]
    vs = [x for x in xs if isinstance(x, chainer.Variable)]
    wrapped = as_funcnode('fn')(fn)

    def as_list(y):
        return list(y) if isinstance(y, tuple) else [y]

    want = as_list(fn(*xs))
    got = as_list(wrapped(*xs))
    for w, g in zip(want, got):
        numpy.testing.assert_allclose(g.array, w.array)
    gw = chainer.grad(want, vs)
    gg = chainer.grad(got, vs)
    for w, g in zip(gw, gg):
        if w is None:
            assert g is None
        else:
            numpy.testing.assert_allclose(g.array, w.array)


def test_backward_has_no_side_effect():
    a = chainer.Variable(numpy.array(2.3))
    b = chainer.Variable(numpy.array(4.2))
    x0 = a * b
    x1 = chainer.Variable(numpy.array(3.7))
    y = as_funcnode('fn')(lambda p, q: p * q)(x0, x1)
    chainer.grad([y], [x0, x1], set_grad=True)
    assert x0.grad is not None and x1.grad is not None
    assert a.grad is None and b.grad is None
