import doctest
import importlib

import pytest


@pytest.mark.parametrize('name', [
    'onnx_chainer.export', 'onnx_chainer.graph', 'onnx_chainer.onnx_helper',
    'onnx_chainer.replace_func', 'onnx_chainer.testing.input_generator'])
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0
