import numpy

from chainer.training import extension
from chainer.training import trigger as trigger_module
from chainermn.extensions._util import to_host_value


def _mean_of_all(histories):
    values = [float(numpy.mean(v)) for h in histories for v in h]
    return float(numpy.mean(values)) if values else float('nan')


class ObservationAggregator(extension.Extension):
    """Reports, under ``aggregated_key``, the aggregate over all ranks of the
    values observed under ``original_key`` since the last communication
    (every ``comm_trigger``). ``aggregator`` takes the list (by rank) of
    lists of observed values; the default is the mean of all of them."""

    trigger = 1, 'iteration'
    priority = extension.PRIORITY_EDITOR
    name = None

    def __init__(self, comm, original_key, aggregated_key=None, *,
                 comm_trigger=(1, 'iteration'), aggregator=None):
        self.comm = comm
        self.original_key = original_key
        self.aggregated_key = original_key if aggregated_key is None else aggregated_key
        self.comm_trigger = trigger_module.get_trigger(comm_trigger)
        self.aggregator = _mean_of_all if aggregator is None else aggregator
        self.observation_history = []

    def __call__(self, trainer):
        observation = trainer.observation
        if self.original_key in observation:
            self.observation_history.append(to_host_value(observation[self.original_key]))
        if not self.comm_trigger(trainer):
            return
        histories = self.comm.gather_obj(self.observation_history)
        value = self.aggregator(histories) if self.comm.rank == 0 else None
        observation[self.aggregated_key] = self.comm.bcast_obj(value)
        self.observation_history = []
