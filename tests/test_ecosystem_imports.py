"""The libraries built on Chainer install on top of chainer-ng and find the
chainer names they use.

The lists below are every chainer name that the sources of chainercv 0.13.1,
chainerrl 0.8.0, chainer-chemistry 0.7.1 and chainerui 0.11.0 import or reach
as an attribute path (CuPy-only paths and Chainer's Windows-only
``training.extensions.util.erase_console`` left out), so these tests check them
without those libraries installed. The packaging tests need the project
installed as the ``chainer`` distribution and skip otherwise.
"""

import fnmatch
import importlib
import os
import subprocess
import sys
import unittest
import warnings
from importlib import metadata

import numpy
import pytest

import chainer
from chainer import testing

# ``module: name name ...``: each name an attribute of the module (or its
# submodule), as the library reaches it.
NAMES = {
    'chainercv': '''
chainer: Chain ChainList Link Sequential Variable as_variable backends config
    cuda dataset function functions initializer initializers links
    no_backprop_mode reporter serializers testing training using_config utils
    variable
chainer.backends: cuda
chainer.backends.cuda: available elementwise get_array_module
    get_device_from_array to_cpu to_gpu
chainer.config: train
chainer.configuration: global_config
chainer.cuda: get_array_module to_cpu to_gpu
chainer.dataset: DatasetMixin dataset_mixin download
chainer.dataset.dataset_mixin: DatasetMixin
chainer.dataset.download: get_dataset_directory get_dataset_root
chainer.function: Function no_backprop_mode
chainer.functions: absolute average average_pooling_2d broadcast_to concat
    dropout flatten huber_loss identity leaky_relu local_response_normalization
    max max_pooling_2d normalize relu reshape resize_images
    roi_average_align_2d roi_pooling_2d sigmoid sigmoid_cross_entropy softmax
    softmax_cross_entropy square sum transpose unpooling_2d upsampling_2d
chainer.initializer: Initializer
chainer.initializers: Constant GlorotNormal HeNormal LeCunUniform Normal
    Uniform Zero _get_initializer constant normal
chainer.initializers.constant: Zero
chainer.initializers.normal: Normal
chainer.links: BatchNormalization Convolution2D Deconvolution2D
    DilatedConvolution2D Linear
chainer.reporter: report report_scope
chainer.serializers: load_npz
chainer.testing: parameterize product product_dict run_module
chainer.testing.attr: _dummy_callable check_available gpu slow
chainer.training: Extension PRIORITY_WRITER extension extensions
chainer.training.Extension: priority
chainer.training.extension: Extension
chainer.training.extensions: Evaluator
chainer.utils: collections_abc type_check
chainer.utils.collections_abc: Iterable
chainer.utils.type_check: expect
chainer.variable: Parameter
''',
    'chainerrl': '''
chainer: Chain ChainList Function FunctionNode Link Optimizer Parameter
    Sequential Variable computational_graph config cuda dataset datasets
    force_backprop_mode function function_node functions grad initializer
    iterators links no_backprop_mode optimizer optimizers serializers
    using_config utils variable
chainer.backends: cuda
chainer.backends.cuda: get_array_module
chainer.computational_graph: build_computational_graph
chainer.config: train
chainer.cuda: Device available elementwise get_array_module
    get_device_from_array get_device_from_id to_cpu to_gpu
chainer.dataset: concat_examples
chainer.dataset.download: get_dataset_directory get_dataset_root
chainer.datasets: open_pickle_dataset_writer
chainer.function: Function
chainer.function_node: FunctionNode
chainer.functions: absolute broadcast broadcast_to clip concat exp
    expand_dims flatten gaussian huber_loss linear log log_softmax logsumexp
    matmul maximum mean mean_squared_error minimum relu reshape scale
    select_item softmax softplus split_axis square squeeze sum tanh
chainer.functions.rnn.n_step_lstm: _lstm
chainer.initializer: Initializer get_fans
chainer.initializers: Constant LeCunNormal LeCunUniform
chainer.iterators: SerialIterator
chainer.link: Link
chainer.Link: _device_id
chainer.links: BatchNormalization Convolution2D LSTM Linear NStepGRU
    NStepLSTM NStepRNNReLU NStepRNNTanh
chainer.optimizer: GradientMethod Hyperparameter HyperparameterProxy
    UpdateRule
chainer.optimizers: Adam
chainer.serializers: NpzDeserializer load_npz save_npz
chainer.utils: force_array type_check
chainer.utils.type_check: _argname expect
chainer.variable: VariableNode
''',
    'chainer_chemistry': '''
chainerx
chainer: Chain ChainList Link LinkHook Optimizer Parameter Variable
    __version__ _backend _get_link_hooks as_variable backends cuda dataset
    datasets distributions function function_node functions get_device grad
    initializers iterators link links no_backprop_mode optimizers reporter
    serializers training using_config utils
chainer._backend: Device
chainer.backend: get_array_module
chainer.backends: cuda
chainer.backends.cuda: get_array_module to_cpu
chainer.cuda: get_array_module get_device_from_array ndarray to_cpu to_gpu
chainer.dataset: Iterator concat_examples convert converter download
    iterator
chainer.dataset.convert: _concat_arrays _concat_arrays_with_padding
    concat_examples to_device
chainer.dataset.download: cached_download get_dataset_directory
chainer.dataset.iterator: Iterator
chainer.datasets: TupleDataset
chainer.distributions: Normal
chainer.function: Function
chainer.function_node: FunctionNode
chainer.functions: absolute argmax batch_matmul binary_accuracy
    broadcast_to concat copy dropout exp expand_dims identity leaky_relu
    local_convolution_2d log matmul max mean mean_squared_error pad_sequence
    relu reshape scatter_add separate sigmoid sigmoid_cross_entropy sign
    softmax softplus sparse_matmul split_axis sqrt stack sum tanh transpose
    where
chainer.functions.evaluation: accuracy
chainer.functions.evaluation.accuracy: accuracy
chainer.functions.loss: softmax_cross_entropy
chainer.functions.loss.softmax_cross_entropy: softmax_cross_entropy
chainer.initializers: Normal
chainer.iterators: SerialIterator
chainer.link: Chain
chainer.link_hook: _ForwardPostprocessCallbackArgs
    _ForwardPreprocessCallbackArgs
chainer.links: BatchNormalization EmbedID GRU LayerNormalization Linear
    NStepLSTM
chainer.optimizers: Adam
chainer.reporter: report report_scope
chainer.serializers: load_npz
chainer.training: StandardUpdater Trainer extension extensions updaters
chainer.training.extension: Extension
chainer.training.extensions: Evaluator LogReport PrintReport ProgressBar
    log_report util
chainer.training.extensions.log_report: LogReport
chainer.training.updaters: StandardUpdater
chainer.utils: CooMatrix type_check
chainer.utils.type_check: expect
''',
    'chainerui': '''
chainer: Variable cuda
chainer.cuda: to_cpu
chainer.serializers: npz
chainer.serializers.npz: save_npz
chainer.training: extension trigger
chainer.training.extension: Extension PRIORITY_READER
chainer.training.trigger: get_trigger
chainer.training.triggers: IntervalTrigger
''',
}


