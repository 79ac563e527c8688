"""OnceTrigger: fires once, at the first call."""

from chainer.training.triggers.interval_trigger import _serialize_or


class OnceTrigger:
    """Fires only at its first call (before the first iteration, when the
    extension is registered with ``call_before_training=True``, or else
    after it).

    Args:
        call_on_resume (bool): Fire again after the trainer is resumed
            from a snapshot.

    >>> t = OnceTrigger()
    >>> t(None), t(None), t.finished
    (True, False, True)
    """

    def __init__(self, call_on_resume=False):
        self._flag_first = True
        self._flag_resumed = call_on_resume

    @property
    def finished(self):
        return not (self._flag_first or self._flag_resumed)

    def __call__(self, trainer):
        fire = self._flag_first or self._flag_resumed
        self._flag_first = False
        self._flag_resumed = False
        return fire

    def serialize(self, serializer):
        # a snapshot older than the flag was taken after the first call
        self._flag_first = _serialize_or(
            serializer, '_flag_first', self._flag_first, False,
            'The flag is not saved. OnceTrigger guesses it is not first when '
            'resumed. If this trigger is resumed before first called, it may '
            'not work correctly.')
