"""The CPU device (NumPy)."""

import numpy

from chainer import backend


class CpuDevice(backend.Device):
    """The CPU, computing with NumPy."""

    xp = numpy
    name = '@numpy'
    supported_array_types = (numpy.ndarray,)

    @staticmethod
    def from_array(array):
        # arrays only, as in Chainer (get_device_from_array also places
        # NumPy scalars and Python numbers on the CPU)
        if isinstance(array, numpy.ndarray):
            return CpuDevice()
        return None

    def send_array(self, array):
        if array is None or isinstance(array, numpy.ndarray):
            return array
        from chainer.backends import cuda
        if cuda.available and isinstance(array, cuda.ndarray):
            return array.get()
        if numpy.isscalar(array):  # Python and NumPy scalars, str too
            return numpy.asarray(array)
        raise TypeError(
            'Array cannot be converted into an numpy.ndarray\n'
            'Actual type: {}.'.format(type(array)))


def _to_cpu(array):
    """An array (NumPy or CuPy), None, or a list or tuple of them, on the
    host: Chainer's private helper behind ``CpuDevice.send``."""
    from chainer.backends import cuda
    return cuda.to_cpu(array)
