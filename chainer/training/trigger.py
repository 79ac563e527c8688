"""Re-exports of the trigger basics (``chainer.training.trigger``)."""

from chainer.training.triggers.interval_trigger import IntervalTrigger  # NOQA
from chainer.training.util import _never_fire_trigger, get_trigger  # NOQA
