import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# This folder, on sys.path as a namespace package, must not stand for the
# package it tests: the repository's onnx_chainer comes first.
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))
if getattr(sys.modules.get('onnx_chainer'), '__file__', True) is None:
    del sys.modules['onnx_chainer']
# Lets the test modules import onnx_harness.py.
sys.path.insert(0, HERE)

try:
    import onnx  # NOQA
    import onnxruntime  # NOQA
except ImportError:  # the [onnx] extra is not installed
    collect_ignore_glob = ['test_*.py', '*/test_*.py']
