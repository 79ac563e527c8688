"""``F.copy``: copies a variable to a device, differentiably."""

import chainer
from chainer import backend
from chainer.function_node import FunctionNode


class Copy(FunctionNode):
    """Copies the input to another device."""

    def __init__(self, in_device, out_device):
        self._in_device = in_device
        self.out_device = out_device

    def forward(self, inputs):
        return self.out_device.send(inputs[0]),

    def backward(self, indexes, grad_outputs):
        return Copy(self.out_device, self._in_device).apply(grad_outputs)


def copy(x, dst):
    """Copies the input variable onto the specified device.

    Args:
        x (~chainer.Variable or array): Input.
        dst: A device specifier (``'@numpy'``, ``'@cupy:0'``, an int where
            negative means the CPU, or a Device).
    """
    in_device = backend.get_device_from_array(
        x.array if isinstance(x, chainer.Variable) else x)
    from chainer.backends import cuda
    if dst is cuda.DummyDevice:
        # Chainer's legacy name of the CPU
        out_device = backend.CpuDevice()
    else:
        out_device = chainer.get_device(dst)
    return Copy(in_device, out_device).apply((x,))[0]
