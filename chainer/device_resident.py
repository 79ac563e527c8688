"""DeviceResident: an object whose arrays live on one device (a Link)."""

import warnings

import numpy

import chainer
from chainer import backend

# Methods that subclasses must not override: the first group warns (Chainer
# deprecated overriding them), the second is an error.
_DEPRECATED_OVERRIDES = ('to_cpu', 'to_gpu', 'to_intel64')
_FINAL = ('to_device', 'to_chx', 'from_chx')


def _warn_deprecated(method, spec):
    warnings.warn('{} is deprecated. Please use to_device(\'{}\') '
                  'instead.'.format(method, spec), DeprecationWarning)


class DeviceResidentsVisitor:
    """Visits a tree of DeviceResidents (see
    :meth:`DeviceResident.device_resident_accept`)."""

    def visit_device_resident(self, device_resident):
        """Called for each DeviceResident (a Link)."""

    def visit_array(self, arr):
        """Called for each array attribute; returns the array to keep."""
        return arr

    def visit_variable(self, param):
        """Called for each parameter."""


class _ToDeviceVisitor(DeviceResidentsVisitor):
    # As Chainer, for backward compatibility: a descendant that overrides
    # to_cpu/to_gpu/to_intel64 has that method called instead (the one
    # that matches the entry method, or the target device), except the
    # resident the deprecated method was first called on.

    def __init__(self, device, entry=None, start=None):
        self._device = device
        self._entry = entry
        self._start = start

    def visit_device_resident(self, device_resident):
        device_resident._device = self._device
        overridden = device_resident._overridden_to_methods
        if overridden and device_resident is not self._start:
            if self._entry is not None:
                name, kwargs = self._entry
            elif isinstance(self._device, backend.CpuDevice):
                name, kwargs = 'to_cpu', {}
            elif self._device.xp is numpy:
                name, kwargs = 'to_intel64', {}
            else:
                name, kwargs = 'to_gpu', {'device': self._device.device.id}
            if name in overridden:
                getattr(device_resident, name)(**kwargs)

    def visit_array(self, arr):
        return self._device.send(arr)

    def visit_variable(self, param):
        param.to_device(self._device)


class DeviceResident:
    """The base of objects that hold arrays on one device (Links).

    ``to_device`` moves every array (parameters, persistent arrays, and the
    arrays of children) to a device; ``device`` tells where they are.
    """

    _device = backend.CpuDevice()
    # The deprecated to_* methods this class overrides (see _ToDeviceVisitor).
    _overridden_to_methods = ()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._overridden_to_methods = tuple(
            name for name in _DEPRECATED_OVERRIDES
            if getattr(cls, name) is not getattr(DeviceResident, name))
        # As Chainer's final methods: only overriding DeviceResident's own
        # definition counts, so a subclass of an overrider is not warned again.
        for name in cls.__dict__:   # in definition order, as Chainer
            if name not in _FINAL and name not in _DEPRECATED_OVERRIDES:
                continue
            owner = next(k for k in cls.__mro__[1:] if name in k.__dict__)
            if owner is not DeviceResident:
                continue
            if name in _FINAL:
                raise TypeError('method {!r} is final.'.format(name))
            warnings.warn(
                'Overriding method {!r}.'.format(name), DeprecationWarning)

    @property
    def device(self):
        """The :class:`~chainer.backend.Device` of the arrays."""
        return self._device

    @property
    def xp(self):
        """The array module (``numpy`` or ``cupy``) of the device."""
        return self._device.xp

    def device_resident_accept(self, visitor):
        """Lets ``visitor`` visit this object and its arrays (subclasses
        extend it to their arrays and children)."""
        visitor.visit_device_resident(self)

    def to_device(self, device):
        """Moves all the arrays to ``device`` (any device spec: ``'@numpy'``,
        ``'@cupy:0'``, an int...), and returns ``self``."""
        device = chainer.get_device(device)
        self.device_resident_accept(_ToDeviceVisitor(device))
        return self

    def to_cpu(self):
        """Moves all the arrays to the CPU; returns ``self``.

        Deprecated, as in Chainer 7: use ``to_device('@numpy')``.
        """
        _warn_deprecated('to_cpu', '@numpy')
        self.device_resident_accept(_ToDeviceVisitor(
            backend.CpuDevice(), ('to_cpu', {}), self))
        return self

    def to_gpu(self, device=None):
        """Moves all the arrays to a GPU (the current one by default);
        returns ``self``.

        Deprecated, as in Chainer 7: use ``to_device('@cupy:N')``.
        """
        from chainer.backends import cuda
        cuda.check_cuda_available()   # before the warning, as in Chainer
        _warn_deprecated('to_gpu', '@cupy:N')
        if device is None:
            device = cuda.cuda.Device().id
        if not isinstance(device, backend.Device):
            device = cuda.GpuDevice.from_device_id(
                int(getattr(device, 'id', device)))
        self.device_resident_accept(_ToDeviceVisitor(
            device, ('to_gpu', {'device': device.device.id}), self))
        return self

    def to_intel64(self):
        """Not supported: iDeep is not part of chainer-ng."""
        from chainer.backends import intel64
        intel64.check_ideep_available()

    def to_chx(self):
        """Not supported: ChainerX is not part of chainer-ng."""
        raise RuntimeError('ChainerX is not available.')

    def from_chx(self):
        """A no-op (arrays are never ChainerX arrays here); returns
        ``self``."""
        return self
