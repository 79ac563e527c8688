"""What the GPU communicators share: they need CuPy built with NCCL 2."""

from chainermn import nccl


def require_nccl(name):
    if not nccl.available:
        raise RuntimeError(
            '{} needs CuPy built with NCCL (NCCL 2 or later), which is not available: '
            "install CuPy for your CUDA version (pip install 'chainer[cuda]'), or use "
            "a CPU communicator: create_communicator('naive') or "
            "create_communicator('flat')".format(name))
    if nccl.get_build_version() < 2000:
        raise RuntimeError('{} needs NCCL 2 or later; CuPy was built with NCCL {}'.format(
            name, nccl.get_build_version()))
