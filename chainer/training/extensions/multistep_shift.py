"""MultistepShift: multiplies an optimizer attribute by ``gamma`` at given
calls."""

from chainer.training.extensions import _shift


class MultistepShift(_shift._Shift):
    """Sets ``optimizer.<attr> = init * gamma ** k`` where ``k`` is the
    number of entries of ``step_value`` reached so far (call ``t`` reaches
    an entry ``s`` when ``t >= s``).

    Args:
        attr (str): The attribute.
        gamma (float): The factor per step.
        step_value (list of int): The calls at which to step.
        init (float): The initial value.
        optimizer: The optimizer (the updater's ``'main'`` by default).
    """

    def __init__(self, attr, gamma, step_value, init, optimizer=None):
        super().__init__(attr, optimizer)
        self._gamma = gamma
        self._step_value = list(step_value)
        self._init = init
        self._current_step = 0

    def initialize(self, trainer):
        # A resumed run continues from the saved step.
        self._update_value(self._get_optimizer(trainer), self._value())

    def _value(self):
        steps = self._step_value
        while self._current_step < len(steps) and \
                self._t >= steps[self._current_step]:
            self._current_step += 1
        return self._init * self._gamma ** self._current_step

    def serialize(self, serializer):
        self._t = serializer('_t', self._t)
        self._current_step = serializer('_current_step', self._current_step)
