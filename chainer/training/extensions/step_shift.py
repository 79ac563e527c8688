"""StepShift: multiplies an optimizer attribute by ``gamma`` every
``step`` calls."""

import numpy

from chainer.training.extensions import _shift


class StepShift(_shift._Shift):
    """Sets ``optimizer.<attr> = init * gamma ** floor(t / step)`` at the
    t-th call.

    Args:
        attr (str): The attribute.
        gamma (float): The factor per step.
        step (int): Calls per step.
        init (float): The initial value (the optimizer's by default).
        target (float): A bound the value does not pass.
        optimizer: The optimizer (the updater's ``'main'`` by default).
    """

    def __init__(self, attr, gamma, step, init=None, target=None,
                 optimizer=None):
        super().__init__(attr, optimizer)
        if step <= 0:
            raise ValueError('StepShift: step must be positive, got '
                             '{}'.format(step))
        self._gamma = gamma
        self._step = step
        self._init = init
        self._target = target

    def _value(self):
        # numpy.floor's float64, as Chainer's (the value is a NumPy
        # float64 there, a float once clamped)
        value = self._init * self._gamma ** numpy.floor(
            self._t / self._step)
        return _shift._clamp(value, self._target, self._gamma > 1)
