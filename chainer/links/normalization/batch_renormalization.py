"""``L.BatchRenormalization``: batch renormalization."""

import chainer.functions as F
from chainer import configuration
from chainer.links.normalization.batch_normalization import \
    BatchNormalization


class BatchRenormalization(BatchNormalization):
    """Batch renormalization layer on outputs of linear or convolution
    functions.

    Like :class:`BatchNormalization`, but in training mode the batch
    statistics are corrected towards the running ones with ``r`` (clipped
    to ``[1/rmax, rmax]``) and ``d`` (clipped to ``[-dmax, dmax]``); see
    :func:`~chainer.functions.batch_renormalization`.  In test mode it is
    :func:`~chainer.functions.fixed_batch_normalization`.

    Args:
        size (int or tuple of ints): Shape of the parameters and statistics.
        rmax (float): Upper bound of ``r``.
        dmax (float): Bound of ``|d|``.
        decay, eps, dtype, use_gamma, use_beta, initial_gamma,
        initial_beta, initial_avg_mean, initial_avg_var: As
            :class:`BatchNormalization`.

    >>> import numpy as np
    >>> brn = BatchRenormalization(1, rmax=2., dmax=0.)
    >>> brn(np.array([[1.], [3.]], np.float32)).array.round(3)
    array([[-1.],
           [ 1.]], dtype=float32)
    """

    def __init__(self, size, rmax=1, dmax=0, decay=0.9, eps=2e-5,
                 dtype=None, use_gamma=True, use_beta=True,
                 initial_gamma=None, initial_beta=None,
                 initial_avg_mean=None, initial_avg_var=None):
        super().__init__(size, decay, eps, dtype, use_gamma, use_beta,
                         initial_gamma, initial_beta,
                         initial_avg_mean=initial_avg_mean,
                         initial_avg_var=initial_avg_var)
        self.rmax = rmax
        self.dmax = dmax
        self.r = None
        self.d = None

    def forward(self, x, finetune=False):
        """Renormalizes ``x`` (training) or normalizes it with the running
        statistics (test)."""
        gamma, beta = self._gamma_beta(x)
        if configuration.config.train:
            decay = self._decay(finetune)
            avg_mean, avg_var = self.avg_mean, self.avg_var
            update = True
            config = configuration.config
            if config.in_recomputing:
                # A forward run again (F.forget's backward): the running
                # statistics were updated the first time, so r and d come
                # from those the first run saw.
                if finetune:
                    self.N -= 1
                avg_mean, avg_var = self._prev_avg_mean, self._prev_avg_var
                update = False
            elif config._will_recompute:
                self._prev_avg_mean = avg_mean.copy()
                self._prev_avg_var = avg_var.copy()
            return F.batch_renormalization(
                x, gamma, beta, self.rmax, self.dmax, self.eps,
                avg_mean, avg_var, decay, update_statistics=update)
        return F.fixed_batch_normalization(
            x, gamma, beta, self.avg_mean, self.avg_var, self.eps)
