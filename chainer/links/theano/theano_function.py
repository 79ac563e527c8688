"""``TheanoFunction``: Theano is not available.

Chainer could wrap a compiled Theano function as a Link. Theano is no longer
maintained and does not install on current Python and NumPy, so this link
keeps its name and signature but cannot be constructed.
"""

from chainer import link


class TheanoFunction(link.Link):
    """Theano function wrapper (not available).

    Constructing it raises :class:`ImportError`: Theano is unmaintained and
    does not run on the Python and NumPy versions chainer-ng supports.
    Write the computation with ``chainer.functions`` instead (each Theano
    op has a counterpart there).

    Args:
        inputs (tuple of theano.tensor.TensorVariable): The inputs of the
            Theano graph.
        outputs (tuple of theano.tensor.TensorVariable): Its outputs.

    Raises:
        ImportError: Always.
    """

    def __init__(self, inputs, outputs):
        raise ImportError(
            'TheanoFunction is not available: Theano is unmaintained and does '
            'not run on current Python/NumPy, so chainer-ng does not support '
            'it. Rewrite the computation with chainer.functions instead.')

    def forward(self, *args):
        raise ImportError('TheanoFunction is not available: Theano is not '
                          'supported by chainer-ng.')
