"""WarmupShift: raises an optimizer attribute linearly at the start of
training."""

from chainer.training.extensions import _shift


class WarmupShift(_shift._Shift):
    """Moves ``optimizer.<attr>`` linearly from ``warmup_start`` to
    ``init`` over the first ``warmup_iter`` calls, then leaves it alone
    (so other shifts can take over).

    Args:
        attr (str): The attribute.
        warmup_start (float): The value at the start (None: the
            optimizer's value when training starts).
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
        optimizer = self._get_optimizer(trainer)
        if self._warmup_start is None:
            # as Chainer: the warm-up starts from the optimizer's value
            self._warmup_start = getattr(optimizer, self._attr)
        if self._t == 0:
            self._update_value(optimizer, self._warmup_start)
        elif self._t <= self._warmup_iter:
            # A resumed run continues where the warm-up was.
            self._update_value(optimizer, self._value())

    def __call__(self, trainer):
        self._t += 1
        if self._t <= self._warmup_iter:
            self._update_value(self._get_optimizer(trainer), self._value())

    def _value(self):
        # Chainer's formula (its rounding: the last warm-up value may miss
        # init by an ulp, e.g. 0.6999999999999998 for 0.7)
        t, n = self._t, self._warmup_iter
        return (t * self._init + (n - t) * self._warmup_start) / n

    def serialize(self, serializer):
        self._t = serializer('_t', self._t)
