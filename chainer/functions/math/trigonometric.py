"""Trigonometric functions and their inverses (``sin``, ``cos``, ``tan``,
``arcsin``, ``arccos``, ``arctan``, ``arctan2``)."""

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._errors import check_float, names_bad_arguments


class Sin(FunctionNode):

    @property
    def label(self):
        return 'sin'

    def forward(self, inputs):
        x, = inputs
        check_float(self, x)
        self.retain_inputs((0,))
        return backend.get_array_module(x).sin(x),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] * cos(x),


def sin(x):
    """Elementwise sin function.

    Args:
        x (~chainer.Variable or array): Input (float).

    Returns:
        ~chainer.Variable: ``sin(x)``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.sin(np.array([0.], np.float32)).array
    array([0.], dtype=float32)
    """
    return Sin().apply((x,))[0]


class Cos(FunctionNode):

    @property
    def label(self):
        return 'cos'

    def forward(self, inputs):
        x, = inputs
        check_float(self, x)
        self.retain_inputs((0,))
        return backend.get_array_module(x).cos(x),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] * -sin(x),


def cos(x):
    """Elementwise cos function.

    Args:
        x (~chainer.Variable or array): Input (float).

    Returns:
        ~chainer.Variable: ``cos(x)``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.cos(np.array([0.], np.float32)).array
    array([1.], dtype=float32)
    """
    return Cos().apply((x,))[0]


class Tan(FunctionNode):

    @property
    def label(self):
        return 'tan'

    def forward(self, inputs):
        x, = inputs
        check_float(self, x)
        self.retain_inputs((0,))
        return backend.get_array_module(x).tan(x),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        c = cos(x)
        return grad_outputs[0] / (c * c),


def tan(x):
    """Elementwise tan function.

    Args:
        x (~chainer.Variable or array): Input (float).

    Returns:
        ~chainer.Variable: ``tan(x)``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.tan(np.array([0.], np.float32)).array
    array([0.], dtype=float32)
    """
    return Tan().apply((x,))[0]


class Arcsin(FunctionNode):

    @property
    def label(self):
        return 'arcsin'

    def forward(self, inputs):
        x, = inputs
        check_float(self, x)
        self.retain_inputs((0,))
        return backend.get_array_module(x).arcsin(x),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.math.sqrt import rsqrt
        x, = self.get_retained_inputs()
        # d/dx arcsin(x) = 1 / sqrt(1 - x^2)
        return grad_outputs[0] * rsqrt(1 - x * x),


def arcsin(x):
    """Elementwise arcsine function.

    Args:
        x (~chainer.Variable or array): Input (float), in ``[-1, 1]``.

    Returns:
        ~chainer.Variable: ``arcsin(x)``, in ``[-pi/2, pi/2]``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.arcsin(np.array([0.], np.float32)).array
    array([0.], dtype=float32)
    """
    return Arcsin().apply((x,))[0]


class Arccos(FunctionNode):

    @property
    def label(self):
        return 'arccos'

    def forward(self, inputs):
        x, = inputs
        check_float(self, x)
        self.retain_inputs((0,))
        return backend.get_array_module(x).arccos(x),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.math.sqrt import rsqrt
        x, = self.get_retained_inputs()
        # d/dx arccos(x) = -1 / sqrt(1 - x^2)
        return grad_outputs[0] * -rsqrt(1 - x * x),


def arccos(x):
    """Elementwise arccosine function.

    Args:
        x (~chainer.Variable or array): Input (float), in ``[-1, 1]``.

    Returns:
        ~chainer.Variable: ``arccos(x)``, in ``[0, pi]``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.arccos(np.array([1.], np.float32)).array
    array([0.], dtype=float32)
    """
    return Arccos().apply((x,))[0]


class Arctan(FunctionNode):

    @property
    def label(self):
        return 'arctan'

    def forward(self, inputs):
        x, = inputs
        check_float(self, x)
        self.retain_inputs((0,))
        return backend.get_array_module(x).arctan(x),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        # gy times the reciprocal, as Chainer rounds it
        return grad_outputs[0] * (1 / (1 + x * x)),


def arctan(x):
    """Elementwise arctangent function.

    Args:
        x (~chainer.Variable or array): Input (float).

    Returns:
        ~chainer.Variable: ``arctan(x)``, in ``(-pi/2, pi/2)``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.arctan(np.array([0.], np.float32)).array
    array([0.], dtype=float32)
    """
    return Arctan().apply((x,))[0]


class Arctan2(FunctionNode):

    @property
    def label(self):
        return 'arctan2'

    def forward(self, inputs):
        x1, x2 = inputs
        check_float(self, x1, 'x1')
        check_float(self, x2, 'x2')
        self.retain_inputs((0, 1))
        # Mixed float dtypes are allowed; NumPy promotes (as Chainer does).
        return backend.get_array_module(x1).arctan2(x1, x2),

    def backward(self, indexes, grad_outputs):
        x1, x2 = self.get_retained_inputs()
        if x1.dtype != x2.dtype:
            # Mixed dtypes (Chainer's backward fails here): compute in the
            # promoted dtype; the engine casts each gradient back.
            from chainer.functions.array.cast import cast
            dtype = grad_outputs[0].dtype
            x1, x2 = cast(x1, dtype), cast(x2, dtype)
        # d/dx1 = x2 / (x1^2 + x2^2), d/dx2 = -x1 / (x1^2 + x2^2)
        # (in Chainer's rounding order: x / sqnorm, then times gy)
        gy = grad_outputs[0]
        sqnorm = x1 * x1 + x2 * x2
        ret = []
        if 0 in indexes:
            ret.append(x2 / sqnorm * gy)
        if 1 in indexes:
            ret.append(-x1 / sqnorm * gy)
        return tuple(ret)


@names_bad_arguments
def arctan2(x1, x2):
    """Elementwise arctangent function with two arguments.

    Args:
        x1 (~chainer.Variable or array): Y-coordinates (float).
        x2 (~chainer.Variable or array): X-coordinates (float); broadcast
            against ``x1``.

    Returns:
        ~chainer.Variable: Angles in radians, in the range ``[-pi, pi]``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.arctan2(np.array([0.], np.float32), np.array([1.], np.float32)).array
    array([0.], dtype=float32)
    """
    return Arctan2().apply((x1, x2))[0]
