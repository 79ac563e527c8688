"""``export_testcase``: a model with the inputs and outputs of one run."""

import os
import shutil
import tempfile

import chainer
from onnx_chainer import onnx_helper
from onnx_chainer.export import _write
from onnx_chainer.export import export

_DATA = 'test_data_set_0'


def _gradients(model, outputs):
    """The gradients of the sum of the outputs for the model's parameters,
    as ``[(name, array)]``."""
    ys = [y for y in outputs if y.dtype.kind == 'f']
    if not ys or not isinstance(model, chainer.Link):
        raise ValueError('export_testcase: output_grad needs a Link with a '
                         'float output')
    model.cleargrads()
    loss = chainer.functions.sum(ys[0])
    for y in ys[1:]:
        loss = loss + chainer.functions.sum(y)
    loss.backward()
    grads = []
    for path, param in model.namedparams():
        if param.array is None:
            continue
        if param.grad is None:
            raise ValueError(
                'export_testcase: the parameter {} got no gradient: backward '
                'did not reach it (a function wrapped by fake_as_funcnode '
                'that returns arrays cuts the graph)'.format(path))
        grads.append((onnx_helper.cleanse_param_name(path), param.grad))
    return grads


def export_testcase(model, args, out_dir, output_grad=False, **kwargs):
    """Exports a model and the inputs and outputs of its run as an ONNX
    test case.

    Writes ``out_dir/model.onnx`` and, in ``out_dir/test_data_set_0``,
    ``input_<n>.pb`` and ``output_<n>.pb`` (TensorProtos named as the graph's
    inputs and outputs); with ``output_grad``, also ``gradient_<n>.pb``, the
    gradients of the sum of the outputs for each parameter of the model
    (named as its initializer). Nothing is written when the export fails.

    Args:
        model (~chainer.Chain): The model.
        args: Its arguments, as for :func:`~onnx_chainer.export`.
        out_dir (str): The folder to write to (made if missing).
        output_grad (bool): Also write the gradients.
        **kwargs: Arguments of :func:`~onnx_chainer.export` (``filename``
            and ``return_named_inout`` are set here).
    """
    for key in ('filename', 'return_named_inout', 'no_testcase'):
        kwargs.pop(key, None)
    onnx_model, inputs, outputs = export(
        model, args, filename=None, return_named_inout=True, **kwargs)
    grads = _gradients(model, list(outputs.values())) if output_grad else []

    tensors = [('input_{}'.format(i), name, v.array)
               for i, (name, v) in enumerate(inputs.items())]
    tensors += [('output_{}'.format(i), name, v.array)
                for i, (name, v) in enumerate(outputs.items())]
    tensors += [('gradient_{}'.format(i), name, g)
                for i, (name, g) in enumerate(grads)]

    # The case is written to a temporary folder beside out_dir, then moved
    # in: a failing write leaves no part of it.
    out_dir = os.path.abspath(out_dir)
    parent = os.path.dirname(out_dir)
    os.makedirs(parent, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix='.tmp-' + os.path.basename(out_dir) + '-',
                           dir=parent)
    try:
        os.mkdir(os.path.join(tmp, _DATA))
        for file_name, name, array in tensors:
            onnx_helper.write_tensor_pb(
                os.path.join(tmp, _DATA, file_name + '.pb'), name,
                onnx_helper.to_numpy(array))
        _write(os.path.join(tmp, 'model.onnx'), onnx_model, False)
        if not os.path.exists(out_dir):
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o777 & ~umask)  # mkdtemp's is 0o700
            os.replace(tmp, out_dir)
            return
        os.makedirs(os.path.join(out_dir, _DATA), exist_ok=True)
        for file_name in [_DATA + '/' + t[0] + '.pb' for t in tensors] + [
                'model.onnx']:
            os.replace(os.path.join(tmp, file_name),
                       os.path.join(out_dir, file_name))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
