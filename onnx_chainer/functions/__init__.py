"""The converters of chainer-ng's FunctionNodes, by class name.

:data:`converters` maps a FunctionNode's class name (or the name given to
:func:`~onnx_chainer.replace_func.as_funcnode`) to its converter.
"""

from onnx_chainer.functions._base import converters  # NOQA
from onnx_chainer.functions import activation  # NOQA
from onnx_chainer.functions import array  # NOQA
from onnx_chainer.functions import connection  # NOQA
from onnx_chainer.functions import loss  # NOQA
from onnx_chainer.functions import math  # NOQA
from onnx_chainer.functions import noise  # NOQA
from onnx_chainer.functions import normalization  # NOQA
from onnx_chainer.functions import pooling  # NOQA
from onnx_chainer.functions import rnn  # NOQA
