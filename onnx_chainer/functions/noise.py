"""Converters of the noise functions."""

import numpy

from onnx_chainer.functions._base import converts


@converts('Dropout')
def dropout(p, g):
    # Only a model run in training mode records Dropout (in test mode
    # F.dropout returns its input); ONNX's Dropout is the identity when
    # inferring.
    ratio = float(p.func.dropout_ratio)
    if g.opset >= 12:
        return g.out('Dropout', [p.x, g.scalar(ratio, numpy.float32)])
    g.emit('Dropout', [p.x], out=p.output_names[:1], ratio=ratio)
