import chainer


def get_device(device_id=None, use_chainerx=False):
    """The device a test runs on: GPU ``device_id`` (CuPy), or the CPU when
    it is None. chainer-ng has no ChainerX, so ``use_chainerx`` raises."""
    if use_chainerx:
        raise RuntimeError('ChainerX is not available in chainer-ng')
    if device_id is None:
        return chainer.get_device('@numpy')
    return chainer.get_device('@cupy:{}'.format(device_id))
