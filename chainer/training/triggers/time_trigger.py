"""TimeTrigger: fires every ``period`` seconds of training time."""


class TimeTrigger:
    """Fires when the trainer's elapsed time passes the next multiple of
    ``period`` (one firing per call, catching up one period at a time).

    Args:
        period (float): Seconds between firings.
    """

    def __init__(self, period):
        self._period = period
        self._next_time = period

    def __call__(self, trainer):
        if self._next_time < trainer.elapsed_time:
            self._next_time += self._period
            return True
        return False

    def serialize(self, serializer):
        self._next_time = serializer('next_time', self._next_time)
