import os
import sys

try:
    import onnx  # NOQA
    import onnxruntime  # NOQA
except ImportError:  # the [onnx] extra is not installed
    collect_ignore_glob = ['test_*.py', 'functions/test_*.py']

# Lets the test modules import onnx_harness.py.
sys.path.insert(0, os.path.dirname(__file__))
