import numpy

from chainer.training import triggers
from chainermn.extensions._util import to_host_value


class MultiNodeEarlyStoppingTrigger:
    """:class:`chainer.training.triggers.EarlyStoppingTrigger` on the value of
    ``monitor`` averaged over the ranks (reported as ``monitor + suffix``),
    so that every rank stops at the same iteration."""

    def __init__(self, comm, *, check_trigger=(1, 'epoch'), monitor='main/loss',
                 patience=None, mode='auto', verbose=False, max_trigger=(100, 'epoch'),
                 suffix='_aggregated', **kwargs):
        self.comm = comm
        self.monitor = monitor
        self.aggregated_monitor = monitor + suffix
        self.actual_trigger = triggers.EarlyStoppingTrigger(
            check_trigger=check_trigger, monitor=self.aggregated_monitor, patience=patience,
            mode=mode, verbose=verbose, max_trigger=max_trigger, **kwargs)

    def __call__(self, trainer):
        observation = trainer.observation
        value = observation.get(self.monitor)
        # Every rank takes part, with or without a value this iteration.
        pair = numpy.array([0., 0.] if value is None else [float(to_host_value(value)), 1.])
        total, count = self.comm.allreduce(pair)
        if count:
            observation[self.aggregated_monitor] = total / count
        return self.actual_trigger(trainer)

    def get_training_length(self):
        return self.actual_trigger.get_training_length()
