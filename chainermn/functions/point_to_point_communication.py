"""send and recv between two ranks, with gradients flowing back along the
messages. Backward runs MPI directly on arrays (a message has no
differentiable formula), so these give first-order gradients only."""

import chainer
from chainer import function_node
from chainer.utils import experimental
from chainermn.functions import _delegate


class Send(function_node.FunctionNode):
    """Sends its inputs, but the last, to ``peer_rank``; its output is an
    empty delegate. Backward receives the inputs' gradients from the peer.
    The last input is a delegate leaf that requires a gradient: the peer
    sends gradients back even for arrays, so backward must run to take
    them."""

    def __init__(self, comm, peer_rank, peer_tag):
        experimental('chainermn.functions.Send')
        self.comm, self.peer_rank, self.peer_tag = comm, peer_rank, peer_tag

    def forward(self, inputs):
        xs = inputs[:-1]
        self._meta = [(chainer.backend.get_array_module(x), x.shape, x.dtype) for x in xs]
        self.comm.send(xs if len(xs) > 1 else xs[0], self.peer_rank, self.peer_tag)
        return _delegate.empty_like_device(xs[0]),

    def backward(self, indexes, grad_outputs):
        gxs = self.comm.recv(self.peer_rank, self.peer_tag)
        if not isinstance(gxs, tuple):
            gxs = gxs,
        gxs = tuple(chainer.Variable(xp.asarray(g).astype(dtype, copy=False))
                    for g, (xp, _, dtype) in zip(gxs, self._meta))
        return gxs + (chainer.Variable(_delegate.empty_like_device(gxs[0].array)),)


class Recv(function_node.FunctionNode):
    """Receives arrays from ``peer_rank``; its input is a delegate (of an
    earlier send, or a fresh one). Backward sends the outputs' gradients back
    (zeros where there is none)."""

    def __init__(self, comm, peer_rank, peer_tag, device=None):
        experimental('chainermn.functions.Recv')
        self.comm, self.peer_rank, self.peer_tag = comm, peer_rank, peer_tag
        self.device = device

    def forward(self, inputs):
        self._in = inputs[0].shape, inputs[0].dtype
        ys = self.comm.recv(self.peer_rank, self.peer_tag)
        if not isinstance(ys, tuple):
            ys = ys,
        if self.device is not None:
            ys = tuple(self.device.send(y) for y in ys)
        else:
            xp = chainer.backend.get_array_module(inputs[0])
            ys = tuple(xp.asarray(y) for y in ys)
        self._meta = [(y.shape, y.dtype) for y in ys]
        self._xp = chainer.backend.get_array_module(ys[0])
        return ys

    def backward(self, indexes, grad_outputs):
        gys = tuple(_delegate.zeros_grad(self._xp, s, d) if g is None else g.array
                    for g, (s, d) in zip(grad_outputs, self._meta))
        self.comm.send(gys if len(gys) > 1 else gys[0], self.peer_rank, self.peer_tag)
        return chainer.Variable(self._xp.zeros(*self._in)),


def send(x, communicator, rank, tag=0):
    """Sends ``x`` (a Variable or a tuple of them) to rank ``rank`` (this
    rank too, for a model whose parts exchange with themselves).

    Returns a delegate variable: an empty array whose ``backward()`` receives
    the gradients of ``x`` from ``rank`` (where :func:`recv`'s outputs took
    part in a loss) and carries on backward from ``x``. Pass it to
    :func:`recv` or :func:`pseudo_connect` to order several messages in one
    graph.
    """
    experimental('chainermn.functions.send')
    xs = tuple(x) if isinstance(x, (tuple, list)) else (x,)
    xp = chainer.backend.get_array_module(xs[0])
    y, = Send(communicator, rank, tag).apply(xs + (_delegate.delegate(xp),))
    return _delegate.ready(y)


def recv(communicator, rank, delegate_variable=None, tag=0, force_tuple=False, *,
         device=None):
    """Receives what rank ``rank`` sent with :func:`send`.

    Returns a Variable (or a tuple of them, when several were sent or with
    ``force_tuple``) whose backward sends the gradients back to ``rank``.
    ``delegate_variable`` (the output of an earlier :func:`send`) joins that
    send into this graph, so one backward runs both. ``device`` puts the
    arrays on that device (``chainer.get_device`` specifier).
    """
    experimental('chainermn.functions.recv')
    if delegate_variable is None:
        delegate_variable = _delegate.delegate()
    else:
        delegate_variable.name = 'delegate_variable'
    if device is not None:
        device = chainer.get_device(device)
    ys = Recv(communicator, rank, tag, device).apply((delegate_variable,))
    return ys if len(ys) > 1 or force_tuple else ys[0]
