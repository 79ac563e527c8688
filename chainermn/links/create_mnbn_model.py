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
    mnbn.to_device(bn.device)
    return mnbn


def _replace(link, comm, communication_backend):
    """``link`` with its BatchNormalization links replaced, in place below
    it (``link`` itself is a copy)."""
    if isinstance(link, chainer.links.BatchNormalization) and \
            not isinstance(link, MultiNodeBatchNormalization):
        return _to_mnbn(link, comm, communication_backend)
    if isinstance(link, chainer.Sequential):
        for i, layer in enumerate(link):
            if isinstance(layer, chainer.Link):
                link[i] = _replace(layer, comm, communication_backend)
    elif isinstance(link, chainer.ChainList):
        for i, child in enumerate(list(link._children)):
            new = _replace(child, comm, communication_backend)
            if new is not child:
                new.name = child.name
                link._children[i] = new
    elif isinstance(link, chainer.Chain):
        for name in list(link._children):
            child = getattr(link, name)
            new = _replace(child, comm, communication_backend)
            if new is not child:
                delattr(link, name)
                with link.init_scope():
                    setattr(link, name, new)
    return link


def create_mnbn_model(link, comm, communication_backend='auto'):
    """A copy of ``link`` with every :class:`chainer.links.BatchNormalization`
    in it (in Chains, ChainLists and Sequentials, at any depth) replaced by a
    :class:`MultiNodeBatchNormalization` of the same parameters and
    statistics; ``link`` itself is left as it is."""
    return _replace(copy.deepcopy(link), comm, communication_backend)
