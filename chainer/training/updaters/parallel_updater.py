"""ParallelUpdater: data parallelism over several devices in one process."""

import contextlib
import copy

import chainer
from chainer import backend
from chainer.dataset import convert
from chainer.training.updaters import standard_updater


_nullcontext = contextlib.nullcontext


class ParallelUpdater(standard_updater.StandardUpdater):
    """Splits each minibatch over several copies of the model.

    Every copy computes the loss of its share of the minibatch; the
    gradients are summed into the main model, the main optimizer updates
    it, and the new parameters are copied back to the other models.

    Args:
        iterator: The dataset iterator (or a dict with ``'main'``).
        optimizer: The optimizer of the main model (or a dict).
        converter: The converter (called per device).
        models (dict): Name to model; must include ``'main'``, the
            optimizer's target. Made from ``devices`` when omitted.
        devices (dict): Name to device; ``'main'`` is the main model's.
            The other models are deep copies of the main one.
        loss_func: Computes the loss (by default each model is called).
        loss_scale (float): Loss scaling factor.
        auto_new_epoch (bool): Call ``optimizer.new_epoch(auto=True)`` at
            each epoch's end.
    """

    def __init__(self, iterator, optimizer, converter=convert.concat_examples,
                 models=None, devices=None, loss_func=None, loss_scale=None,
                 auto_new_epoch=True):
        super().__init__(iterator, optimizer, converter=converter,
                         loss_func=loss_func, loss_scale=loss_scale,
                         auto_new_epoch=auto_new_epoch)
        main_opt = self._optimizers['main']
        if models is None:
            if devices is None:
                raise ValueError('either models or devices must be specified')
            if 'main' not in devices:
                raise KeyError("'devices' must contain a 'main' key.")
            devices = {k: backend.get_device(v) for k, v in devices.items()}
            models = {'main': main_opt.target}
            for name, device in devices.items():
                if name != 'main':
                    model = copy.deepcopy(main_opt.target)
                    model.to_device(device)
                    models[name] = model
            main_opt.target.to_device(devices['main'])
        else:
            if 'main' not in models:
                raise KeyError("'models' must contain a 'main' key.")
            devices = {k: backend.get_device(v)
                       for k, v in (devices or {}).items()}
        self._devices = devices
        self._models = models

    def connect_trainer(self, trainer):
        """Registers the non-main models as observers of the reporter."""
        main = self._optimizers['main'].target
        for name, model in self._models.items():
            if model is not main:
                trainer.reporter.add_observer(name, model)

    def update_core(self):
        optimizer = self._optimizers['main']
        model_main = optimizer.target
        others = [m for m in self._models.values() if m is not model_main]
        iterator = self._iterators['main']
        batch = iterator.next()
        n = len(self._models)
        in_arrays = {
            name: standard_updater._call_converter(
                self.converter, batch[i::n], self._devices.get(name))
            for i, name in enumerate(self._models)}
        for model in self._models.values():
            model.cleargrads()
        losses = []
        for name, model in self._models.items():
            loss_func = self.loss_func or model
            args = in_arrays[name]
            device = self._devices.get(name)
            with chainer.force_backprop_mode(), \
                    (chainer.using_device(device) if device is not None
                     else _nullcontext()):
                if isinstance(args, tuple):
                    loss = loss_func(*args)
                elif isinstance(args, dict):
                    loss = loss_func(**args)
                else:
                    loss = loss_func(args)
            losses.append(loss)
        # The models may have created their parameters lazily above.
        for model in self._models.values():
            model.cleargrads()
        for loss in losses:
            loss.backward(loss_scale=self.loss_scale)
        for model in others:
            model_main.addgrads(model)
        optimizer.update()
        for model in others:
            model.copyparams(model_main)
        if self.auto_new_epoch and iterator.is_new_epoch:
            optimizer.new_epoch(auto=True)
