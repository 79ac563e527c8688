"""Converters of the array functions (shape, indexing, joining, ...)."""

import numpy

from onnx_chainer import onnx_helper
from onnx_chainer.functions._base import converts, unsupported

_INT64_MIN = -2 ** 63


def _ndim(p, i=0):
    return len(p.in_shapes[i])


@converts('Reshape')
def reshape(p, g):
    if len(p.input_names) == 2:  # as_funcnode('Reshape') with a shape input
        shape = p.input_names[1]
        if p.in_dtypes[1] != numpy.int64:
            shape = g.cast(shape, numpy.int64)
        return g.out('Reshape', [p.x, shape])
    shape = tuple(p.func.shape)
    if 0 in shape:  # ONNX reads 0 as "keep this dimension"
        shape = p.out_shapes[0]
    g.reshape(p.x, shape, out=True)


@converts('Shape')
def shape(p, g):
    g.out('Shape', [p.x])


@converts('Transpose')
def transpose(p, g):
    axes = p.func.axes
    if axes is None:
        axes = range(_ndim(p))[::-1]
    g.transpose(p.x, [a % _ndim(p) for a in axes], out=True)


@converts('Swapaxes')
def swapaxes(p, g):
    perm = list(range(_ndim(p)))
    a, b = p.func.axis1 % len(perm), p.func.axis2 % len(perm)
    perm[a], perm[b] = perm[b], perm[a]
    g.transpose(p.x, perm, out=True)


def _moveaxis_perm(ndim, source, destination):
    # NumPy's order: the axes left, with each source put at its place.
    source = [s % ndim for s in source]
    destination = [d % ndim for d in destination]
    perm = [a for a in range(ndim) if a not in source]
    for d, s in sorted(zip(destination, source)):
        perm.insert(d, s)
    return perm


@converts('Moveaxis')
def moveaxis(p, g):
    src, dst = p.func.source, p.func.destination
    src = (src,) if isinstance(src, int) else src
    dst = (dst,) if isinstance(dst, int) else dst
    g.transpose(p.x, _moveaxis_perm(_ndim(p), src, dst), out=True)


@converts('Rollaxis')
def rollaxis(p, g):
    ndim = _ndim(p)
    axis, start = p.func.axis % ndim, p.func.start
    start = start % (ndim + 1) if start < 0 else start
    perm = [a for a in range(ndim) if a != axis]
    perm.insert(start - 1 if axis < start else start, axis)
    g.transpose(p.x, perm, out=True)


@converts('ExpandDims')
def expand_dims(p, g):
    g.unsqueeze(p.x, [p.func.axis % (_ndim(p) + 1)], out=True)


@converts('Squeeze')
def squeeze(p, g):
    shape = p.in_shapes[0]
    axis = p.func.axis
    if axis is None:
        axes = [i for i, d in enumerate(shape) if d == 1]
    else:
        axes = [a % len(shape) for a in
                ((axis,) if isinstance(axis, int) else axis)]
    if not axes:
        return g.out('Identity', [p.x])
    g.squeeze(p.x, axes, out=True)


@converts('Concat')
def concat(p, g):
    g.out('Concat', p.input_names, axis=p.func.axis % _ndim(p))


@converts('Stack')
def stack(p, g):
    axis = p.func.axis % (_ndim(p) + 1)
    g.out('Concat', [g.unsqueeze(x, [axis]) for x in p.input_names],
          axis=axis)


def _join(p, g, atleast, axis):
    # hstack/vstack/dstack: each input made at least ``atleast``-d as NumPy
    # does, then joined.
    xs = []
    for x, shape in zip(p.input_names, p.in_shapes):
        if len(shape) < atleast:
            if atleast == 3:
                new = ((1,) + shape + (1,)) if len(shape) == 1 else \
                    (shape + (1,)) if len(shape) == 2 else (1, 1, 1)
            else:
                new = (1,) * (atleast - len(shape)) + tuple(shape)
            x = g.reshape(x, new)
        xs.append(x)
    g.out('Concat', xs, axis=axis)


