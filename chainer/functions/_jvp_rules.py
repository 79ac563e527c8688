"""The forward-mode rules (``jvp``) of the built-in functions, in one table.

Three shapes of rule cover the elementwise, activation, array, reduction,
linear and convolution families, each checked against the rule derived from
the function's backward and against numerical derivatives
(``tests/test_forward_ad.py``):

- diagonal: the Jacobian is diagonal (an elementwise function) or symmetric
  (softmax), so ``J t = J^T t`` is the function's own backward applied to t;
- linear: the function is linear in all its inputs, so ``J t = f(t)``: the
  function runs again (a copy of the node, same settings) on the tangents;
- multilinear: linear in each input separately (products, matmul, linear,
  convolutions), the inputs it does not retain entering additively (a bias):
  ``J t = sum_i f(x_1, .., t_i, .., x_n)``, the bias term being ``f`` with
  zeros for the other inputs.

Functions not listed here get the rule derived from backward.
"""

import copy
import importlib

from chainer import _forward_ad


def _diagonal(self, tangents):
    return self.backward((0,), tangents)


def _zeros(self, tangents):
    xp = _forward_ad._array_module(tangents)
    return [xp.zeros(x.shape, x.dtype) for x in self.inputs]


def _linear(self, tangents):
    zeros = _zeros(self, tangents)
    return copy.copy(self).apply(
        [z if t is None else t for z, t in zip(zeros, tangents)])


def _multilinear(self, tangents):
    retained = dict(zip(self._input_indexes_to_retain or (),
                        self.get_retained_inputs()))
    zeros = _zeros(self, tangents)
    total = None
    for i, t in enumerate(tangents):
        if t is None:
            continue
        # an input not retained enters additively: the others are zero
        others = retained if i in retained else {}
        args = [t if j == i else others.get(j, zeros[j])
                for j in range(len(tangents))]
        ys = copy.copy(self).apply(args)
        total = ys if total is None else tuple(
            a + b for a, b in zip(total, ys))
    return total


_RULES = {
    _diagonal: {
        'activation.clipped_relu': ['ClippedReLU'],
        'activation.elu': ['ELU'],
        'activation.hard_sigmoid': ['HardSigmoid'],
        'activation.leaky_relu': ['LeakyReLU'],
        'activation.relu': ['ReLU'],
        'activation.sigmoid': ['Sigmoid'],
        'activation.softmax': ['Softmax'],
        'activation.softplus': ['Softplus'],
        'activation.tanh': ['Tanh'],
        'math.arctanh': ['Arctanh'],
        'math.basic_math': ['Absolute', 'Neg', 'AddConstant',
                            'SubFromConstant', 'MulConstant',
                            'DivFromConstant', 'PowVarConst',
                            'PowConstVar'],
        'math.clip': ['Clip'],
        'math.digamma': ['DiGamma'],
        'math.erf': ['Erf'],
        'math.erfc': ['Erfc'],
        'math.erfcinv': ['ErfcInv'],
        'math.erfcx': ['Erfcx'],
        'math.erfinv': ['ErfInv'],
        'math.exponential': ['Exp', 'Log', 'Log2', 'Log10'],
        'math.exponential_m1': ['Expm1'],
        'math.hyperbolic': ['Sinh', 'Cosh'],
        'math.lgamma': ['LGamma'],
        'math.log_ndtr': ['LogNdtr'],
        'math.logarithm_1p': ['Log1p'],
        'math.ndtr': ['Ndtr'],
        'math.ndtri': ['Ndtri'],
        'math.sqrt': ['Sqrt'],
        'math.square': ['Square'],
        'math.trigonometric': ['Sin', 'Cos', 'Tan', 'Arcsin', 'Arccos',
                               'Arctan'],
    },
    _linear: {
        'array.broadcast': ['BroadcastTo', 'Broadcast'],
        'array.cast': ['Cast'],
        'array.concat': ['Concat'],
        'array.copy': ['Copy'],
        'array.depth2space': ['Depth2Space'],
        'array.diagonal': ['Diagonal'],
        'array.dstack': ['Dstack'],
        'array.expand_dims': ['ExpandDims'],
        'array.flip': ['Flip'],
        'array.fliplr': ['FlipLR'],
        'array.flipud': ['FlipUD'],
        'array.get_item': ['GetItem'],
        'array.hstack': ['Hstack'],
        'array.im2col': ['Im2Col'],
        'array.moveaxis': ['Moveaxis'],
        'array.repeat': ['Repeat'],
        'array.reshape': ['Reshape'],
        'array.rollaxis': ['Rollaxis'],
        'array.separate': ['Separate'],
        'array.space2depth': ['Space2Depth'],
        'array.split_axis': ['SplitAxis'],
        'array.squeeze': ['Squeeze'],
        'array.stack': ['Stack'],
        'array.swapaxes': ['Swapaxes'],
        'array.tile': ['Tile'],
        'array.transpose': ['Transpose'],
        'array.vstack': ['Vstack'],
        'math.average': ['Mean'],
        'math.basic_math': ['Add', 'Sub'],
        'math.cumsum': ['Cumsum'],
        'math.identity': ['Identity'],
        'math.sum': ['Sum', 'SumTo'],
        'pooling.average_pooling_2d': ['AveragePooling2D'],
        'pooling.average_pooling_nd': ['AveragePoolingND'],
    },
    _multilinear: {
        'connection.convolution_2d': ['Convolution2DFunction'],
        'connection.convolution_nd': ['ConvolutionND'],
        'connection.deconvolution_2d': ['Deconvolution2DFunction'],
        'connection.deconvolution_nd': ['DeconvolutionND'],
        'connection.linear': ['LinearFunction'],
        'math.basic_math': ['Mul'],
        'math.matmul': ['MatMul', 'BatchMatMul'],
        'math.tensordot': ['TensorDot'],
    },
}


def register():
    """Gives the listed FunctionNode classes their ``jvp`` method."""
    for rule, modules in _RULES.items():
        for module, names in modules.items():
            mod = importlib.import_module('chainer.functions.' + module)
            for name in names:
                getattr(mod, name).jvp = rule
