"""StandardUpdater: one minibatch, one loss, one optimizer step."""

from chainer import backend
from chainer.dataset import convert
from chainer.training import _updater
from chainer.utils import argument


def _legacy_device(device):
    """A plain-function converter gets Chainer's legacy device id (None,
    -1 for the CPU, the GPU's id)."""
    if device is None:
        return None
    if isinstance(device, backend.CpuDevice):
        return -1
    return device.device.id


def _call_converter(converter, batch, device):
    if isinstance(converter, convert.Converter):
        return converter(batch, device)
    return converter(batch, _legacy_device(device))


def _as_dict(obj):
    # A dict needs no 'main' entry: a custom update_core (e.g. a GAN's
    # 'gen' and 'dis' optimizers) may use its own names.
    if isinstance(obj, dict):
        return dict(obj)
    return {'main': obj}


def _update(optimizer, loss_func, in_arrays):
    if isinstance(in_arrays, tuple):
        optimizer.update(loss_func, *in_arrays)
    elif isinstance(in_arrays, dict):
        optimizer.update(loss_func, **in_arrays)
    else:
        optimizer.update(loss_func, in_arrays)


class StandardUpdater(_updater.Updater):
    """The standard updater: each update reads a minibatch from the main
    iterator, converts it, and calls ``optimizer.update(loss_func, *batch)``.

    Args:
        iterator: A dataset iterator, or a dict of them (``'main'`` is the
            one read each update).
        optimizer: An optimizer, or a dict of them (``'main'`` is updated).
        converter: Turns a list of examples into arrays (by default
            :func:`chainer.dataset.concat_examples`).
        device: The device to move the main model to (and, unless
            ``input_device`` says otherwise, the minibatches).
        loss_func: Computes the loss; by default the main optimizer's
            target link is called.
        loss_scale (float): Loss scaling factor for float16 training.
        auto_new_epoch (bool): Call ``optimizer.new_epoch(auto=True)`` at
            each epoch's end.
        input_device: Where the converter sends the minibatches.

    Attributes:
        iteration (int): The number of updates done.
    """

    def __init__(self, iterator, optimizer, converter=convert.concat_examples,
                 device=None, loss_func=None, loss_scale=None,
                 auto_new_epoch=True, **kwargs):
        input_device = kwargs.pop('input_device', None)
        if kwargs:
            # Chainer's text (its parse_kwargs names __init__)
            raise argument.unexpected_error('__init__', kwargs)
        if device is not None:
            device = backend.get_device(device)
        if input_device is not None:
            input_device = backend.get_device(input_device)
        elif device is not None:
            input_device = device
        self._iterators = _as_dict(iterator)
        self._optimizers = _as_dict(optimizer)
        if device is not None:
            for opt in self._optimizers.values():
                opt.target.to_device(device)
        self.converter = converter
        self.loss_func = loss_func
        self.iteration = 0
        self._device = device
        self._input_device = input_device
        self.loss_scale = loss_scale
        if loss_scale is not None:
            for opt in self._optimizers.values():
                opt.set_loss_scale(loss_scale)
        self.auto_new_epoch = auto_new_epoch
        if auto_new_epoch:
            for opt in self._optimizers.values():
                opt.use_auto_new_epoch = True

    @property
    def device(self):
        """The device the model was sent to (None if not given)."""
        return self._device

    @property
    def input_device(self):
        """The device the minibatches are sent to (None: left as is)."""
        return self._input_device

    @property
    def epoch(self):
        return self._iterators['main'].epoch

    @property
    def epoch_detail(self):
        return self._iterators['main'].epoch_detail

    @property
    def previous_epoch_detail(self):
        return self._iterators['main'].previous_epoch_detail

    @property
    def is_new_epoch(self):
        return self._iterators['main'].is_new_epoch

    def finalize(self):
        """Finalizes the iterators."""
        for iterator in self._iterators.values():
            iterator.finalize()

    def get_optimizer(self, name):
        return self._optimizers[name]

    def get_all_optimizers(self):
        return dict(self._optimizers)

    def get_iterator(self, name):
        """Returns the iterator called ``name``."""
        return self._iterators[name]

    def update(self):
        """Runs one update step (:meth:`update_core`) and counts it."""
        self.update_core()
        self.iteration += 1

    def update_core(self):
        """One step: read, convert, update (override to customize)."""
        iterator = self._iterators['main']
        batch = iterator.next()
        in_arrays = _call_converter(self.converter, batch, self.input_device)
        optimizer = self._optimizers['main']
        _update(optimizer, self.loss_func or optimizer.target, in_arrays)
        if self.auto_new_epoch and iterator.is_new_epoch:
            optimizer.new_epoch(auto=True)

    def serialize(self, serializer):
        """Saves or loads the iterators, optimizers, models and the
        iteration count."""
        for name, iterator in self._iterators.items():
            iterator.serialize(serializer['iterator:' + name])
        for name, optimizer in self._optimizers.items():
            optimizer.serialize(serializer['optimizer:' + name])
            optimizer.target.serialize(serializer['model:' + name])
        self.iteration = serializer('iteration', self.iteration)
