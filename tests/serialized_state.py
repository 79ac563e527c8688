"""Helpers of the serializer tests: what a model's serializer sees, to the
byte, and a small model with optimizer state to save and load."""

import numpy

import chainer


def bytes_of(obj):
    """Every value of ``obj`` as its serializer sees it, to the byte."""
    out = {}

    class Spy(chainer.serializer.Serializer):
        def __init__(self, path=''):
            self.path = path

        def __getitem__(self, key):
            return Spy(self.path + key + '/')

        def __call__(self, key, value):
            out[self.path + key] = (
                (type(value), value.dtype, value.shape, value.tobytes())
                if hasattr(value, 'dtype') else (type(value), repr(value)))
            return value

    obj.serialize(Spy())
    return out


def trained():
    """A Linear + BatchNormalization model after one Adam step, and the
    optimizer."""
    model = chainer.Sequential(chainer.links.Linear(3, 4),
                               chainer.links.BatchNormalization(4))
    opt = chainer.optimizers.Adam()
    opt.setup(model)
    x = numpy.random.RandomState(0).rand(5, 3).astype(numpy.float32)
    opt.update(lambda: chainer.functions.sum(model(x) ** 2))
    return model, opt
