"""``F.forget``: trades computation for memory by keeping only the inputs
of a function and recomputing it during backward."""

import chainer
from chainer import backend
from chainer.function_node import FunctionNode
from chainer.variable import Variable


def _ordinal(n):
    if 10 <= n % 100 <= 20:
        suffix = 'th'
    else:
        suffix = {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')
    return '{}{}'.format(n, suffix)


def _to_tuple(outs):
    if isinstance(outs, Variable):
        return (outs,)
    if isinstance(outs, tuple):
        for i, y in enumerate(outs):
            if not isinstance(y, Variable):
                raise RuntimeError(
                    'forget: the {} element of the tuple the function '
                    'returned is not a Variable but {}'.format(
                        _ordinal(i + 1), type(y)))
        return outs
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
        with chainer.no_backprop_mode(), \
                chainer.using_config('_will_recompute', True):
            xs = [Variable(x) for x in inputs]
            outs = _to_tuple(self.func(*xs))
        return tuple(y.array for y in outs)

    def backward(self, indexes, grad_outputs):
        if chainer.config.enable_backprop:
            raise RuntimeError(
                'double backpropagation in functions.forget is not allowed.')
        # Run func again, on new leaf Variables, recording its graph, and
        # backpropagate through it to every leaf: the inputs' stand-ins,
        # and also the parameters func uses (a link's W gets its gradient).
        # in_recomputing tells links not to count this run (a batch
        # normalization's statistics were updated by the first one).
        inputs = self.get_retained_inputs()
        xs = tuple([Variable(x.array) for x in inputs])
        with chainer.force_backprop_mode(), \
                chainer.using_config('in_recomputing', True):
            outs = _to_tuple(self.func(*xs))
        pairs = [(y, gy) for y, gy in zip(outs, grad_outputs)
                 if gy is not None]
        if pairs:
            chainer.backward([y for y, _ in pairs], [gy for _, gy in pairs])
        return tuple([xs[i].grad_var for i in indexes])


def forget(func, *xs):
    """Calls a function without storing intermediate results.

    In forward, ``func(*xs)`` runs without recording its computational
    graph, so its intermediate arrays are freed at once; only the inputs
    are kept. In backward it runs again, this time recording the graph,
    and the gradient flows through that (to the inputs, and to the
    parameters ``func`` uses, such as a link's). Double backpropagation
    through it is not supported (RuntimeError), as in Chainer. This saves memory at the cost of
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
        created by a :class:`Forget` node (a one-element tuple gives its
        Variable alone).


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
    ys = Forget(func).apply(xs)
    if len(ys) == 1:
        return ys[0]
    return ys
