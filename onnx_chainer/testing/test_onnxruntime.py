"""Running an exported test case in onnxruntime."""

import glob
import os

import numpy
import onnx
from onnx import numpy_helper


def load_test_data(data_dir, kind):
    """The TensorProtos ``<kind>_<n>.pb`` of a test data folder, in order
    of n, as ``[(name, array)]``."""
    paths = glob.glob(os.path.join(data_dir, '{}_*.pb'.format(kind)))
    paths.sort(key=lambda p: int(p.rsplit('_', 1)[1][:-3]))
    tensors = [onnx.load_tensor(p) for p in paths]
    return [(t.name, numpy_helper.to_array(t)) for t in tensors]


def run(path_or_model, feeds):
    """Runs a model (a path or ModelProto) in onnxruntime on the CPU;
    returns ``{output name: array}``."""
    import onnxruntime
    if isinstance(path_or_model, onnx.ModelProto):
        path_or_model = path_or_model.SerializeToString()
    options = onnxruntime.SessionOptions()
    options.log_severity_level = 3
    session = onnxruntime.InferenceSession(
        path_or_model, options, providers=['CPUExecutionProvider'])
    names = [o.name for o in session.get_outputs()]
    return dict(zip(names, session.run(names, feeds)))


def check_model_expect(test_path, input_names=None, rtol=1e-5, atol=1e-5):
    """Runs ``test_path/model.onnx`` on the inputs of ``test_data_set_0``
    and compares its outputs with the ones stored there.

    Args:
        test_path (str): The test case folder.
        input_names (list of str): The graph inputs to feed (all the inputs
            stored by default); the stored inputs are matched by name.
        rtol, atol (float): Tolerances of the comparison.
    """
    model = onnx.load(os.path.join(test_path, 'model.onnx'))
    data_dir = os.path.join(test_path, 'test_data_set_0')
    inputs = dict(load_test_data(data_dir, 'input'))
    graph_inputs = [i.name for i in model.graph.input]
    if input_names is None:
        input_names = [n for n in graph_inputs if n in inputs]
    feeds = {name: inputs[name] for name in input_names}
    actual = run(model, feeds)
    expected = load_test_data(data_dir, 'output')
    assert len(expected) == len(model.graph.output)
    for (name, want), out in zip(expected, model.graph.output):
        got = actual[out.name]
        assert got.shape == want.shape, (out.name, got.shape, want.shape)
        numpy.testing.assert_allclose(got, want, rtol=rtol, atol=atol,
                                      err_msg=out.name)
