import collections

import chainer
from chainer.utils import experimental
from chainermn import functions


def _as_list(ranks):
    return None if ranks is None else list(ranks) if isinstance(ranks, (list, tuple)) \
        else [ranks]


def _connect(delegate, out):
    """``out`` (a Variable, an array, or a tuple of them) joined in the graph
    after ``delegate``."""
    if isinstance(out, tuple):
        return functions.pseudo_connect(delegate, *out)
    return functions.pseudo_connect(delegate, out)[0]


def _one(out):
    return out[0] if isinstance(out, tuple) else out


class MultiNodeChainList(chainer.ChainList):
    """A model cut into pieces that run on different ranks.

    Each :meth:`add_link` says where a component's input comes from
    (``rank_in``: a rank, a list of ranks, or None for the model's own input)
    and where its output goes (``rank_out``: a rank, a list, or None for the
    model's output; at most one component of a rank has None). A component
    receiving from several ranks is called with what each one sent, in
    the order of ``rank_in``; what was sent as a tuple arrives as one tuple.
    Ranks may send to themselves.

    Calling the model runs this rank's components in order, receiving and
    sending as told, and returns the model's output, joined in the graph
    with every send that follows it, so that one ``backward()`` from the loss
    runs this rank's whole part of the backward pass. On a rank without an
    output it returns the delegate variable of its last send: call
    ``backward()`` on it.
    """

    def __init__(self, comm):
        experimental('chainermn.MultiNodeChainList')
        super().__init__()
        self._comm = comm
        self._rank_inouts = []

    def add_link(self, link, rank_in=None, rank_out=None):
        """Appends the component ``link``, receiving its inputs from
        ``rank_in`` and sending its output to ``rank_out`` (see the class)."""
        rank_in, rank_out = _as_list(rank_in), _as_list(rank_out)
        if rank_out is None and any(out is None for _, out in self._rank_inouts):
            raise ValueError('MultiNodeChainList: only one component may give the '
                             "model's output (rank_out=None)")
        super().add_link(link)
        self._rank_inouts.append((rank_in, rank_out))

    def forward(self, *inputs):
        comm = self._comm
        # What this rank's components send to themselves: passed on in the
        # graph, not through MPI.
        to_self = collections.deque()
        y = None  # the model's output
        # Each message (and the output) is joined in the graph after the one
        # before it, so that backward runs them in the reverse order of the
        # forward pass on every rank, and a rank waiting for a gradient never
        # waits on one that is waiting for it.
        last = None
        for link, (rank_in, rank_out) in zip(self, self._rank_inouts):
            if rank_in is None:
                xs = inputs if last is None else _connect(last, tuple(inputs))
            else:
                xs = []
                for r in rank_in:
                    if r != comm.rank:
                        x = functions.recv(comm, r, delegate_variable=last)
                    elif not to_self:
                        raise ValueError('MultiNodeChainList: rank {} receives from itself '
                                         'what it has not sent to itself'.format(r))
                    else:
                        x = to_self.popleft()
                        x = x if last is None else _connect(last, x)
                    xs.append(x)
                    last = _one(x)
            out = link(*xs)
            if rank_out is None:
                y = out
                last = _one(out)
                continue
            for r in rank_out:
                if last is not None:
                    out = _connect(last, out)
                if r == comm.rank:
                    to_self.append(out)
                    last = _one(out)
                else:
                    last = functions.send(out, comm, r)
        if to_self:
            raise ValueError('MultiNodeChainList: rank {} sends to itself what none of its '
                             'components receives'.format(comm.rank))
        if y is None:
            return last
        return y if last is _one(y) else _connect(last, y)
