import copy

import chainer
from chainermn.links.batch_normalization import MultiNodeBatchNormalization


def _to_mnbn(bn, comm, communication_backend):
    mnbn = MultiNodeBatchNormalization(
        bn.avg_mean.shape, comm, decay=bn.decay, eps=bn.eps, dtype=bn.avg_mean.dtype,
        use_gamma=bn.gamma is not None, use_beta=bn.beta is not None,
        communication_backend=communication_backend)
    # Same parameters and statistics as the original.
    for name in ('gamma', 'beta'):
        if getattr(bn, name) is not None:
            getattr(mnbn, name).array[...] = getattr(bn, name).array
    mnbn.avg_mean[...] = bn.avg_mean
    mnbn.avg_var[...] = bn.avg_var
    mnbn.N = bn.N
    return mnbn


def create_mnbn_model(link, comm, communication_backend='auto'):
    """A copy of ``link`` with every :class:`chainer.links.BatchNormalization`
    in it replaced by a :class:`MultiNodeBatchNormalization` of the same
    parameters (``link`` itself is left as it is)."""
    if isinstance(link, chainer.links.BatchNormalization) and \
            not isinstance(link, MultiNodeBatchNormalization):
        return _to_mnbn(link, comm, communication_backend)
    if isinstance(link, chainer.Chain):
        new = copy.deepcopy(link)
        for name in list(new._children):
            child = getattr(new, name)
            delattr(new, name)
            with new.init_scope():
                setattr(new, name, create_mnbn_model(child, comm, communication_backend))
        return new
    if isinstance(link, chainer.ChainList):
        new = copy.deepcopy(link)
        for i, child in enumerate(list(new)):
            new._children[i] = create_mnbn_model(child, comm, communication_backend)
            new._children[i].name = str(i)
        return new
    return copy.deepcopy(link)
