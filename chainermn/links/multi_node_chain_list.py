import chainer
from chainermn import functions


def _as_list(ranks):
    return None if ranks is None else list(ranks) if isinstance(ranks, (list, tuple)) \
        else [ranks]


class MultiNodeChainList(chainer.ChainList):
    """A model cut into pieces that run on different ranks.

    Each :meth:`add_link` says where a component's input comes from
    (``rank_in``: a rank, a list of ranks, or None for the model's own input)
    and where its output goes (``rank_out``: a rank, a list, or None for the
    model's output). Calling the model runs this rank's components in order,
    receiving and sending as told, and returns the model's output, or, on a
    rank that only sends, a delegate variable: call ``backward()`` on it to
    run this rank's part of the backward pass.
    """

    def __init__(self, comm):
        super().__init__()
        self._comm = comm
        self._rank_inouts = []

    def add_link(self, link, rank_in=None, rank_out=None):
        super().add_link(link)
        self._rank_inouts.append((_as_list(rank_in), _as_list(rank_out)))

    def forward(self, *inputs):
        comm = self._comm
        y = None
        delegate = None
        for link, (rank_in, rank_out) in zip(self, self._rank_inouts):
            if rank_in is None:
                xs = inputs
            else:
                xs = []
                for r in rank_in:
                    xs.extend(functions.recv(comm, r, delegate_variable=delegate,
                                             force_tuple=True))
                    delegate = None
            y = link(*xs)
            if rank_out is None:
                if delegate is not None:
                    y = functions.pseudo_connect(delegate, y)
                    delegate = None
                continue
            for r in rank_out:
                if delegate is not None:
                    y = functions.pseudo_connect(delegate, y)
                delegate = functions.send(y, comm, r)
            y = None
        return delegate if y is None else y
