"""onnx_chainer: exports chainer-ng models to ONNX.

:func:`export` runs a model once and converts the graph it recorded;
:func:`export_testcase` also writes the inputs and outputs of that run, the
layout of the ONNX test cases. The opsets written are
:data:`MINIMUM_OPSET_VERSION` to :data:`MAXIMUM_OPSET_VERSION`.
"""

try:
    import onnx  # NOQA
except ImportError as e:  # pragma: no cover
    raise ImportError(
        'onnx_chainer needs the onnx package: pip install "chainer[onnx]"'
    ) from e

from onnx_chainer import functions  # NOQA
from onnx_chainer import onnx_helper  # NOQA
from onnx_chainer import replace_func  # NOQA
from onnx_chainer.export import convert_parameter  # NOQA
from onnx_chainer.export import export  # NOQA
from onnx_chainer.export import MAXIMUM_OPSET_VERSION  # NOQA
from onnx_chainer.export import MINIMUM_OPSET_VERSION  # NOQA
from onnx_chainer.export_testcase import export_testcase  # NOQA
