"""The check every onnx_chainer test makes: export, run in onnxruntime,
compare with chainer-ng's own output."""

import numpy

import chainer
import onnx_chainer
from onnx_chainer.graph import RetainInputHook, function_key
from onnx_chainer.testing import test_onnxruntime

LATEST = onnx_chainer.MAXIMUM_OPSET_VERSION
# The opsets where the written form of some op changes, and the newest.
OPSETS = (7, 10, 11, 13, 17, 18, LATEST)


class Fn(chainer.Chain):
    """A model that applies ``fn`` to its inputs (links given are its
    children, so their parameters are named)."""

    def __init__(self, fn, **links):
        super().__init__()
        self.fn = fn
        with self.init_scope():
            for name, link in links.items():
                setattr(self, name, link)

    def forward(self, *xs, **kwargs):
        if self._children:
            return self.fn(self, *xs, **kwargs)
        return self.fn(*xs, **kwargs)


def export_and_run(model, args, opset, train=False, **kwargs):
    """``(ONNX model, chainer outputs, onnxruntime outputs)``."""
    onnx_model, inputs, outputs = onnx_chainer.export(
        model, args, opset_version=opset, train=train,
        return_named_inout=True, **kwargs)
    graph_inputs = {i.name for i in onnx_model.graph.input}
    feeds = {name: chainer.backends.cuda.to_cpu(v.array)
             for name, v in inputs.items() if name in graph_inputs}
    got = test_onnxruntime.run(onnx_model, feeds)
    want = {name: v.array for name, v in outputs.items()}
    return onnx_model, want, got


def check(model, args, opsets=OPSETS, since=7, rtol=1e-5, atol=1e-6,
          train=False, **kwargs):
    """Exports ``model`` at each opset (from ``since``), runs it in
    onnxruntime and compares with the outputs of chainer-ng."""
    done = []
    for opset in sorted(set(opsets) | {since}):
        if opset < since:
            continue
        onnx_model, want, got = export_and_run(model, args, opset, train,
                                               **kwargs)
        assert list(got) == list(want)
        for name in want:
            assert got[name].dtype == want[name].dtype, name
            numpy.testing.assert_allclose(
                got[name], want[name], rtol=rtol, atol=atol,
                err_msg='{} at opset {}'.format(name, opset))
        done.append(opset)
    assert done
    return onnx_model


def keys_applied(model, args):
    """The FunctionNode names a model's forward applies."""
    if not isinstance(args, (list, tuple)):
        args = (args,)
    with RetainInputHook() as hook:
        model(*args)
    return {function_key(f) for f, _ in hook.calls}


def rand(*shape, dtype=numpy.float32, scale=1.0):
    return numpy.asarray(numpy.random.randn(*shape) * scale, dtype=dtype)