@converts('Hstack')
def hstack(p, g):
    _join(p, g, 1, 0 if _ndim(p) <= 1 else 1)


@converts('Vstack')
def vstack(p, g):
    _join(p, g, 2, 0)


@converts('Dstack')
def dstack(p, g):
    _join(p, g, 3, 2)


def _split_sizes(p):
    shape = p.in_shapes[0]
    axis = p.func.axis % len(shape)
    pieces = numpy.split(numpy.empty(shape[axis], numpy.int8),
                         p.func.indices_or_sections)
    return axis, [len(piece) for piece in pieces]


@converts('SplitAxis')
def split_axis(p, g):
    axis, sizes = _split_sizes(p)
    if len(sizes) == 1:
        return g.out('Identity', [p.x])
    g.split(p.x, sizes, axis, out=True)


@converts('Separate')
def separate(p, g):
    axis = p.func.axis % _ndim(p)
    n = p.in_shapes[0][axis]
    if n == 1:
        return g.squeeze(p.x, [axis], out=True)
    for piece, name in zip(g.split(p.x, [1] * n, axis), p.output_names):
        g.squeeze(piece, [axis], out=[name])


@converts('Cast')
def cast(p, g):
    g.cast(p.x, p.func.type, out=True)


@converts('Copy', 'Identity')
def copy(p, g):
    g.out('Identity', [p.x])


@converts('Depth2Space')
def depth2space(p, g):
    # Chainer's channel order (blocks first) is ONNX's default, DCR.
    g.out('DepthToSpace', [p.x], blocksize=int(p.func.r))


@converts('Space2Depth')
def space2depth(p, g):
    g.out('SpaceToDepth', [p.x], blocksize=int(p.func.r))


@converts('Tile')
def tile(p, g):
    shape = tuple(p.in_shapes[0])
    reps = p.func.reps
    reps = (reps,) if isinstance(reps, int) else tuple(reps)
    x = p.x
    if len(reps) > len(shape):  # NumPy prepends axes to x
        shape = (1,) * (len(reps) - len(shape)) + shape
        x = g.reshape(x, shape)
    reps = (1,) * (len(shape) - len(reps)) + reps
    g.out('Tile', [x, g.ints(reps)])


@converts('Repeat')
def repeat(p, g):
    # numpy.repeat as a Gather of each index repeated.
    x, axis = p.x, p.func.axis
    if axis is None:
        x, axis = g.reshape(x, (-1,)), 0
        n = int(numpy.prod(p.in_shapes[0]))
    else:
        axis %= _ndim(p)
        n = p.in_shapes[0][axis]
    repeats = p.func.repeats
    repeats = repeats[0] if len(repeats) == 1 else repeats
    index = numpy.repeat(numpy.arange(n, dtype=numpy.int64), repeats)
    g.out('Gather', [x, g.const(index)], axis=axis)


@converts('Where', since=9, inputs=('x', 'y'))
def where(p, g):
    cond = numpy.asarray(
        onnx_helper.to_numpy(p.func.condition), dtype=numpy.bool_)
    g.out('Where', [g.const(cond)] + list(p.input_names))


@converts('Permutate')
def permutate(p, g):
    index = onnx_helper.to_numpy(p.func.indices).astype(numpy.int64)
    if p.func.inv:
        index = numpy.argsort(index)
    g.out('Gather', [p.x, g.const(index)], axis=p.func.axis % _ndim(p))


@converts('TransposeSequence')
def transpose_sequence(p, g):
    # Output t stacks the t-th rows of the inputs long enough to have one.
    for t, name in enumerate(p.output_names):
        rows = [g.slice(x, [t], [t + 1], [0])
                for x, shape in zip(p.input_names, p.in_shapes)
                if shape[0] > t]
        g.emit('Concat', rows, out=[name], axis=0)


@converts('SelectItem', inputs=('x', 't'))
def select_item(p, g):
    x, t = p.input_names
    if g.opset >= 11:
        t = g.unsqueeze(g.cast(t, numpy.int64), [1])
        y = g.emit('GatherElements', [x, t], axis=1)
        return g.squeeze(y, [1], out=True)
    onehot = g.onehot(t, p.in_shapes[1], p.in_dtypes[1], p.in_shapes[0][1],
                      p.dtype)
    g.reduce('ReduceSum', g.emit('Mul', [x, onehot]), [1], False, out=True)


