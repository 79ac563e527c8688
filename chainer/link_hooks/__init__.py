"""Link hooks: code run around the forward of every link (``with hook:``)
or of one link (``Link.add_hook``)."""

from chainer.link_hooks import spectral_normalization  # NOQA
from chainer.link_hooks import timer  # NOQA
from chainer.link_hooks import weight_standardization  # NOQA

from chainer.link_hooks.spectral_normalization import SpectralNormalization  # NOQA
from chainer.link_hooks.timer import TimerHook  # NOQA
from chainer.link_hooks.weight_standardization import WeightStandardization  # NOQA
