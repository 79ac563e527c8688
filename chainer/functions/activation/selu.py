"""``F.selu``: scale * elu(x, alpha)."""

from chainer.functions.activation.elu import elu


def selu(x, alpha=1.6732632423543772, scale=1.0507009873554805):
    """Scaled Exponential Linear Unit function.

    .. math::
        f(x) = \\lambda \\left \\{ \\begin{array}{ll}
        x & {\\rm if}~ x > 0 \\\\
        \\alpha (\\exp(x) - 1) & {\\rm if}~ x \\le 0,
        \\end{array} \\right.

    where :math:`\\lambda` is ``scale``; the default values are those that
    keep activations normalized (Klambauer et al., 2017).

    Args:
        x (:class:`~chainer.Variable` or :ref:`ndarray`): Input variable of
            a floating point dtype.
        alpha (float): Parameter :math:`\\alpha`.
        scale (float): Parameter :math:`\\lambda`.

    Returns:
        ~chainer.Variable: Output variable, of the shape and dtype of ``x``.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> F.selu(np.array([1.], np.float32)).array
    array([1.050701], dtype=float32)
    """
    return elu(x, alpha) * scale