def _paths(text):
    # 'mod: a b' gives 'mod.a', 'mod.b'; a word before any 'mod:' is a
    # module imported as it is.
    words = text.replace(':', ' :').split()
    paths, owner = [], None
    for i, word in enumerate(words):
        if word == ':':
            continue
        if i + 1 < len(words) and words[i + 1] == ':':
            owner = word
        else:
            paths.append(word if owner is None else owner + '.' + word)
    return paths


def _resolve(path):
    # As the library gets there: attributes from the top package down,
    # importing a submodule where the attribute is not bound yet.
    parts = path.split('.')
    obj = importlib.import_module(parts[0])
    for i, part in enumerate(parts[1:], 1):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            obj = importlib.import_module('.'.join(parts[:i + 1]))
    return obj


@pytest.mark.parametrize('library', sorted(NAMES))
def test_names_resolve(library):
    missing = []
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        for path in _paths(NAMES[library]):
            try:
                _resolve(path)
            except (ImportError, AttributeError) as e:
                missing.append('{} ({})'.format(path, e))
    assert not missing, '{} misses: {}'.format(library, ', '.join(missing))


def test_paths_parse():
    paths = _paths('x.y\na.b: c d\n    e\nf: g\n')
    assert paths == ['x.y', 'a.b.c', 'a.b.d', 'a.b.e', 'f.g']
    with pytest.raises(ImportError):
        _resolve('chainer.no_such_module_here')


def test_private_modules_bound_at_import():
    # chainer-chemistry reaches chainer._backend after a bare import chainer;
    # a fresh interpreter shows whether the package binds it by itself.
    root = os.path.dirname(os.path.dirname(os.path.abspath(chainer.__file__)))
    code = ('import sys; sys.path.append({!r}); '
            'import chainer, chainer.backend as b; '
            'assert chainer._backend.Device is b.Device'.format(root))
    subprocess.run([sys.executable, '-c', code], check=True)


# --- the private names, doing what the libraries expect -------------------

