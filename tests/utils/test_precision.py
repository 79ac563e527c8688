import numpy

from chainer.utils import precision


class _Op:

    @precision._fp16_mixed_precision_helper
    def forward(self, inputs):
        self.seen = [x.dtype for x in inputs]
        return tuple(x * 2 for x in inputs) + (numpy.zeros(1),)


def test_fp16_inputs_compute_in_fp32_and_return_fp16():
    op = _Op()
    out = op.forward((numpy.ones(2, numpy.float16),
                      numpy.ones(2, numpy.int32)))
    assert op.seen == [numpy.float32, numpy.int32]
    assert [y.dtype for y in out] == [numpy.float16, numpy.int32,
                                      numpy.float64]


def test_mixed_inputs_are_not_cast_back():
    op = _Op()
    out = op.forward((numpy.ones(2, numpy.float16),
                      numpy.ones(2, numpy.float32)))
    assert op.seen == [numpy.float32, numpy.float32]
    assert out[0].dtype == numpy.float32


def test_fp32_inputs_pass_unchanged():
    op = _Op()
    x = numpy.ones(2, numpy.float64)
    out = op.forward((x,))
    assert op.seen == [numpy.float64] and out[0].dtype == numpy.float64
