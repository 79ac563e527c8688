"""CUDAProfileHook: NVTX ranges around each function (needs CuPy)."""

from chainer import function_hook
from chainer.function_hooks.cupy_memory_profile import _require_cupy


class CUDAProfileHook(function_hook.FunctionHook):
    """Function hook marking the forward and backward of each function as
    NVTX ranges (named after the function's label), to read in a CUDA
    profiler (nvprof, Nsight Systems).

    Raises RuntimeError when created without CuPy.
    """

    name = 'CUDAProfileHook'

    def __init__(self):
        cupy = _require_cupy('CUDAProfileHook')
        self._nvtx = cupy.cuda.nvtx

    def forward_preprocess(self, function, in_data):
        self._nvtx.RangePush(function.label + '.forward')

    def forward_postprocess(self, function, in_data):
        self._nvtx.RangePop()

    def backward_preprocess(self, function, in_data, out_grad):
        self._nvtx.RangePush(function.label + '.backward')

    def backward_postprocess(self, function, in_data, out_grad):
        self._nvtx.RangePop()
