"""``L.DecorrelatedBatchNormalization``: whitening of channel groups."""

import warnings

import numpy

import chainer.functions as F
from chainer import configuration
from chainer import link
from chainer import serializer as serializer_module


class DecorrelatedBatchNormalization(link.Link):
    """Decorrelated batch normalization layer.

    In training mode it whitens the channels of the input, in ``groups``
    groups, with the batch statistics
    (:func:`~chainer.functions.decorrelated_batch_normalization`) and
    updates the running mean ``avg_mean`` ``(groups, size // groups)`` and
    the running whitening matrix ``avg_projection`` ``(groups, size //
    groups, size // groups)``.  In test mode it uses them
    (:func:`~chainer.functions.fixed_decorrelated_batch_normalization`).
    The link has no learnable parameter.

    Args:
        size (int): Number of channels.
        groups (int): Number of channel groups.
        decay (float): Decay rate of the running statistics.
        eps (float): Added to the covariance for stability.
        dtype: Dtype of the running statistics.

    >>> import numpy as np
    >>> dbn = DecorrelatedBatchNormalization(4, groups=2)
    >>> dbn.avg_projection.shape
    (2, 2, 2)
    """

    def __init__(self, size, groups=16, decay=0.9, eps=2e-5,
                 dtype=numpy.float32):
        super().__init__()
        C = size // groups
        self.add_persistent('avg_mean', numpy.zeros((groups, C), dtype))
        self.add_persistent(
            'avg_projection', numpy.broadcast_to(
                numpy.eye(C, dtype=dtype), (groups, C, C)).copy())
        self.N = 0
        self.register_persistent('N')
        self.decay = decay
        self.eps = eps
        self.groups = groups

    def forward(self, x, **kwargs):
        """Whitens ``x`` ``(N, size, ...)``; ``finetune=True`` (keyword)
        averages the statistics of all batches since
        :meth:`start_finetuning`."""
        finetune = kwargs.pop('finetune', False)
        if kwargs:
            raise TypeError('forward() got unexpected keyword argument(s) {}'
                            .format(', '.join(repr(k) for k in kwargs)))
        if configuration.config.train:
            if finetune:
                self.N += 1
                decay = 1. - 1. / self.N
            else:
                decay = self.decay
            avg_mean, avg_projection = self.avg_mean, self.avg_projection
            if configuration.config.in_recomputing:
                # A forward run again (F.forget's backward): the running
                # statistics were updated the first time.
                if finetune:
                    self.N -= 1
                avg_mean = avg_projection = None
            return F.decorrelated_batch_normalization(
                x, groups=self.groups, eps=self.eps,
                running_mean=avg_mean,
                running_projection=avg_projection, decay=decay)
        return F.fixed_decorrelated_batch_normalization(
            x, self.avg_mean, self.avg_projection, groups=self.groups)

    def serialize(self, serializer):
        if isinstance(serializer, serializer_module.Deserializer) and \
                not serializer.dry_run and self.groups != 1:
            # Statistics saved by the old algorithm (before Chainer v7)
            # have no group axis; they are broadcast over the groups (with
            # one group they are the same, and Chainer says nothing).
            for name in ('avg_mean', 'avg_projection'):
                try:
                    stored = serializer(name, None)
                except KeyError:
                    continue
                current = getattr(self, name)
                if stored is not None and current is not None and \
                        stored.ndim == current.ndim - 1:
                    warnings.warn(
                        'Found moving statistics of old '
                        'DecorrelatedBatchNormalization, whose algorithm was '
                        'different from the paper.', UserWarning)
        super().serialize(serializer)

    def start_finetuning(self):
        """Resets the batch count ``N`` of fine-tuning."""
        self.N = 0
