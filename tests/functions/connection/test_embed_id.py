import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op

IDS = numpy.array([[0, 2], [3, -1], [2, 2]], numpy.int32)


@pytest.mark.parametrize('ignore_label', [None, -1])
def test_embed_id(ignore_label):
    ids = IDS if ignore_label is not None else numpy.abs(IDS)

    def ref(W):
        y = W[numpy.where(ids == -1, 0, ids)]
        if ignore_label is not None:
            y[ids == ignore_label] = 0
        return y

    check_op(lambda W: F.embed_id(ids, W, ignore_label),
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
    # Chainer checks ids in debug mode only; on the CPU it is always done
    for ids in ([0, 5], [-3, 0]):
        with pytest.raises(ValueError, match='0 <= x < len\\(W\\)'):
            F.embed_id(numpy.array(ids), W)


def test_debug_mode_checks_ids():
    W = numpy.zeros((3, 2), numpy.float32)
    with chainer.using_config('debug', True):
        for ids in ([7], [-2]):
            with pytest.raises(ValueError, match='0 <= x < len\\(W\\)'):
                F.embed_id(numpy.array(ids, numpy.int32), W)
        y = F.embed_id(numpy.array([-1, 2], numpy.int32), W, ignore_label=-1)
        assert y.shape == (2, 2)