@converts('BroadcastTo')
def broadcast_to(p, g):
    shape = tuple(p.out_shapes[0] or p.func._shape)
    if g.opset >= 8:
        return g.out('Expand', [p.x, g.ints(shape)])
    g.out('Add', [p.x, g.const(numpy.zeros(shape, p.dtype))])


@converts('Broadcast', since=8)
def broadcast(p, g):
    shape = numpy.broadcast_shapes(*p.in_shapes)
    for x, name in zip(p.input_names, p.output_names):
        g.emit('Expand', [x, g.ints(shape)], out=[name])


@converts('Pad')
def pad(p, g):
    mode = {'constant': 'constant', 'edge': 'edge', 'reflect': 'reflect'}.get(
        p.func.mode)
    if mode is None:
        raise unsupported(p, 'pad mode {!r}'.format(p.func.mode))
    ndim = _ndim(p)
    width = numpy.broadcast_to(numpy.asarray(p.func.pad_width, numpy.int64),
                               (ndim, 2))
    value = (p.func.keywords or {}).get('constant_values', 0)
    if numpy.ndim(value) != 0:
        if len(set(numpy.ravel(value).tolist())) != 1:
            raise unsupported(p, 'one constant value per side')
        value = numpy.ravel(value)[0]
    g.pad(p.x, list(width[:, 0]) + list(width[:, 1]), mode, value, p.dtype,
          out=True)


def _flip(p, g, axis):
    axis %= _ndim(p)
    g.slice(p.x, [-1], [_INT64_MIN], [axis], [-1], out=True)


@converts('Flip', since=10)
def flip(p, g):
    _flip(p, g, p.func.axis)


@converts('FlipLR', since=10)
def fliplr(p, g):
    _flip(p, g, 1)


@converts('FlipUD', since=10)
def flipud(p, g):
    _flip(p, g, 0)


@converts('ResizeImages')
def resize_images(p, g):
    f = p.func
    n, c, h, w = p.in_shapes[0]
    size = (n, c, f.out_H, f.out_W)
    if g.opset >= 11:
        if f.mode == 'nearest':
            attrs = dict(mode='nearest', nearest_mode='floor',
                         coordinate_transformation_mode='asymmetric')
        else:
            attrs = dict(mode='linear', coordinate_transformation_mode=(
                'align_corners' if f.align_corners else 'half_pixel'))
        empty = '' if g.opset >= 13 else g.const(numpy.zeros(0, p.dtype))
        return g.out('Resize', [p.x, empty, empty, g.ints(size)], **attrs)
    # Before opset 11 no Resize mode matches; the resize is linear, so it
    # is written as Chainer computes it: A @ x @ B.T.
    from chainer.functions.array.resize_images import _weights
    a = _weights(h, f.out_H, f.mode, f.align_corners).astype(p.dtype)
    b = _weights(w, f.out_W, f.mode, f.align_corners).astype(p.dtype)
    y = g.emit('MatMul', [g.const(a), p.x])
    g.out('MatMul', [y, g.const(b.T)])


# --- get_item ---------------------------------------------------------------

def _index_entries(p):
    """GetItem's index as a list with one entry per input axis (ints,
    slices, int64 arrays) plus the None entries."""
    ndim = _ndim(p)
    index = p.func.slices
    if not isinstance(index, tuple):
        index = (index,)
    entries = []
    for s in index:
        if isinstance(s, (list, numpy.ndarray)) or hasattr(s, '__array__'):
            a = onnx_helper.to_numpy(s)
            if a.dtype.kind == 'b':
                raise unsupported(p, 'a boolean index')
            s = int(a) if a.ndim == 0 else a.astype(numpy.int64)
        elif isinstance(s, numpy.integer):
            s = int(s)
        entries.append(s)
    used = sum(1 for s in entries if s is not None and s is not Ellipsis)
    fill = [slice(None)] * (ndim - used)
    for i, s in enumerate(entries):
        if s is Ellipsis:
            return entries[:i] + fill + entries[i + 1:]
    return entries + fill


