"""Optimizer hooks: functions called around ``optimizer.update()``."""

from chainer.optimizer_hooks.gradient_clipping import GradientClipping  # NOQA
from chainer.optimizer_hooks.gradient_hard_clipping import GradientHardClipping  # NOQA
from chainer.optimizer_hooks.gradient_lars import GradientLARS  # NOQA
from chainer.optimizer_hooks.gradient_noise import GradientNoise  # NOQA
from chainer.optimizer_hooks.lasso import Lasso  # NOQA
from chainer.optimizer_hooks.weight_decay import WeightDecay  # NOQA
