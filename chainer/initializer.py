"""The Initializer base class."""


def get_fans(shape):
    """(fan_in, fan_out) of a weight shape: ``(out, in, *kernel)``."""
    if not isinstance(shape, tuple):
        raise ValueError(
            'shape must be tuple. Actual type: {}'.format(type(shape)))
    if len(shape) < 2:
        raise ValueError(
            'shape must be of length >= 2. Actual shape: {}'.format(shape))
    receptive = 1
    for s in shape[2:]:
        receptive *= s
    return shape[1] * receptive, shape[0] * receptive


class Initializer:
    """Fills an array with initial values (``initializer(array)``).

    Args:
        dtype: The dtype of the arrays it makes (None: ``config.dtype``).
    """

    def __init__(self, dtype=None):
        self.dtype = dtype  # as given (a type, a str...), as in Chainer

    def __call__(self, array):
        raise NotImplementedError
