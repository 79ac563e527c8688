"""The converter registry and the opset-aware node builder converters use.

A converter turns one FunctionNode into ONNX nodes. Its public form takes
one argument, ``params`` (:class:`~onnx_chainer.graph.ConverterParams`:
``func``, ``opset_version``, ``input_names``, ``output_names``,
``context``) and returns the nodes; that is also the form of the
``external_converters`` users give. The built-in ones are written as
``impl(p, g)`` with ``g`` a :class:`Builder` that knows the opset, and
registered with :func:`converts`.
"""

import numpy

from onnx_chainer import onnx_helper

# FunctionNode name -> converter(params) -> nodes
converters = {}


def converts(*names, since=7, inputs=None):
    """Registers ``impl(p, g)`` as the converter of the named FunctionNodes.

    Args:
        names: FunctionNode class names (as ``as_funcnode`` names too).
        since (int): The first opset the converter supports.
        inputs (tuple of str): Labels of the function's inputs; an input
            that is neither a graph input nor made in the graph (an array
            given to the function) becomes the initializer
            ``<function>_param_<label>``.
    """
    def register(impl):
        def convert(params):
            if params.opset_version < since:
                raise ValueError(
                    'ONNX export: {} ({}) needs opset {} or later, but opset '
                    '{} was requested'.format(params.key, params.name, since,
                                              params.opset_version))
            g = Builder(params)
            impl(params, g)
            return g.nodes()
        convert.input_labels = inputs
        convert.__name__ = 'convert_' + names[0]
        convert.__doc__ = impl.__doc__
        for name in names:
            converters[name] = convert
        return impl
    return register


def unsupported(p, what):
    """The error of a function whose arguments have no ONNX equivalent."""
    return ValueError('ONNX export: {} ({}) cannot be exported at opset {}: '
                      '{}'.format(p.name, p.key, p.opset_version, what))


class Builder(onnx_helper.GraphBuilder):
    """A :class:`~onnx_chainer.onnx_helper.GraphBuilder` for one converter:
    it knows the opset and the function's output names, and writes the ops
    whose form changed between opsets (Reduce*, Squeeze, Unsqueeze, Slice,
    Split, Pad, Clip) in the form of that opset.

    Each method takes ``out``: None for a fresh temporary, True for the
    function's outputs, or a list of names.
    """

    def __init__(self, params):
        super().__init__()
        self.p = params
        self.opset = params.opset_version

    def _outs(self, out):
        if out is None:
            return None
        return list(self.p.output_names) if out is True else list(out)

    def emit(self, op_type, inputs, out=None, num_outputs=1, **attrs):
        """Adds a node; returns its output name (tuple when several)."""
        outs = self._outs(out)
        if outs is None:
            return self.op(op_type, inputs, num_outputs, **attrs)
        self.op_output_named(op_type, inputs, outs, **attrs)
        return outs[0] if len(outs) == 1 else tuple(outs)

    def out(self, op_type, inputs, **attrs):
        """Adds the node that makes the function's outputs."""
        return self.emit(op_type, inputs, True, **attrs)

    # --- constants ----------------------------------------------------

    def scalar(self, value, dtype):
        """A 0-d constant of ``dtype``."""
        return self.const(numpy.asarray(value, dtype=dtype))

    def ints(self, values):
        """A 1-d int64 constant."""
        return self.const(numpy.asarray(values, dtype=numpy.int64).reshape(-1))

    def onehot(self, t, t_shape, t_dtype, n_class, dtype):
        """The one-hot of int labels ``t`` along a new axis 1, as
        ``dtype`` (a label out of ``[0, n_class)`` hits no class)."""
        classes = numpy.arange(n_class, dtype=t_dtype).reshape(
            (n_class,) + (1,) * (len(t_shape) - 1))
        hit = self.emit('Equal', [self.unsqueeze(t, [1]), self.const(classes)])
        return self.cast(hit, dtype)

    def cast(self, x, dtype, out=None):
        """``Cast`` to a NumPy dtype."""
        return self.emit('Cast', [x], out,
                         to=onnx_helper.np_dtype_to_tensor_type(dtype))

    # --- ops whose form depends on the opset ----------------------------

    def reshape(self, x, shape, out=None):
        return self.emit('Reshape', [x, self.ints(shape)], out)

    def transpose(self, x, perm, out=None):
        return self.emit('Transpose', [x], out, perm=list(perm))

    def reduce(self, op_type, x, axes, keepdims, out=None):
        """``Reduce*`` over ``axes`` (None: all of them)."""
        keepdims = int(bool(keepdims))
        if axes is None:
            return self.emit(op_type, [x], out, keepdims=keepdims)
        axes = [int(a) for a in axes]
        if self.opset >= (13 if op_type == 'ReduceSum' else 18):
            return self.emit(op_type, [x, self.ints(axes)], out,
                             keepdims=keepdims)
        return self.emit(op_type, [x], out, axes=axes, keepdims=keepdims)

    def squeeze(self, x, axes, out=None):
        axes = [int(a) for a in axes]
        if self.opset >= 13:
            return self.emit('Squeeze', [x, self.ints(axes)], out)
        return self.emit('Squeeze', [x], out, axes=axes)

    def unsqueeze(self, x, axes, out=None):
        axes = [int(a) for a in axes]
        if self.opset >= 13:
            return self.emit('Unsqueeze', [x, self.ints(axes)], out)
        return self.emit('Unsqueeze', [x], out, axes=axes)

    def slice(self, x, starts, ends, axes, steps=None, out=None):
        if self.opset >= 10:
            inputs = [x, self.ints(starts), self.ints(ends), self.ints(axes)]
            if steps is not None:
                inputs.append(self.ints(steps))
            return self.emit('Slice', inputs, out)
        if steps is not None and any(s != 1 for s in steps):
            raise unsupported(self.p, 'a slice step other than 1 needs '
                              'opset 10')
        return self.emit('Slice', [x], out, starts=list(starts),
                         ends=list(ends), axes=list(axes))

    def split(self, x, sizes, axis, out=None):
        """``Split`` into pieces of ``sizes`` along ``axis``; returns the
        tuple of names."""
        outs = self._outs(out)
        n = len(sizes)
        if outs is None:
            outs = [onnx_helper._new_name('tmp') for _ in range(n)]
        if self.opset >= 13:
            self.op_output_named('Split', [x, self.ints(sizes)], outs,
                                 axis=axis)
        else:
            self.op_output_named('Split', [x], outs, axis=axis,
                                 split=list(sizes))
        return tuple(outs)

    def pad(self, x, pads, mode, value, dtype, out=None):
        """``Pad`` with ``pads`` in ONNX order (all begins, then ends)."""
        if self.opset >= 11:
            inputs = [x, self.ints(pads)]
            if mode == 'constant':
                inputs.append(self.scalar(value, dtype))
            return self.emit('Pad', inputs, out, mode=mode)
        return self.emit('Pad', [x], out, mode=mode, pads=list(pads),
                         value=float(value))

    def clip(self, x, lo, hi, dtype, out=None):
        """``Clip`` to ``[lo, hi]`` (None: unbounded)."""
        if self.opset >= 11:
            inputs = [x, '' if lo is None else self.scalar(lo, dtype)]
            if hi is not None:
                inputs.append(self.scalar(hi, dtype))
            return self.emit('Clip', inputs, out)
        attrs = {}
        if lo is not None:
            attrs['min'] = float(lo)
        if hi is not None:
            attrs['max'] = float(hi)
        return self.emit('Clip', [x], out, **attrs)
