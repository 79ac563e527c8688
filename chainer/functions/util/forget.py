"""``F.forget``: trades computation for memory by keeping only the inputs
of a function and recomputing it during backward."""

import chainer
from chainer import backend
from chainer.function_node import FunctionNode
from chainer.variable import Variable


def _to_tuple(outs):
    if isinstance(outs, Variable):
        return (outs,), False
    if isinstance(outs, tuple) and all(isinstance(y, Variable)
                                       for y in outs):
        return outs, True
    raise RuntimeError('A tuple of Variables or a Variable are expected, '
                       'but {} is returned.'.format(type(outs)))


class Forget(FunctionNode):
    """Runs ``func`` without recording its graph, and again in backward."""

    def __init__(self, func):
        if not callable(func):
            raise TypeError('func must be callable')
        self.func = func

    def forward(self, inputs):
        self.retain_inputs(tuple(range(len(inputs))))
        with chainer.no_backprop_mode():
            xs = [Variable(x) for x in inputs]
            outs, self._is_tuple = _to_tuple(self.func(*xs))
        return tuple(y.array for y in outs)

    def backward(self, indexes, grad_outputs):
        # The retained inputs are Variables on this node's input nodes, so
        # the recomputed graph (and with it the gradient, when backward
        # records a graph) hangs from the real inputs: double backprop works.
        xs = self.get_retained_inputs()
        with chainer.force_backprop_mode():
            outs, _ = _to_tuple(self.func(*xs))
        pairs = [(y, gy) for y, gy in zip(outs, grad_outputs)
                 if gy is not None]
        targets = [xs[i] for i in indexes]
        if not pairs:
            return (None,) * len(indexes)
        gxs = chainer.grad(
            [y for y, _ in pairs], targets, [gy for _, gy in pairs],
            enable_double_backprop=chainer.config.enable_backprop)
        return tuple(gxs)


def forget(func, *xs):
    """Calls a function without storing intermediate results.

    In forward, ``func(*xs)`` runs without recording its computational
    graph, so its intermediate arrays are freed at once; only the inputs
    are kept. In backward it runs again, this time recording the graph,
    and the gradient flows through that. This saves memory at the cost of
    computing ``func`` twice. ``func`` must be made of differentiable
    functions and give the same result both times (so no random draws,
    and no ``chainer.config.train``-dependent behaviour that changes in
    between).

    Args:
        func (callable): The function to call. It takes Variables and
            returns a Variable or a tuple of Variables.
        xs (~chainer.Variable or :ref:`ndarray`): The arguments of
            ``func``.

    Returns:
        ~chainer.Variable or tuple: What ``func`` returns, as Variables
        created by a :class:`Forget` node.

    >>> import numpy as np
    >>> import chainer
    >>> import chainer.functions as F
    >>> x = chainer.Variable(np.array([1., 2.], np.float32))
    >>> y = F.forget(lambda a: F.sum(a * a * a), x)
    >>> y.backward()
    >>> x.grad
    array([ 3., 12.], dtype=float32)
    """
    array_types = backend._get_array_types()
    for x in xs:
        if not isinstance(x, (Variable,) + tuple(array_types)):
            raise TypeError(
                'forget: each input must be a Variable or an ndarray, but '
                'got {}'.format(type(x)))
    func_node = Forget(func)
    ys = func_node.apply(xs)
    if func_node._is_tuple:
        return ys
    return ys[0]
