"""WeightStandardization: standardizes a link's weight per output channel
(Qiao et al., 2019)."""

import numpy

import chainer.functions as F
from chainer import backend
from chainer import link_hook


class WeightStandardization(link_hook.LinkHook):
    """Weight standardization of a link's weight.

    While the link runs forward, its weight ``W`` is replaced by
    ``(W - mean) / sqrt(var + eps)``, the mean and variance taken over all
    the axes but the first (each output channel separately). The gradient
    flows through the statistics.

    Args:
        eps (float): Added to the variance.
        weight_name (str): The parameter to standardize.
        name (str): The name of the hook (``'WeightStandardization'``).

    It works only through :meth:`chainer.Link.add_hook`, not as a context
    manager.

    >>> import chainer.links as L
    >>> from chainer.link_hooks import WeightStandardization
    >>> conv = L.Convolution2D(3, 8, 3).add_hook(WeightStandardization())
    """

    name = 'WeightStandardization'

    def __init__(self, *, eps=1e-5, weight_name='W', name=None):
        self.eps = eps
        self.weight_name = weight_name
        self._initialized = False
        if name is not None:
            self.name = name

    def __enter__(self):
        raise NotImplementedError(
            'This hook is not supposed to be used as context manager.')

    def __exit__(self, *args):
        raise NotImplementedError

    def added(self, link):
        if not hasattr(link, self.weight_name):
            raise ValueError(
                "Weight '{}' does not exist!".format(self.weight_name))
        self._initialized = True

    def forward_preprocess(self, args):
        link = args.link
        weight = getattr(link, self.weight_name)
        if weight.array is None:
            x = args.args[0]
            import chainer.links as L
            if isinstance(link, L.Linear):
                link._initialize_params(int(numpy.prod(x.shape)) //
                                        x.shape[0])
            else:
                link._initialize_params(x.shape[1])
        self.original_weight = weight
        setattr(link, self.weight_name, self._standardize(weight))

    def forward_postprocess(self, args):
        setattr(args.link, self.weight_name, self.original_weight)

    def _standardize(self, weight):
        # A group normalization of one group (each output unit a sample),
        # so that the arithmetic, and the rounding, are Chainer's.
        xp = backend.get_array_module(weight.array)
        channels = weight.shape[1]
        gamma = xp.ones((channels,), dtype=weight.dtype)
        beta = xp.zeros((channels,), dtype=weight.dtype)
        return F.group_normalization(weight, 1, gamma, beta, eps=self.eps)
