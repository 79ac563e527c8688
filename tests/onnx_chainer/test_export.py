import io
import os
import warnings

import numpy
import onnx
import pytest

import chainer
import chainer.functions as F
import chainer.links as L
import onnx_chainer
from onnx_chainer.export import RetainInputHook
from onnx_chainer.testing import test_onnxruntime
from onnx_harness import LATEST, Fn, check, rand


class Model(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(3, 4)
            self.l2 = L.Linear(4, 2)

    def forward(self, x):
        return self.l2(F.relu(self.l1(x)))


class ThreeInputs(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.prelu = L.PReLU()

    def forward(self, x, y, z):
        return F.relu(x) + self.prelu(y) * z


def test_default_opset_is_the_newest():
    m = onnx_chainer.export(Model(), rand(1, 3))
    assert m.opset_import[0].version == min(
        onnx.defs.onnx_opset_version(), onnx_chainer.MAXIMUM_OPSET_VERSION)
    assert onnx_chainer.MINIMUM_OPSET_VERSION == 7


@pytest.mark.parametrize('opset', [6, onnx.defs.onnx_opset_version() + 1])
def test_opset_out_of_range(opset):
    with pytest.raises(ValueError, match='opset_version'):
        onnx_chainer.export(Model(), rand(1, 3), opset_version=opset)


def test_names():
    m = onnx_chainer.export(Model(), rand(1, 3))
    assert [i.name for i in m.graph.input] == ['Input_0']
    assert [o.name for o in m.graph.output] == ['LinearFunction_1']
    assert [n.name for n in m.graph.node] == [
        'LinearFunction_0', 'ReLU_0', 'LinearFunction_1']
    assert [t.name for t in m.graph.initializer] == [
        'param_l1_W', 'param_l1_b', 'param_l2_W', 'param_l2_b']
    assert m.producer_name == 'Chainer'
    assert m.graph.name == 'Graph'


def test_opset7_lists_initializers_as_inputs():
    # IR version 3 wants every initializer among the graph inputs.
    m = onnx_chainer.export(Model(), rand(1, 3), opset_version=7)
    assert m.ir_version == 3
    assert len(m.graph.input) == 5
    check(Model(), rand(1, 3), opsets=(7,))


XS = (rand(1, 5), rand(1, 5), rand(1, 5))


@pytest.mark.parametrize('args', [
    XS, list(XS), tuple(chainer.Variable(x) for x in XS),
    {'x': XS[0], 'y': XS[1], 'z': XS[2]},
    {'x': chainer.Variable(XS[0]), 'z': XS[2], 'y': XS[1]},
])
def test_input_kinds(args):
    check(ThreeInputs(), args, opsets=(LATEST,))


@pytest.mark.parametrize('args,names,want', [
    (XS, ['a', 'b', 'c'], ['a', 'b', 'c']),
    ({'x': XS[0], 'y': XS[1], 'z': XS[2]}, {'x': 'in_x', 'z': 'in_z'},
     ['in_x', 'Input_1', 'in_z']),
    ({'x': XS[0], 'y': XS[1], 'z': XS[2]}, ['a', 'b', 'c'], ['a', 'b', 'c']),
])
def test_input_names(args, names, want):
    m = check(ThreeInputs(), args, opsets=(LATEST,), input_names=names)
    assert [i.name for i in m.graph.input] == want


def test_input_names_errors():
    with pytest.raises(ValueError, match='2 input_names given for 3'):
        onnx_chainer.export(ThreeInputs(), XS, input_names=['a', 'b'])
    with pytest.raises(ValueError, match='given twice'):
        onnx_chainer.export(ThreeInputs(), XS, input_names=['a', 'b', 'a'])
    with pytest.raises(ValueError, match='keys'):
        onnx_chainer.export(ThreeInputs(), XS, input_names={'q': 'a'})


class TwoOutputs(chainer.Chain):

    def __init__(self, kind):
        super().__init__()
        self.kind = kind
        with self.init_scope():
            self.conv = L.Convolution2D(3, 4, 3)
            self.bn = L.BatchNormalization(4)

    def forward(self, x):
        h = self.bn(self.conv(x))
        out = {'tanh': F.tanh(h), 'sigmoid': F.sigmoid(h)}
        return out if self.kind == 'dict' else self.kind(out.values())


@pytest.mark.parametrize('kind', ['dict', tuple, list])
@pytest.mark.parametrize('names', [
    None, ['a', 'b'], {'tanh': 'a', 'sigmoid': 'b'}])
def test_outputs(kind, names):
    if isinstance(names, dict) and kind != 'dict':
        with pytest.raises(ValueError, match='output_names'):
            onnx_chainer.export(TwoOutputs(kind), rand(1, 3, 5, 5),
                                output_names=names)
        return
    m = check(TwoOutputs(kind), rand(1, 3, 5, 5), opsets=(LATEST,),
              output_names=names)
    want = ['Tanh_0', 'Sigmoid_0'] if names is None else ['a', 'b']
    assert [o.name for o in m.graph.output] == want


def test_intermediate_output():
    model = Fn(lambda m, x: (m.l1(x), m.l2(m.l1(x))),
               l1=L.Linear(3, 4), l2=L.Linear(4, 5))
    m = check(model, rand(2, 3), output_names=['y', 'z'])
    assert [o.name for o in m.graph.output] == ['y', 'z']


@pytest.mark.parametrize('fn', [
    lambda x: (x, F.relu(x)),              # an input
    lambda x: (F.relu(x), F.relu(x)),      # two functions, two outputs
    lambda x: 2 * (F.relu(x),),            # one output twice
])
def test_outputs_not_made_once(fn):
    m = check(Fn(fn), rand(2, 3))
    assert len({o.name for o in m.graph.output}) == 2


def test_parameter_output():
    model = Fn(lambda m, x: (m.l.W, m.l(x)), l=L.Linear(3, 2))
    m = check(model, rand(1, 3), output_names=['W', 'y'])
    assert 'param_l_W' in {t.name for t in m.graph.initializer}


@pytest.mark.parametrize('out', [
    lambda x: x.array, lambda x: None, lambda x: 3])
def test_output_not_variable(tmp_path, out):
    path = str(tmp_path / 'model.onnx')
    with pytest.raises(RuntimeError, match='unexpected output type'):
        onnx_chainer.export(Fn(out), rand(2), filename=path,
                            no_testcase=True)
    assert os.listdir(str(tmp_path)) == []


@pytest.mark.parametrize('out', [
    lambda x: (x, x.array), lambda x: ([x],), lambda x: ()])
def test_output_collection_not_variables(out):
    with pytest.raises(ValueError, match='output'):
        onnx_chainer.export(Fn(out), rand(2))


class NoConverter(chainer.FunctionNode):

    def forward(self, inputs):
        return inputs[0] * 2,


def test_unsupported_function(tmp_path):
    model = Fn(lambda x: F.relu(NoConverter().apply((x,))[0]))
    path = str(tmp_path / 'model.onnx')
    with pytest.raises(ValueError) as e:
        onnx_chainer.export(model, rand(2), filename=path, save_text=True,
                            opset_version=13, no_testcase=True)
    assert 'NoConverter' in str(e.value) and 'opset 13' in str(e.value)
    assert os.listdir(str(tmp_path)) == []


def test_args_of_a_wrong_type():
    with pytest.raises(ValueError, match='args'):
        onnx_chainer.export(Model(), 3)


def test_write_file(tmp_path):
    path = str(tmp_path / 'model.onnx')
    m = onnx_chainer.export(Model(), rand(1, 3), filename=path,
                            save_text=True, graph_name='MLP',
                            no_testcase=True)
    assert sorted(os.listdir(str(tmp_path))) == ['model.onnx',
                                                  'model.onnx.txt']
    assert onnx.load(path) == m
    assert 'MLP' in open(path + '.txt').read()


def test_write_file_object():
    f = io.BytesIO()
    m = onnx_chainer.export(Model(), rand(1, 3), filename=f,
                            no_testcase=True)
    assert onnx.load_from_string(f.getvalue()) == m


def test_write_file_without_testcase_deprecated(tmp_path):
    path = str(tmp_path / 'model.onnx')
    with pytest.warns(DeprecationWarning, match='Use export_testcase'):
        onnx_chainer.export(Model(), rand(1, 3), filename=path)
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        onnx_chainer.export(Model(), rand(1, 3), filename=path,
                            no_testcase=True)
        onnx_chainer.export(Model(), rand(1, 3))
        onnx_chainer.export_testcase(Model(), rand(1, 3),
                                     str(tmp_path / 'case'))


def test_missing_folder(tmp_path):
    with pytest.raises(FileNotFoundError):
        onnx_chainer.export(Model(), rand(1, 3),
                            filename=str(tmp_path / 'no' / 'model.onnx'),
                            no_testcase=True)


def test_export_params_false():
    model = Model()
    x = rand(2, 3)
    m = onnx_chainer.export(model, x, export_params=False)
    assert len(m.graph.initializer) == 0
    names = [i.name for i in m.graph.input]
    assert names == ['Input_0', 'param_l1_W', 'param_l1_b', 'param_l2_W',
                     'param_l2_b']
    feeds = {'Input_0': x}
    feeds.update({'param' + path.replace('/', '_'): p.array
                  for path, p in model.namedparams()})
    got = test_onnxruntime.run(m, feeds)
    numpy.testing.assert_allclose(got['LinearFunction_1'], model(x).array,
                                  rtol=1e-5, atol=1e-6)


def test_return_named_inout():
    x = chainer.Variable(rand(1, 3))
    m, inputs, outputs = onnx_chainer.export(Model(), x,
                                             return_named_inout=True)
    assert list(inputs) == ['Input_0'] and inputs['Input_0'] is x
    assert list(outputs) == ['LinearFunction_1']


def test_the_same_input_twice():
    x = chainer.Variable(rand(2, 3))
    m = check(Fn(lambda a, b: a * b), (x, x))
    assert [i.name for i in m.graph.input] == ['Input_0']


class ImplicitInputs(chainer.Chain):

    def __init__(self):
        super().__init__()
        self.frac = chainer.Parameter(numpy.array(2, numpy.float32))
        self.shift = numpy.array([1, 2, 3], numpy.float32)

    def forward(self, x):
        h = x / self.frac + self.shift
        return h * chainer.Variable(numpy.array(3, numpy.float32))


def test_implicit_inputs():
    # A Parameter outside init_scope, an array attribute and a temporary
    # Variable become initializers.
    m = check(ImplicitInputs(), rand(2, 3))
    assert len(m.graph.initializer) == 3


def test_uninitialized_parameter_warns():
    model = Fn(lambda m, x: m.l1(x), l1=L.Linear(None, 3),
               l2=L.Linear(None, 3))
    with pytest.warns(UserWarning, match='/l2/W is not initialized|l2_W'):
        m = onnx_chainer.export(model, rand(1, 4))
    assert [t.name for t in m.graph.initializer] == ['param_l1_W',
                                                     'param_l1_b']


def test_the_model_is_left_as_it_was():
    bn = L.BatchNormalization(3)
    model = Fn(lambda m, x: m.bn(x), bn=bn)
    onnx_chainer.export(model, rand(4, 3), train=True)
    assert (bn.avg_mean == 0).all() and (bn.avg_var == 1).all()


@pytest.mark.parametrize('shapes', [
    ('b', 3, 8, 8), [('b', 3, 8, 8)], [('b', 3, None, 'w')]])
def test_input_shapes(shapes):
    model = Fn(lambda m, x: F.relu(m.conv(x)),
               conv=L.Convolution2D(3, 2, 3, pad=1))
    m = onnx_chainer.export(model, rand(2, 3, 8, 8), input_shapes=shapes)
    dim = m.graph.input[0].type.tensor_type.shape.dim[0]
    assert dim.dim_param == 'b'
    out = m.graph.output[0].type.tensor_type.shape.dim
    assert out[0].dim_param == 'b' and out[1].dim_value == 2
    x = rand(5, 3, 8, 8)  # another batch size
    got = test_onnxruntime.run(m, {'Input_0': x})['ReLU_0']
    numpy.testing.assert_allclose(got, model(x).array, rtol=1e-5, atol=1e-6)


def test_input_shapes_by_key():
    model = Fn(lambda x, y: x + y)
    args = {'x': rand(2, 3), 'y': rand(2, 3)}
    m = onnx_chainer.export(model, args,
                            input_shapes={'y': ('n', 3), 'x': ('n', 3)})
    assert [i.type.tensor_type.shape.dim[0].dim_param
            for i in m.graph.input] == ['n', 'n']


@pytest.mark.parametrize('args,shapes', [
    (rand(10, 5), '?'),
    (rand(10, 5), ('?', 5, 5)),
    (rand(10, 5), [('?', 5), ('?', 5)]),
    ((rand(10, 5), rand(10, 5)), [('?', 5), ('?', 5), ('?', 5)]),
    ((rand(10, 5), rand(10, 5)), [('?', 5), ('?', 5, 5)]),
    ({'a': rand(10, 5), 'b': rand(10, 5)}, {'a': ('?', 5), 'c': ('?', 5)}),
    ({'a': rand(10, 5), 'b': rand(10, 5)}, [('?', 5)]),
])
def test_input_shapes_errors(args, shapes):
    with pytest.raises(ValueError, match='input_shapes'):
        onnx_chainer.export(Fn(lambda *xs, **kw: F.relu(
            (list(xs) + list(kw.values()))[0])), args, input_shapes=shapes)


def test_external_converter_overrides():
    def as_tanh(params):
        return onnx_chainer.onnx_helper.make_node(
            'Tanh', params.input_names, params.output_names),

    x = rand(2, 3)
    m = onnx_chainer.export(Fn(F.sigmoid), x,
                            external_converters={'Sigmoid': as_tanh})
    got = test_onnxruntime.run(m, {'Input_0': x})
    numpy.testing.assert_allclose(got['Sigmoid_0'], numpy.tanh(x), rtol=1e-6)


def test_external_converter_custom_op():
    def custom(params):
        return onnx_chainer.onnx_helper.make_node(
            'Custom', params.input_names, params.output_names,
            domain='my.domain'),

    model = Fn(lambda x: NoConverter().apply((x,))[0])
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        m = onnx_chainer.export(model, rand(2),
                                external_converters={'NoConverter': custom},
                                external_opset_imports={'my.domain': 1})
    assert m.graph.node[0].domain == 'my.domain'
    assert {(o.domain, o.version) for o in m.opset_import} == {
        ('', LATEST), ('my.domain', 1)}
    # an operator of the standard domain the checker does not know: a
    # warning
    del custom
    with pytest.warns(UserWarning, match='checker'):
        onnx_chainer.export(model, rand(2), external_converters={
            'NoConverter': lambda p: onnx_chainer.onnx_helper.make_node(
                'Custom', p.input_names, p.output_names)})


def test_converter_params():
    seen = {}

    def spy(params):
        seen.update(vars(params))
        return onnx_chainer.onnx_helper.make_node(
            'Relu', params.input_names, params.output_names),

    onnx_chainer.export(Fn(F.relu), rand(2, 3), opset_version=11,
                        external_converters={'ReLU': spy})
    assert seen['opset_version'] == 11
    assert seen['input_names'] == ['Input_0']
    assert seen['output_names'] == ['ReLU_0']
    assert type(seen['func']).__name__ == 'ReLU'
    assert seen['in_shapes'] == ((2, 3),)


def test_context_add_param_and_const():
    def conv(params):
        ctx = params.context
        w = ctx.add_param(numpy.full(3, 2, numpy.float32), 'w')
        c = ctx.add_const(numpy.full(3, 1, numpy.float32), 'c')
        gb = onnx_chainer.onnx_helper.GraphBuilder()
        t = gb.op('Mul', [params.input_names[0], w])
        gb.op_output_named('Add', [t, c], params.output_names)
        return gb.nodes()

    x = rand(2, 3)
    m = onnx_chainer.export(Fn(F.relu), x, external_converters={
        'ReLU': conv})
    assert [t.name for t in m.graph.initializer] == ['ReLU_0_param_w']
    assert m.graph.node[0].output[0] == 'ReLU_0_const_c'
    got = test_onnxruntime.run(m, {'Input_0': x})['ReLU_0']
    numpy.testing.assert_allclose(got, x * 2 + 1, rtol=1e-6)


def test_retain_input_hook():
    class Stack(chainer.Chain):
        def forward(self, x):
            xs = [chainer.as_variable(x)]
            xs.append(chainer.Variable(numpy.array(7, numpy.float32)))
            return F.stack(xs)

    x = numpy.array(3, numpy.float32)
    with RetainInputHook() as hook:
        Stack()(chainer.Variable(x))
    assert len(hook.retain_inputs) == 1  # the link's input is not kept
    with RetainInputHook() as hook:
        Stack()(x)
    assert len(hook.retain_inputs) == 2  # an array input is
    assert [type(f).__name__ for f, _ in hook.calls] == ['Stack']


class LegacyTwice(chainer.Function):

    def forward(self, inputs):
        return inputs[0] * 2,


def test_legacy_function_by_its_class_name():
    def twice(params):
        gb = onnx_chainer.onnx_helper.GraphBuilder()
        two = gb.const(numpy.array(2, numpy.float32))
        gb.op_output_named('Mul', [params.input_names[0], two],
                           params.output_names)
        return gb.nodes()

    check(Fn(lambda x: LegacyTwice()(x)), rand(2, 3),
          external_converters={'LegacyTwice': twice})
