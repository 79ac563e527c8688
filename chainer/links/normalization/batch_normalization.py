"""``L.BatchNormalization``: batch normalization with running statistics."""

import numpy

import chainer
import chainer.functions as F
from chainer import configuration
from chainer import initializers
from chainer import link
from chainer import variable


def _forward_kwargs(kwargs):
    """``finetune`` from ``forward``'s ``**kwargs`` (``test`` is the
    removed Chainer v1 option)."""
    if 'test' in kwargs:
        raise ValueError('test argument is not supported anymore. Use '
                         'chainer.using_config')
    finetune = kwargs.pop('finetune', False)
    if kwargs:
        raise TypeError('forward() got unexpected keyword argument(s) {}'
                        .format(', '.join(repr(k) for k in kwargs)))
    return finetune


class BatchNormalization(link.Link):
    """Batch normalization layer on outputs of linear or convolution
    functions.

    In training mode (``chainer.config.train``) it normalizes with the
    statistics of the batch (:func:`~chainer.functions.batch_normalization`)
    and updates the running averages ``avg_mean`` and ``avg_var``
    (``avg = decay * avg + (1 - decay) * batch_stat``; the variance is the
    unbiased one).  In test mode it normalizes with the running averages
    (:func:`~chainer.functions.fixed_batch_normalization`).

    With ``finetune=True`` in training mode, the running averages become
    the plain mean of the statistics of all batches since the last
    :meth:`start_finetuning` (``decay = 1 - 1 / N``, ``N`` counting the
    batches).

    Args:
        size (int or tuple of ints): Shape of the parameters and statistics
            (None: taken from the first input, which needs ``axis``).
        decay (float): Decay rate of the running averages.
        eps (float): Added to the variance for stability.
        dtype: Dtype of the parameters and statistics (default
            ``chainer.config.dtype``; ``mixed16`` maps to float32).
        use_gamma (bool): Learn the scale ``gamma`` (else it is 1).
        use_beta (bool): Learn the shift ``beta`` (else it is 0).
        initial_gamma: Initializer of ``gamma`` (default 1).
        initial_beta: Initializer of ``beta`` (default 0).
        axis (int or tuple of ints): Axes to normalize over (default: the
            first axis and the axes after the parameter's).
        initial_avg_mean: Initializer of ``avg_mean`` (default 0).
        initial_avg_var: Initializer of ``avg_var`` (default 1).

    Attributes:
        gamma (~chainer.Parameter): Scale (None without ``use_gamma``).
        beta (~chainer.Parameter): Shift (None without ``use_beta``).
        avg_mean (array): Running mean (a persistent value).
        avg_var (array): Running variance (a persistent value).
        N (int): Number of batches seen in fine-tuning (persistent).

    >>> import numpy as np
    >>> bn = BatchNormalization(2)
    >>> y = bn(np.array([[0., 1.], [2., 5.]], np.float32))
    >>> y.array.round(3)
    array([[-1., -1.],
           [ 1.,  1.]], dtype=float32)
    >>> bn.avg_mean
    array([0.1, 0.3], dtype=float32)
    """

    # Class-level defaults: a link without gamma (or beta, or statistics
    # not made yet) reads None.
    gamma = None
    beta = None
    avg_mean = None
    avg_var = None

    def __init__(self, size=None, decay=0.9, eps=2e-5, dtype=None,
                 use_gamma=True, use_beta=True, initial_gamma=None,
                 initial_beta=None, axis=None, initial_avg_mean=None,
                 initial_avg_var=None):
        super().__init__()
        if size is None and axis is None:
            raise RuntimeError('size or axis is required')
        if size is not None and not isinstance(
                size, (int, numpy.integer, tuple, list)):
            raise TypeError('BatchNormalization: size must be an int or a '
                            'tuple of ints, got {}'.format(type(size)))
        self._initial_avg_mean = initial_avg_mean
        self._initial_avg_var = initial_avg_var
        self.N = 0
        self.register_persistent('N')
        self.decay = decay
        self.eps = eps
        if isinstance(axis, int):
            axis = (axis,)
        self.axis = axis
        self._highprec_dtype = chainer.get_dtype(
            dtype, map_mixed16=numpy.float32)
        with self.init_scope():
            if use_gamma:
                self.gamma = variable.Parameter(
                    self._param_initializer(initial_gamma, 1))
            if use_beta:
                self.beta = variable.Parameter(
                    self._param_initializer(initial_beta, 0))
        # Registered now, made with the parameters (maybe lazily).
        self.add_persistent('avg_mean', None)
        self.add_persistent('avg_var', None)
        if size is not None:
            self._initialize_params(size)

    def _param_initializer(self, initializer, default):
        if initializer is None:
            initializer = default
        initializer = initializers._get_initializer(initializer)
        initializer.dtype = self._highprec_dtype
        return initializer

    def _init_array(self, initializer, default, shape):
        if initializer is None:
            initializer = default
        return initializers.generate_array(
            initializers._get_initializer(initializer), shape, self.xp,
            dtype=self._highprec_dtype, device=self.device)

    def _initialize_params(self, shape):
        self.avg_mean = self._init_array(self._initial_avg_mean, 0, shape)
        self._initial_avg_mean = None
        self.avg_var = self._init_array(self._initial_avg_var, 1, shape)
        self._initial_avg_var = None
        if self.gamma is not None:
            self.gamma.initialize(shape)
        if self.beta is not None:
            self.beta.initialize(shape)

    @property
    def printable_specs(self):
        # Chainer prints use_gamma/use_beta as True in every case.
        yield 'size', self.avg_mean.shape[0]
        yield 'decay', self.decay
        yield 'eps', self.eps
        yield 'dtype', self._highprec_dtype
        yield 'use_gamma', hasattr(self, 'gamma')
        yield 'use_beta', hasattr(self, 'beta')

    def _gamma_beta(self, x):
        if self.avg_mean is None:
            self._initialize_params(tuple(
                d for i, d in enumerate(x.shape) if i not in self.axis))
        gamma, beta = self.gamma, self.beta
        if gamma is None or beta is None:
            with chainer.using_device(self.device):
                if gamma is None:
                    gamma = self.xp.ones(self.avg_mean.shape,
                                         self._highprec_dtype)
                if beta is None:
                    beta = self.xp.zeros(self.avg_mean.shape,
                                         self._highprec_dtype)
        return gamma, beta

    def _decay(self, finetune):
        if finetune:
            self.N += 1
            return 1. - 1. / self.N
        return self.decay

    def forward(self, x, **kwargs):
        """Normalizes ``x``; ``finetune=True`` (keyword) averages the
        statistics of all batches since :meth:`start_finetuning`."""
        layout = getattr(x, 'layout', None)
        if layout is not None:
            # A channel-last (cuDNN) layout: normalized in the standard
            # one, and given back in the layout it came in.
            return self._forward_layout(x, layout, kwargs)
        finetune = _forward_kwargs(kwargs)
        gamma, beta = self._gamma_beta(x)
        if configuration.config.train:
            decay = self._decay(finetune)
            avg_mean, avg_var = self.avg_mean, self.avg_var
            if configuration.config.in_recomputing:
                # A forward run again (F.forget's backward): the running
                # statistics were updated the first time.
                if finetune:
                    self.N -= 1
                avg_mean = avg_var = None
            return F.batch_normalization(
                x, gamma, beta, eps=self.eps, running_mean=avg_mean,
                running_var=avg_var, decay=decay, axis=self.axis)
        return F.fixed_batch_normalization(
            x, gamma, beta, self.avg_mean, self.avg_var, self.eps,
            axis=self.axis)

    def _forward_layout(self, x, layout, kwargs):
        return self.forward(x.as_layout(None), **kwargs).as_layout(layout)

    def start_finetuning(self):
        """Resets the batch count ``N`` of fine-tuning."""
        self.N = 0
