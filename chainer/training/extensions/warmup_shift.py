"""WarmupShift: raises an optimizer attribute linearly at the start of
training."""

from chainer.training.extensions import _shift


class WarmupShift(_shift._Shift):
    """Moves ``optimizer.<attr>`` linearly from ``warmup_start`` to
    ``init`` over the first ``warmup_iter`` calls, then leaves it alone
    (so other shifts can take over).

    Args:
        attr (str): The attribute.
        warmup_start (float): The value at the start.
        warmup_iter (int): The number of calls of the warm-up.
        init (float): The value reached at the end of the warm-up.
        optimizer: The optimizer (the updater's ``'main'`` by default).
    """

    def __init__(self, attr, warmup_start, warmup_iter, init,
                 optimizer=None):
        super().__init__(attr, optimizer)
        if warmup_iter <= 0:
            raise ValueError('WarmupShift: warmup_iter must be positive, '
                             'got {}'.format(warmup_iter))
        self._warmup_start = warmup_start
        self._warmup_iter = warmup_iter
        self._init = init

    def initialize(self, trainer):
        # A resumed run continues where the warm-up was.
        if self._t <= self._warmup_iter:
            self._update_value(self._get_optimizer(trainer), self._value())

    def __call__(self, trainer):
        self._t += 1
        if self._t <= self._warmup_iter:
            self._update_value(self._get_optimizer(trainer), self._value())

    def _value(self):
        if self._t >= self._warmup_iter:
            return self._init
        start = self._warmup_start
        return start + (self._init - start) * self._t / self._warmup_iter

    def serialize(self, serializer):
        self._t = serializer('_t', self._t)
