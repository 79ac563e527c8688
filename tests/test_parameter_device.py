"""Parameter.device: a device of the user's own Device class given to
to_device is kept (Chainer keeps the Device object); the standard devices
are read from the array."""

import numpy

import chainer
from chainer import backend


class _MyDevice(backend.Device):
    xp = numpy
    supported_array_types = (numpy.ndarray,)

    def __init__(self, index):
        self.index = index

    def __eq__(self, other):
        return isinstance(other, _MyDevice) and other.index == self.index

    def __str__(self):
        return '@mine:{}'.format(self.index)

    def send_array(self, array):
        return array.copy()


def test_user_device_is_kept():
    p = chainer.Parameter(numpy.zeros(3, numpy.float32))
    p.to_device(_MyDevice(3))
    assert p.device == _MyDevice(3)
    p.to_device('@numpy')
    assert p.device == backend.CpuDevice()


def test_uninitialized_parameter_reports_its_initial_device():
    p = chainer.Parameter()
    assert p.device == backend.CpuDevice()
    p.to_device(_MyDevice(1))
    assert p.device == _MyDevice(1)
    p.initialize((2,))
    assert p.device == _MyDevice(1)
    assert p.array.shape == (2,)


def test_array_of_another_kind_is_not_claimed_by_a_user_device():
    class Other(_MyDevice):
        supported_array_types = ()
    p = chainer.Parameter(numpy.zeros(3, numpy.float32))
    p.to_device(Other(0))
    assert p.device == backend.CpuDevice()
