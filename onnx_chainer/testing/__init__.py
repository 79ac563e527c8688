"""Helpers for testing exports: inputs, test cases, onnxruntime checks."""

from onnx_chainer.testing import input_generator  # NOQA
