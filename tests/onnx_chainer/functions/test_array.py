import numpy
import pytest

import chainer.functions as F
import onnx_chainer
from onnx_harness import Fn, check, rand

X = (2, 3, 4)

# name: (function, input shapes, first opset)
CASES = {
    'reshape': (lambda x: F.reshape(x, (4, -1)), [X], 7),
    'reshape_zero': (lambda x: F.reshape(x, (0, 3)), [(0, 3, 1)], 7),
    'flatten': (lambda x: F.flatten(x), [X], 7),
    'transpose': (lambda x: F.transpose(x), [X], 7),
    'transpose_axes': (lambda x: F.transpose(x, (1, 0, 2)), [X], 7),
    'swapaxes': (lambda x: F.swapaxes(x, -3, -1), [X], 7),
    'moveaxis': (lambda x: F.moveaxis(x, (0, 2), (2, 0)), [(2, 3, 4, 5)], 7),
    'moveaxis_one': (lambda x: F.moveaxis(x, 0, -1), [(2, 3, 4, 5)], 7),
    'rollaxis': (lambda x: F.rollaxis(x, 2, 0), [(2, 3, 4, 5)], 7),
    'rollaxis_start': (lambda x: F.rollaxis(x, 0, 3), [(2, 3, 4, 5)], 7),
    'expand_dims': (lambda x: F.expand_dims(x, -2), [X], 7),
    'squeeze_all': (lambda x: F.squeeze(x), [(1, 3, 1, 2)], 7),
    'squeeze_axes': (lambda x: F.squeeze(x, (2, 4)), [(1, 3, 1, 2, 1)], 7),
    'concat': (lambda x, y: F.concat((x, y), axis=1), [X, (2, 2, 4)], 7),
    'stack': (lambda x, y: F.stack((x, y)), [X, X], 7),
    'stack_last': (lambda x, y: F.stack((x, y), axis=-1), [X, X], 7),
    'hstack_0d': (lambda x, y: F.hstack((x, y)), [(), ()], 7),
    'hstack_2d': (lambda x, y: F.hstack((x, y)), [(3, 4), (3, 2)], 7),
    'vstack_1d': (lambda x, y: F.vstack((x, y)), [(3,), (3,)], 7),
    'vstack_2d': (lambda x, y: F.vstack((x, y)), [(3, 4), (2, 4)], 7),
    'dstack_0d': (lambda x, y: F.dstack((x, y)), [(), ()], 7),
    'dstack_1d': (lambda x, y: F.dstack((x, y)), [(3,), (3,)], 7),
    'dstack_2d': (lambda x, y: F.dstack((x, y)), [(3, 2), (3, 2)], 7),
    'dstack_3d': (lambda x, y: F.dstack((x, y)), [(3, 2, 2), (3, 2, 1)], 7),
    'split_sections': (lambda x: F.split_axis(x, 2, 2), [X], 7),
    'split_indices': (lambda x: F.split_axis(x, [1, 3], 2), [X], 7),
    'split_one': (lambda x: F.split_axis(x, 1, 1, force_tuple=True),
                  [X], 7),
    'separate': (lambda x: F.separate(x), [X], 7),
    'separate_axis': (lambda x: F.separate(x, axis=2), [X], 7),
    'separate_single': (lambda x: F.separate(x), [(1, 3)], 7),
    'cast': (lambda x: F.cast(x, numpy.float64), [X], 7),
    'copy': (lambda x: F.copy(x, -1), [X], 7),
    'depth2space': (lambda x: F.depth2space(x, 2), [(1, 12, 3, 3)], 7),
    'space2depth': (lambda x: F.space2depth(x, 2), [(1, 3, 6, 4)], 7),
    'tile': (lambda x: F.tile(x, 2), [X], 7),
    'tile_more_axes': (lambda x: F.tile(x, (2, 1, 2)), [(3, 4)], 7),
    'repeat': (lambda x: F.repeat(x, 2, axis=1), [X], 7),
    'repeat_each': (lambda x: F.repeat(x, (1, 0, 2), axis=1), [X], 7),
    'repeat_flat': (lambda x: F.repeat(x, 2), [(2, 3)], 7),
    'where': (lambda x, y: F.where(numpy.arange(24).reshape(X) % 3 == 0,
                                   x, y), [X, X], 9),
    'permutate': (lambda x: F.permutate(x, numpy.array([2, 0, 1], 'i'),
                                        axis=1), [X], 7),
    'permutate_inv': (lambda x: F.permutate(x, numpy.array([1, 0], 'i'),
                                            inv=True), [X], 7),
    'transpose_sequence': (
        lambda x, y, z: F.transpose_sequence([x, y, z]),
        [(3, 2), (2, 2), (1, 2)], 7),
    'broadcast_to': (lambda x: F.broadcast_to(x, (2, 3, 4)), [(3, 1)], 7),
    'broadcast': (lambda x, y: F.broadcast(x, y), [(3, 1), (2, 1, 4)], 8),
    'pad_constant': (lambda x: F.pad(x, ((0, 0), (1, 2), (2, 1)),
                                     'constant', constant_values=-1.5),
                     [X], 7),
    'pad_scalar': (lambda x: F.pad(x, 1, 'constant'), [X], 7),
    'pad_edge': (lambda x: F.pad(x, ((0, 0), (0, 0), (2, 2)), 'edge'),
                 [X], 7),
    'pad_reflect': (lambda x: F.pad(x, ((0, 0), (1, 1), (2, 2)),
                                    'reflect'), [X], 7),
    'flip': (lambda x: F.flip(x, 2), [X], 10),
    'fliplr': (lambda x: F.fliplr(x), [X], 10),
    'flipud': (lambda x: F.flipud(x), [X], 10),
}


