import chainer
from chainer.utils import experimental
from chainermn import functions


class _MultiNodeNStepRNN(chainer.Chain):
    """An NStep RNN whose initial states come from ``rank_in`` and whose final
    states go to ``rank_out``."""

    def __init__(self, link, communicator, rank_in, rank_out):
        super().__init__()
        with self.init_scope():
            self.actual_rnn = link
        self.communicator = communicator
        self.rank_in, self.rank_out = rank_in, rank_out
        self.n_cells = 2 if isinstance(link, (chainer.links.NStepLSTM,
                                              chainer.links.NStepBiLSTM)) else 1

    def forward(self, *inputs):
        comm = self.communicator
        cells = [None] * self.n_cells
        if self.rank_in is not None:
            cells = list(functions.recv(comm, self.rank_in, force_tuple=True))
        outputs = self.actual_rnn(*(tuple(cells) + inputs))
        delegate = None
        if self.rank_out is not None:
            delegate = functions.send(tuple(outputs[:self.n_cells]), comm, self.rank_out)
        return tuple(outputs) + (delegate,)


def create_multi_node_n_step_rnn(actual_link, communicator, rank_in=None, rank_out=None):
    """Wraps an NStep RNN link (``NStepLSTM``, ``NStepGRU``, ...) for a model
    split over ranks: its initial hidden (and cell) states are received from
    ``rank_in`` (zeros when None), its final states are sent to ``rank_out``.
    Calling it with the sequences returns the link's outputs followed by the
    delegate variable of the send (None when ``rank_out`` is None)."""
    experimental('chainermn.links.create_multi_node_n_step_rnn')
    return _MultiNodeNStepRNN(actual_link, communicator, rank_in, rank_out)
