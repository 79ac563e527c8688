import chainer
from chainer import function_node


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

    Returns the actual variables unchanged in value (one Variable, or a tuple
    of them), now joined in the graph with the delegate: a backward from them
    also runs the delegate's backward. Use it on a rank that both sends and
    computes a loss. With no actual variables the delegate itself comes back.
    """
    if not actual_variables:
        return delegate_variable
    ys = PseudoConnect().apply((delegate_variable,) + actual_variables)
    return ys if len(ys) > 1 else ys[0]