@pytest.mark.parametrize('name', sorted(CASES))
def test_array(name):
    fn, shapes, since = CASES[name]
    check(Fn(fn), tuple(rand(*s) for s in shapes), since=since)


def test_select_item():
    model = Fn(lambda x, t: F.select_item(x, t))
    check(model, (rand(3, 5), numpy.array([4, 1, 0], numpy.int32)))


@pytest.mark.parametrize('mode,align', [
    ('bilinear', True), ('bilinear', False), ('nearest', False)])
def test_resize_images(mode, align):
    model = Fn(lambda x: F.resize_images(x, (5, 7), mode=mode,
                                         align_corners=align))
    check(model, rand(1, 2, 3, 4), atol=1e-5)


INDEXES = {
    'int': 1,
    'neg_int': -1,
    '0d_array': numpy.array(0),
    'slice': slice(0, 2),
    'slices': (slice(None), slice(1, 3), slice(None, 2)),
    'none': (None, slice(0, 2)),
    'ellipsis': (Ellipsis, slice(1, 3)),
    'mixed': (0, None, Ellipsis, 0, None, slice(0, 2)),
    'step': (slice(None), slice(None, 4, 2)),
    'neg_step': (slice(None, None, -1), slice(2, 0, -1)),
    'neg_step_to_start': (slice(None), slice(None), slice(3, None, -2)),
    'array': ([[0, 1], [1, 0]],),
    'array_axis1': (slice(None), [[0, 1], [1, 2]]),
    'array_last': (Ellipsis, numpy.array([[0, 3], [1, -1]])),
    'array_int_before': (slice(None), 0, [[0, 1], [2, 3]]),
    'array_int_after': (slice(None), [[0, 1], [1, 2]], 0),
    'array_none': (slice(None), None, [[0, 1], [1, 2]], slice(None)),
    'array_int_apart': ([0, 1], slice(None), 0),
    'arrays': ([0, 1], [1, 2]),
    'arrays_slice': ([0, 1], [0, 1], slice(1, 3)),
    'arrays_full': ([0, 1], [0, 1], [2, 3]),
    'arrays_int_before': (0, [0, 1], [2, 3]),
    'arrays_int_after': ([0, 1], [0, 2], 0),
    'arrays_int_between': ([0, 1], 0, [0, 1]),
    'arrays_none': ([[0, 1]], [0, 2], None),
}


@pytest.mark.parametrize('name', sorted(INDEXES))
def test_get_item(name):
    index = INDEXES[name]
    since = 11 if sum(isinstance(s, list) for s in (
        index if isinstance(index, tuple) else (index,))) > 1 else 7
    if name.startswith(('step', 'neg_step')):
        since = 10
    check(Fn(lambda x: F.get_item(x, index)), rand(2, 3, 4), since=since)


@pytest.mark.parametrize('index,opset', [
    (([0, 1], [1, 2]), 10),               # GatherND needs opset 11
    ((slice(None, None, 2),), 9),         # a step needs opset 10
    ((slice(None), [0, 1], [0, 1]), 13),  # arrays after a slice
    ((0, slice(None), [0, 1]), 13),       # NumPy moves the indexed axes
    (numpy.array([True, False]), 13),
])
def test_get_item_unsupported(index, opset):
    model = Fn(lambda x: F.get_item(x, index))
    with pytest.raises(ValueError, match='GetItem'):
        onnx_chainer.export(model, rand(2, 3, 4), opset_version=opset)


def test_needs_newer_opset():
    model = Fn(lambda x: F.flip(x, 0))
    with pytest.raises(ValueError, match=r'Flip \(Flip_0\) needs opset 10'):
        onnx_chainer.export(model, rand(2, 3), opset_version=9)


@pytest.mark.parametrize('length,padding', [(None, 0.), (5, -1.5)])
def test_pad_sequence(length, padding):
    xs = (rand(3, 2), rand(1, 2), rand(4, 2))
    model = Fn(lambda *xs: F.pad_sequence(list(xs), length, padding))
    check(model, xs)
