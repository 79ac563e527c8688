"""LinearShift: moves an optimizer attribute linearly between two values."""

from chainer.training.extensions import _shift


class LinearShift(_shift._Shift):
    """Sets ``optimizer.<attr>`` to ``v1`` up to call ``t1``, to ``v2``
    from call ``t2`` on, and linearly in between.

    Args:
        attr (str): The attribute.
        value_range (tuple): ``(v1, v2)``.
        time_range (tuple): ``(t1, t2)``, counted in calls.
        optimizer: The optimizer (the updater's ``'main'`` by default).
    """

    def __init__(self, attr, value_range, time_range, optimizer=None):
        super().__init__(attr, optimizer)
        self._value_range = value_range
        self._time_range = time_range
        self._init = False  # no initial value is read from the optimizer

    def _start(self):
        return self._value()

    def _value(self):
        t1, t2 = self._time_range
        v1, v2 = self._value_range
        t = self._t
        if t <= t1:
            return v1
        if t >= t2:
            return v2
        return v1 + (t - t1) / (t2 - t1) * (v2 - v1)