def _advanced_group(p, entries):
    """The entries gathered together: the arrays, and with several arrays
    the ints next to them (NumPy broadcasts them all)."""
    arrays = [i for i, s in enumerate(entries)
              if isinstance(s, numpy.ndarray)]
    if not arrays:
        return []
    first, last = arrays[0], arrays[-1]
    while first > 0 and isinstance(entries[first - 1], int):
        first -= 1
    while last + 1 < len(entries) and isinstance(entries[last + 1], int):
        last += 1
    if any(s is None or isinstance(s, slice)
           for s in entries[first:last + 1]):
        raise unsupported(p, 'advanced indexes apart from each other')
    if first > 0 and any(isinstance(s, int) for i, s in enumerate(entries)
                         if not first <= i <= last):
        # NumPy would put the indexed axes first.
        raise unsupported(p, 'an int index apart from an array index')
    return arrays if len(arrays) == 1 else list(range(first, last + 1))


@converts('GetItem')
def get_item(p, g):
    """Basic indexing is a Slice, a Squeeze of the int axes and an
    Unsqueeze of the None axes; one array index is a Gather, several (at the
    front) a GatherND."""
    shape = p.in_shapes[0]
    entries = _index_entries(p)
    group = _advanced_group(p, entries)
    starts, ends, axes, steps, squeezed, nones = [], [], [], [], [], []
    group_dims, group_pos = [], None
    dim = pos = 0  # input axis; output axis (not counting the group's)
    for i, s in enumerate(entries):
        if s is None:
            nones.append(pos)
            pos += 1
            continue
        if i in group:
            group_dims.append(dim)
            group_pos = pos if group_pos is None else group_pos
        elif isinstance(s, int):
            start = s % shape[dim]
            starts.append(start), ends.append(start + 1), steps.append(1)
            axes.append(dim), squeezed.append(dim)
        else:
            start, stop, step = s.indices(shape[dim])
            if step < 0 and stop < 0:
                stop = _INT64_MIN  # down to index 0
            if (start, stop, step) != (0, shape[dim], 1):
                starts.append(start), ends.append(stop), steps.append(step)
                axes.append(dim)
            pos += 1
        dim += 1
    x = p.x
    if axes:
        x = g.slice(x, starts, ends, axes,
                    steps if any(s != 1 for s in steps) else None)
    if squeezed:
        x = g.squeeze(x, squeezed)
    if group:
        index = numpy.broadcast_arrays(*[
            numpy.asarray(entries[i], numpy.int64) % shape[d]
            for i, d in zip(group, group_dims)])
        axis = group_dims[0] - sum(1 for d in squeezed if d < group_dims[0])
        if len(group) == 1:
            x = g.emit('Gather', [x, g.const(index[0])], axis=axis)
        elif g.opset < 11:
            raise unsupported(p, 'several array indexes need opset 11')
        elif axis != 0:
            raise unsupported(p, 'several array indexes after a slice')
        else:
            x = g.emit('GatherND', [x, g.const(numpy.stack(index, -1))])
        nones = [n if n < group_pos else n + index[0].ndim for n in nones]
    if nones:
        x = g.unsqueeze(x, nones)
    if x == p.x:
        return g.out('Identity', [x])
    return g.nodes(output_names=p.output_names)


@converts('PadSequence')
def pad_sequence(p, g):
    """Each sequence padded at its end to the length, then stacked."""
    shapes = p.in_shapes
    length = p.func.length
    if length is None:
        length = max(s[0] for s in shapes)
    rows = []
    for x, shape in zip(p.input_names, shapes):
        if shape[0] < length:
            ndim = len(shape)
            pads = [0] * ndim + [length - shape[0]] + [0] * (ndim - 1)
            x = g.pad(x, pads, 'constant', p.func.padding, p.dtype)
        rows.append(g.unsqueeze(x, [0]))
    if len(rows) == 1:
        return g.out('Identity', rows)
    g.out('Concat', rows, axis=0)
