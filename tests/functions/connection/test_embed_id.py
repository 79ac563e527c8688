import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op, on_device

IDS = numpy.array([[0, 2], [3, -1], [2, 2]], numpy.int32)


@pytest.mark.parametrize('ignore_label', [None, -1])
def test_embed_id(ignore_label):
    ids = IDS if ignore_label is not None else numpy.abs(IDS)

    def ref(W):
        y = W[numpy.where(ids == -1, 0, ids)]
        if ignore_label is not None:
            y[ids == ignore_label] = 0
        return y

    check_op(lambda W: F.embed_id(on_device(ids), W, ignore_label),
             lambda rng, dt: (rng.uniform(-1, 1, (4, 3)).astype(dt),), ref)


def test_gradient_accumulates_repeated_ids():
    import chainer
    W = chainer.Variable(numpy.zeros((4, 2), numpy.float32))
    F.sum(F.embed_id(IDS, W, ignore_label=-1)).backward()
    numpy.testing.assert_array_equal(W.grad[:, 0], [1, 0, 3, 1])
    assert type(F.embed_id(IDS, W, -1).creator).__name__ == 'EmbedIDFunction'


def test_errors():
    W = numpy.ones((3, 4), numpy.float32)
    with pytest.raises(InvalidType, match=r'in_types\[0\]\.dtype\.kind == i'):
        F.embed_id(numpy.array([0., 1.]), W)
    # Out of debug mode an id past the end fails as NumPy's indexing fails
    # in Chainer, in NumPy's words; a negative id (which indexing would
    # take from the end) gets the debug mode's error, not a wrong row
    with pytest.raises(IndexError, match=r'^index 5 is out of bounds for '
                       r'axis 0 with size 3$'):
        F.embed_id(numpy.array([[0, 5], [7, 1]]), W)
    with pytest.raises(IndexError, match=r'^index 4 is out'):
        F.embed_id(numpy.array([4, -1]), W, ignore_label=-1)
    for ids in ([-3, 0], [-4, 9]):
        with pytest.raises(ValueError,
                           match=r'^Each not ignored `x` value need to '
                           r'satisfy `0 <= x < len\(W\)`$'):
            F.embed_id(numpy.array(ids), W)


def test_debug_mode_checks_ids():
    W = numpy.zeros((3, 2), numpy.float32)
    with chainer.using_config('debug', True):
        for ids in ([7], [-2]):
            with pytest.raises(ValueError, match='0 <= x < len\\(W\\)'):
                F.embed_id(numpy.array(ids, numpy.int32), W)
        y = F.embed_id(numpy.array([-1, 2], numpy.int32), W, ignore_label=-1)
        assert y.shape == (2, 2)


def test_weight_used_at_many_steps():
    # The first-order path sums the steps' gradients into one partial sum
    # (backward_accumulate); a gradient from another op joins it.
    rng = numpy.random.RandomState(0)
    W = chainer.Parameter(rng.randn(6, 3).astype(numpy.float32))
    steps = [rng.randint(-1, 6, (4,)).astype(numpy.int32) for _ in range(5)]
    ws = [rng.randn(4, 3).astype(numpy.float32) for _ in range(5)]
    loss = F.sum(W * W)
    for ids, w in zip(steps, ws):
        loss += F.sum(F.embed_id(ids, W, ignore_label=-1) * w)
    loss.backward()
    ref = 2 * W.array.astype(numpy.float64)
    for ids, w in zip(steps, ws):
        for i, row in zip(ids, w):
            if i != -1:
                ref[i] += row
    numpy.testing.assert_allclose(W.grad, ref, rtol=1e-6, atol=1e-6)
    # the same through the graph path (double backprop on)
    W.cleargrad()
    loss = sum(F.sum(F.embed_id(ids, W, ignore_label=-1) * w)
               for ids, w in zip(steps, ws))
    loss.backward(enable_double_backprop=True)
    numpy.testing.assert_allclose(W.grad, ref - 2 * W.array, rtol=1e-6,
                                  atol=1e-6)
