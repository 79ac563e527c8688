import numpy

import chainer
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
    lists of observed values; the default is the mean of all of them. The
    aggregate comes as the values observed came: a Variable, an array on
    their device, or a number."""

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
        self._like = None

    def __call__(self, trainer):
        observation = trainer.observation
        if self.original_key in observation:
            self._like = observation[self.original_key]
            self.observation_history.append(to_host_value(self._like))
        if not self.comm_trigger(trainer):
            return
        histories = self.comm.gather_obj(self.observation_history)
        value = self.aggregator(histories) if self.comm.rank == 0 else None
        observation[self.aggregated_key] = _as_observed(self.comm.bcast_obj(value),
                                                       self._like)
        self.observation_history = []


def _as_observed(value, like):
    """The aggregate in the kind of value observed: a Variable, an array on
    the same device, or a number."""
    array = like.array if isinstance(like, chainer.Variable) else like
    if hasattr(array, 'dtype') and not isinstance(array, numpy.generic):
        value = chainer.backend.get_device_from_array(array).send(
            numpy.asarray(value, dtype=array.dtype))
    return chainer.Variable(value) if isinstance(like, chainer.Variable) else value
