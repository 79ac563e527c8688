"""Exponential and logarithms."""

import numpy

from chainer.function_node import FunctionNode
from chainer.functions._errors import check_float


class Exp(FunctionNode):

    @property
    def label(self):
        return 'exp'

    def forward(self, inputs):
        # (Chainer's Exp names its input in_types[0] in the message)
        check_float(self, inputs[0], 'in_types[0]')
        self.retain_outputs((0,))
        return _xp(inputs[0]).exp(inputs[0]),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return grad_outputs[0] * y,


def exp(x):
    """Elementwise exponential function."""
    return Exp().apply((x,))[0]


class Log(FunctionNode):

    @property
    def label(self):
        return 'log'

    def forward(self, inputs):
        check_float(self, inputs[0])
        self.retain_inputs((0,))
        return _xp(inputs[0]).log(inputs[0]),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] / x,


def log(x):
    """Elementwise natural logarithm function."""
    return Log().apply((x,))[0]


class Log2(FunctionNode):

    @property
    def label(self):
        return 'log2'

    def forward(self, inputs):
        check_float(self, inputs[0])
        self.retain_inputs((0,))
        return _xp(inputs[0]).log2(inputs[0]),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] / x * (1.0 / numpy.log(2.0)),


def log2(x):
    """Elementwise logarithm function to the base 2."""
    return Log2().apply((x,))[0]


class Log10(FunctionNode):

    @property
    def label(self):
        return 'log10'

    def forward(self, inputs):
        check_float(self, inputs[0])
        self.retain_inputs((0,))
        return _xp(inputs[0]).log10(inputs[0]),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] / x * (1.0 / numpy.log(10.0)),


def log10(x):
    """Elementwise logarithm function to the base 10."""
    return Log10().apply((x,))[0]


def _xp(x):
    if isinstance(x, numpy.ndarray):
        return numpy
    from chainer import backend
    return backend.get_array_module(x)
