"""Mixed precision helpers."""

import functools

import numpy


def _fp16_mixed_precision_helper(fn):
    """Decorator to perform computation in FP32 for FP16 inputs/outputs.

    It wraps a ``forward(self, inputs)`` method: float16 inputs are cast to
    float32 before the call. When every float input was float16, the
    float32 outputs are cast back to float16. Float32/64 inputs pass
    unchanged.
    """
    @functools.wraps(fn)
    def wrapper(self, in_data):
        all_fp16 = all(x is None or x.dtype.kind != 'f' or
                       x.dtype == numpy.float16 for x in in_data)
        in_data = tuple(
            x.astype(numpy.float32)
            if x is not None and x.dtype == numpy.float16 else x
            for x in in_data)
        out_data = fn(self, in_data)
        if all_fp16:
            out_data = tuple(
                y.astype(numpy.float16)
                if y is not None and y.dtype == numpy.float32 else y
                for y in out_data)
        return out_data
    return wrapper
