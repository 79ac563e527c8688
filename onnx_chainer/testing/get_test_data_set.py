"""Writing an export as a test case under a folder per opset."""

import os

from onnx_chainer.export_testcase import export_testcase

# Where gen_test_data_set writes (``ONNX_CHAINER_TEST_OUT`` overrides it).
TEST_OUT_DIR = os.environ.get('ONNX_CHAINER_TEST_OUT', 'out')


def gen_test_data_set(model, args, name, opset_version, **kwargs):
    """Exports ``model`` as the test case ``<out>/opset<N>/<name>`` and
    returns that folder."""
    path = os.path.join(TEST_OUT_DIR, 'opset{}'.format(opset_version), name)
    export_testcase(model, args, path, opset_version=opset_version, **kwargs)
    return path
