import importlib.util
import os

import numpy

import chainer.functions as F
from op_harness import check_op

_path = os.path.join(os.path.dirname(__file__), 'test_convolution_2d.py')
_spec = importlib.util.spec_from_file_location('_ref_conv2d', _path)
_mod = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_mod)


def test_dilated_convolution_2d():
    def make(rng, dt):
        return (rng.uniform(-1, 1, (2, 2, 6, 5)).astype(dt),
                rng.uniform(-1, 1, (3, 2, 2, 2)).astype(dt),
                rng.uniform(-1, 1, (3,)).astype(dt))

    check_op(lambda x, W, b: F.dilated_convolution_2d(x, W, b, 1, 1, 2, True),
             make, lambda x, W, b: _mod.conv_ref(x, W, b, 1, 1, True, 2),
             fwd_tol=_mod.F16_TOL, bwd_tol=_mod.F16_BWD)
    y = F.dilated_convolution_2d(numpy.ones((1, 1, 5, 5), numpy.float32),
                                 numpy.ones((1, 1, 2, 2), numpy.float32),
                                 dilate=3)
    assert y.shape == (1, 1, 2, 2)
