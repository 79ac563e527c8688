"""Communicators, and :func:`create_communicator` to choose one by name."""

from chainermn.communicators.communicator_base import CommunicatorBase  # NOQA

# name -> (module, class); imported on use, so that this package imports
# without mpi4py or CuPy.
_COMMUNICATORS = {
    'naive': ('naive_communicator', 'NaiveCommunicator'),
    'flat': ('flat_communicator', 'FlatCommunicator'),
    'non_cuda_aware': ('non_cuda_aware_communicator', 'NonCudaAwareCommunicator'),
    'pure_nccl': ('pure_nccl_communicator', 'PureNcclCommunicator'),
    'dummy': ('dummy_communicator', 'DummyCommunicator'),
}


def create_communicator(communicator_name='pure_nccl', mpi_comm=None,
                        allreduce_grad_dtype=None, batched_copy=True):
    """Creates a ChainerMN communicator.

    Args:
        communicator_name (str): ``'naive'`` and ``'flat'`` work on the CPU
            (and on GPUs, through host memory); ``'pure_nccl'`` (the default)
            and ``'non_cuda_aware'`` need CuPy built with NCCL 2 and raise
            :class:`RuntimeError` without it; ``'dummy'`` averages nothing
            (for timing). The names Chainer 7 dropped (``'hierarchical'``,
            ``'two_dimensional'``, ``'single_node'``) raise
            :class:`ValueError`, as any other.
        mpi_comm: an ``mpi4py`` communicator; ``MPI.COMM_WORLD`` if None.
        allreduce_grad_dtype: the dtype ``'pure_nccl'`` averages gradients in
            (float16, float32 or float64; their own if None). Other
            communicators raise :class:`ValueError` when it is given.
        batched_copy (bool): the ``'batched_copy'`` setting.

    Returns:
        CommunicatorBase: the communicator.

    Without mpi4py this raises an :class:`ImportError` that says to
    ``pip install 'chainer[mpi]'``.

    .. admonition:: Example

        Run as ``mpiexec -n 2 python script.py``:

        >>> import chainermn
        >>> comm = chainermn.create_communicator('naive')  # doctest: +SKIP
        >>> comm.allreduce_obj(comm.rank)  # doctest: +SKIP
        1
    """
    if communicator_name not in _COMMUNICATORS:
        raise ValueError('Unrecognized communicator: "{}" (known: {})'.format(
            communicator_name, ', '.join(sorted(_COMMUNICATORS))))
    if allreduce_grad_dtype is not None and communicator_name != 'pure_nccl':
        raise ValueError(
            "allreduce_grad_dtype is only available at 'pure_nccl' communicator.")
    import importlib
    from chainermn.communicators import _communication_utility
    MPI = _communication_utility.get_mpi()
    if mpi_comm is None:
        mpi_comm = MPI.COMM_WORLD
    module, name = _COMMUNICATORS[communicator_name]
    cls = getattr(importlib.import_module('chainermn.communicators.' + module), name)
    comm = cls(mpi_comm=mpi_comm)
    comm.set_config('batched_copy', batched_copy)
    if allreduce_grad_dtype is not None:
        comm.set_config('allreduce_grad_dtype', allreduce_grad_dtype)
    return comm