def test_backend_convert_arrays():
    from chainer import _backend
    a, b = numpy.zeros(2), numpy.ones(3)
    assert _backend._convert_arrays(a, lambda x: x + 1)[0] == 1
    seen = []

    def f(x):
        seen.append(x)
        return x.copy()

    out = _backend._convert_arrays([a, None, a, b], f)
    assert type(out) is list and out[1] is None
    assert out[0] is out[2] and out[0] is not a  # shared arrays stay shared
    assert len(seen) == 2
    assert type(_backend._convert_arrays((a,), f)) is tuple
    assert isinstance(chainer.get_device('@numpy'), _backend.Device)


def test_concat_arrays():
    from chainer.dataset.convert import (_concat_arrays,
                                         _concat_arrays_with_padding)
    arrays = [numpy.arange(2), numpy.arange(3)]
    padded = _concat_arrays_with_padding(arrays, padding=-1)
    numpy.testing.assert_array_equal(padded, [[0, 1, -1], [0, 1, 2]])
    numpy.testing.assert_array_equal(_concat_arrays(arrays, -1), padded)
    stacked = _concat_arrays([numpy.zeros((2, 3))] * 4, None)
    assert stacked.shape == (4, 2, 3)
    labels = _concat_arrays([1, 0, 2], None)
    assert labels.shape == (3,) and labels.tolist() == [1, 0, 2]


def test_lstm_step_matches_n_step_lstm():
    # chainerrl runs an NStepLSTM one step at a time with _lstm.
    from chainer.functions.rnn.n_step_lstm import _lstm
    lstm = chainer.links.NStepLSTM(1, 3, 4, 0.0)
    x = numpy.random.uniform(-1, 1, (2, 3)).astype(numpy.float32)
    h = numpy.random.uniform(-1, 1, (2, 4)).astype(numpy.float32)
    c = numpy.random.uniform(-1, 1, (2, 4)).astype(numpy.float32)
    hy, cy, ys = lstm(h[None], c[None], [x[:1], x[1:]])
    h1, c1 = _lstm(x, h, c, lstm.ws[0], lstm.bs[0])
    numpy.testing.assert_allclose(h1.array, hy.array[0], rtol=1e-6)
    numpy.testing.assert_allclose(c1.array, cy.array[0], rtol=1e-6)
    gx, = chainer.grad([chainer.functions.sum(h1)], [lstm.ws[0][0]])
    assert gx.shape == lstm.ws[0][0].shape


def test_link_device_id():
    link = chainer.links.Linear(2, 3)
    with pytest.warns(DeprecationWarning):
        assert link._device_id is None


def test_dummy_callable():
    from chainer.testing import attr

    def f():
        pass

    assert attr._dummy_callable(f) is f


# --- packaging --------------------------------------------------------------

def _distribution():
    try:
        dist = metadata.distribution('chainer')
    except metadata.PackageNotFoundError:
        pytest.skip('chainer-ng is not installed as the chainer distribution')
    return dist


def test_version():
    assert chainer.__version__ == '8.0.0'
    assert _distribution().version == chainer.__version__


def test_runtime_dependencies():
    requires = [r.split(';')[0] for r in _distribution().requires or []]
    names = {r.split('>')[0].split('<')[0].split('=')[0].split('[')[0]
             .strip().lower().replace('-', '_') for r in requires}
    assert {'numpy', 'six', 'filelock', 'typing_extensions',
            'protobuf'} <= names
    for module in ('six', 'filelock', 'typing_extensions', 'google.protobuf'):
        importlib.import_module(module)


def test_with_requires_chainer():
    _distribution()

    class Case(unittest.TestCase):
        @testing.with_requires('chainer>=5')
        def test(self):
            pass

    result = unittest.TestResult()
    Case('test').run(result)
    assert result.testsRun == 1 and not result.skipped
    assert not result.failures and not result.errors


_PYPROJECT = os.path.join(os.path.dirname(__file__), '..', 'pyproject.toml')


def _pyproject():
    tomllib = pytest.importorskip('tomllib')
    if not os.path.exists(_PYPROJECT):
        pytest.skip('no pyproject.toml beside the tests')
    with open(_PYPROJECT, 'rb') as f:
        return tomllib.load(f)


def test_pyproject():
    config = _pyproject()
    project = config['project']
    assert project['name'] == 'chainer'
    assert config['tool']['setuptools']['dynamic']['version'] == {
        'attr': 'chainer._version.__version__'}
    extras = project['optional-dependencies']
    assert {'scipy', 'h5py', 'matplotlib', 'tqdm', 'graphviz',
            'Pillow'} <= set(extras['all'])
    for extra in ('cuda', 'test', 'examples'):
        assert extra in extras
    include = config['tool']['setuptools']['packages']['find']['include']
    for package in ('chainer', 'chainer.functions', 'chainerx', 'chainermn',
                    'onnx_chainer', 'onnx_chainer.functions'):
        assert any(fnmatch.fnmatch(package, p) for p in include), package
