"""The error function; also the home of ``_special``, the lazy bridge to
``scipy.special`` (CPU) and ``cupyx.scipy.special`` (GPU) that the other
special functions of this family share."""

import math

import numpy

from chainer import utils
from chainer.function_node import FunctionNode
from chainer.functions._errors import check_float


def _special_module(fname, x):
    if isinstance(x, numpy.ndarray):
        try:
            from scipy import special
        except ImportError:
            raise ImportError(
                '{} requires SciPy on the CPU: pip install scipy (or '
                'chainer-ng[scipy])'.format(fname)) from None
        return special
    from cupyx.scipy import special
    return special


def _special(fname, name, x, *args):
    """``special.<name>(*args, x)`` cast to ``x``'s dtype (SciPy has no
    float16 loops, so float16 is computed in float32)."""
    f = getattr(_special_module(fname, x), name)
    return utils.force_array(f(*args, x), x.dtype)


_vec_erf = numpy.frompyfunc(math.erf, 1, 1)


def _erf(x):
    try:
        return _special('erf', 'erf', x)
    except ImportError:
        if not isinstance(x, numpy.ndarray):
            raise
        # Chainer computes erf without SciPy too (slowly), element by
        # element with the standard library.
        return numpy.asarray(_vec_erf(x), dtype=x.dtype)


_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


class Erf(FunctionNode):

    @property
    def label(self):
        return 'erf'

    def forward(self, inputs):
        x, = inputs
        check_float(self, x)
        self.retain_inputs((0,))
        return _erf(x),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.math.exponential import exp
        x, = self.get_retained_inputs()
        # erf'(x) = 2 / sqrt(pi) * exp(-x^2)
        return grad_outputs[0] * (_TWO_OVER_SQRT_PI * exp(-(x * x))),


def erf(x):
    """Elementwise error function.

    .. math::
       \\mathrm{erf}(x) = \\frac{2}{\\sqrt{\\pi}} \\int_0^x e^{-t^2} dt

    .. note::
       On the CPU it uses SciPy when it is installed, and a slower
       element-by-element loop otherwise.

    Args:
        x (~chainer.Variable or array): Input (float).

    Returns:
        ~chainer.Variable: Output variable.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.erf(np.array([0.], np.float32)).array
    array([0.], dtype=float32)
    """
    return Erf().apply((x,))[0]
