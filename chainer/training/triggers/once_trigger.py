"""OnceTrigger: fires once, at the first call."""


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
        self._flag_first = serializer('_flag_first', self._flag_first)
