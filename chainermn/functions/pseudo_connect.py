import chainer
from chainer import function_node
from chainer.utils import experimental


class PseudoConnect(function_node.FunctionNode):
    """Passes its actual inputs through; the delegate (input 0) gets a zero
    gradient, so backward from the outputs also runs what stands behind the
    delegate."""

    def forward(self, inputs):
        self._delegate_shape = inputs[0].shape, inputs[0].dtype
        return tuple(inputs[1:])

    def backward(self, indexes, grad_outputs):
        xp = chainer.backend.get_array_module(self.inputs[0])
        shape, dtype = self._delegate_shape
        return (chainer.Variable(xp.zeros(shape, dtype=dtype)),) + tuple(grad_outputs)


def pseudo_connect(delegate_variable, *actual_variables):
    """Ties a delegate variable (of :func:`send`) to ``actual_variables``.

    Returns the tuple of the actual variables, unchanged in value (always a
    tuple, even of one), now joined in the graph with the delegate: a
    backward from them also runs the delegate's backward (receiving the
    gradients of what was sent) once theirs is done. Use it on a rank that
    both sends and computes a loss. A ``delegate_variable`` of None (nothing
    was sent) gives the actual variables back as they are.

    >>> import numpy
    >>> d = chainer.Variable(numpy.empty(0, numpy.float32))
    >>> y, = pseudo_connect(d, chainer.Variable(numpy.ones(2, numpy.float32)))
    >>> y.array, y.creator.label
    (array([1., 1.], dtype=float32), 'PseudoConnect')
    """
    experimental('chainermn.functions.pseudo_connect')
    if delegate_variable is None:
        return tuple(chainer.as_variable(x) for x in actual_variables)
    return PseudoConnect().apply((delegate_variable,) + actual_variables)
