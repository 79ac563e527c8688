"""Optimizer, GradientMethod, UpdateRule and hyperparameters.

A :class:`GradientMethod` gives each parameter of its target link an
:class:`UpdateRule`; ``optimizer.update()`` runs the hooks and then each
parameter's rule.  A rule's hyperparameters fall back to the optimizer's,
so ``opt.lr = 0.1`` changes every rule that has not set its own.
"""

import collections
import copy
import warnings

import numpy

import chainer
from chainer import backend
from chainer.variable import Variable


class Hyperparameter:
    """A set of hyperparameters whose missing entries come from a parent.

    >>> parent = Hyperparameter()
    >>> parent.lr = 0.1
    >>> child = Hyperparameter(parent)
    >>> child.lr
    0.1
    >>> child.lr = 0.01
    >>> child.lr, parent.lr
    (0.01, 0.1)
    """

    def __init__(self, parent=None):
        self._parent = parent

    def __getattr__(self, name):
        if name.startswith('_'):
            raise AttributeError(name)
        parent = self.__dict__.get('_parent')
        if parent is None:
            raise AttributeError(
                'hyperparameter {!r} is not defined'.format(name))
        return getattr(parent, name)

    def __repr__(self):
        d = self.get_dict()
        keys = sorted(d)
        return 'Hyperparameter({})'.format(
            ', '.join('{}={}'.format(k, d[k]) for k in keys))

    @property
    def parent(self):
        """The parent hyperparameter (None for a root)."""
        return self._parent

    def get_dict(self):
        """All the entries, this one's overriding the parent's."""
        d = {} if self._parent is None else self._parent.get_dict()
        for k, v in self.__dict__.items():
            if not k.startswith('_'):
                d[k] = v
        return d


class HyperparameterProxy:
    """A descriptor: ``optimizer.<name>`` reads and writes
    ``optimizer.hyperparam.<name>``."""

    def __init__(self, attr_name):
        self._attr_name = attr_name
        self.__doc__ = 'Alias of ``hyperparam.{}``.'.format(attr_name)

    def __get__(self, obj, type=None):
        if obj is None:
            return self
        return getattr(obj.hyperparam, self._attr_name)

    def __set__(self, obj, value):
        setattr(obj.hyperparam, self._attr_name, value)


def make_deprecation_message(module_name):
    return ('chainer.optimizer.{0} is deprecated. Use '
            'chainer.optimizer_hooks.{0} instead.'.format(module_name))


def _hook_timing(hook, timing):
    if timing not in ('pre', 'post', 'auto'):
        raise ValueError("timing must be 'pre', 'post' or 'auto', got "
                         '{!r}'.format(timing))
    if timing == 'auto':
        timing = getattr(hook, 'timing', 'pre')
        if timing not in ('pre', 'post'):
            raise ValueError('the hook {} has an invalid timing {!r}'.format(
                hook, timing))
    return timing


class UpdateRule:
    """How one parameter is updated: the base class of the ``*Rule``
    classes of the optimizers.

    Args:
        parent_hyperparam (Hyperparameter): Where missing hyperparameters
            are looked up (the optimizer's).
    """

    is_elementwise = False

    def __init__(self, parent_hyperparam=None):
        self._pre_update_hooks = collections.OrderedDict()
        self._post_update_hooks = collections.OrderedDict()
        self._state = None
        self.enabled = True
        self.hyperparam = Hyperparameter(parent_hyperparam)
        self.t = 0
        self._use_fp32_update = False
        self._fp32_param = None

    @property
    def state(self):
        """The dict of the state arrays (None before the first update)."""
        return self._state

    def add_hook(self, hook, name=None, timing='auto'):
        """Adds a hook called as ``hook(rule, param)`` around updates."""
        if not callable(hook):
            raise TypeError('hook function must be callable')
        timing = _hook_timing(hook, timing)
        if name is None:
            name = getattr(hook, 'name', getattr(hook, '__name__', None))
            if name is None:
                raise ValueError('the name of the hook function is not '
                                 'specified')
        hooks = self._pre_update_hooks if timing == 'pre' \
            else self._post_update_hooks
        if name in self._pre_update_hooks or name in self._post_update_hooks:
            raise ValueError('hook "{}" already exists'.format(name))
        hooks[name] = hook

    def remove_hook(self, name):
        """Removes the hook called ``name``."""
        try:
            del self._pre_update_hooks[name]
        except KeyError:
            del self._post_update_hooks[name]

    def update(self, param):
        """Updates ``param`` (a Parameter) with its gradient."""
        if not self.enabled:
            return
        self.t += 1
        if self._use_fp32_update and param.dtype == numpy.float16:
            if self._fp32_param is None:
                self._fp32_param = Variable(
                    param.array.astype(numpy.float32), name=param.name)
            fp32 = self._fp32_param
            fp32.grad = param.grad.astype(numpy.float32)
            if param.node._loss_scale is not None:
                fp32.node._loss_scale = param.node._loss_scale
            self._run(fp32)
            param.array[...] = fp32.array.astype(param.dtype)
            fp32.grad = None
        else:
            self._run(param)

    def _run(self, param):
        if param.grad is None:
            return
        node = param.node
        loss_scale = node._loss_scale
        if loss_scale is not None:
            # Undo the loss scaling of backward just before the update.
            param.grad = param.grad / loss_scale
            node._loss_scale = None
        if self._state is None:
            self._state = {}
            with chainer.using_device(param.device):
                self.init_state(param)
        for hook in self._pre_update_hooks.values():
            hook(self, param)
        self.update_core(param)
        for hook in self._post_update_hooks.values():
            hook(self, param)

    def update_core(self, param):
        """Updates ``param``; dispatches to the CPU or GPU version."""
        if isinstance(param.array, numpy.ndarray):
            self.update_core_cpu(param)
        else:
            self.update_core_gpu(param)

    def update_core_cpu(self, param):
        raise NotImplementedError

    def update_core_gpu(self, param):
        raise NotImplementedError

    def update_core_chainerx(self, param):
        raise NotImplementedError('ChainerX is not supported by chainer-ng')

    def init_state(self, param):
        """Initializes the state arrays (``self.state``) for ``param``."""

    def serialize(self, serializer):
        """Saves or loads ``t`` and the state arrays."""
        from chainer import serializer as serializer_module
        self.t = serializer('t', self.t)
        if self._state is None:
            if isinstance(serializer, serializer_module.Deserializer):
                # Learn the state's keys from a dummy parameter, then load.
                self._state = {}
                probe = copy.copy(self)
                probe._state = self._state
                arr = numpy.empty(1, dtype=numpy.float32)
                probe.init_state(Variable(arr, grad=arr))
                for key in list(self._state):
                    try:
                        value = serializer(key, None)
                    except KeyError:
                        if self.enabled:
                            raise
                        value = None
                    if value is None:
                        self._state = None
                        break
                    self._state[key] = value
        else:
            for key in self._state:
                self._state[key] = serializer(key, self._state[key])

    def use_fp32_update(self, flag=True):
        """Updates float16 parameters through a float32 copy."""
        self._use_fp32_update = flag


class Optimizer:
    """The base class of optimizers.

    ``setup(link)`` attaches the optimizer to the link it updates;
    ``update()`` updates its parameters.
    """

    target = None
    t = 0
    epoch = 0
    use_auto_new_epoch = False
    _pre_update_hooks = None
    _post_update_hooks = None
    _loss_scale = None
    _loss_scale_max = 65504
    _loss_scaling_is_dynamic = False

    def setup(self, link):
        """Sets the target link; returns the optimizer."""
        from chainer.link import Link
        if not isinstance(link, Link):
            raise TypeError('optimization target must be a link, got '
                            '{}'.format(type(link).__name__))
        self.target = link
        self.t = 0
        self.epoch = 0
        self._pre_update_hooks = collections.OrderedDict()
        self._post_update_hooks = collections.OrderedDict()
        return self

    def _check_set_up(self):
        if self.target is None:
            raise RuntimeError(
                'the optimizer has no target: call optimizer.setup(link) '
                'first')

    def update(self, lossfun=None, *args, **kwds):
        """Updates the parameters (by the gradients, or after computing
        ``lossfun(*args, **kwds)`` and its backward)."""
        raise NotImplementedError

    def new_epoch(self, auto=False):
        """Starts a new epoch (``epoch += 1``)."""
        if self.use_auto_new_epoch:
            if not auto:
                raise RuntimeError(
                    'invalid new_epoch call: this optimizer is set to count '
                    'epochs automatically (use_auto_new_epoch=True)')
        elif auto:
            raise RuntimeError(
                'invalid new_epoch call with auto=True: set '
                'use_auto_new_epoch=True to count epochs automatically')
        self.epoch += 1

    def add_hook(self, hook, name=None, timing='auto'):
        """Adds a hook function called as ``hook(optimizer)`` (or per
        parameter when it says ``call_for_each_param``) before
        (``'pre'``) or after (``'post'``) each update."""
        if not callable(hook):
            raise TypeError('hook function is not callable')
        self._check_set_up()
        timing = _hook_timing(hook, timing)
        if name is None:
            name = getattr(hook, 'name', getattr(hook, '__name__', None))
        if name in self._pre_update_hooks or \
                name in self._post_update_hooks:
            raise KeyError('hook "{}" already exists'.format(name))
        hooks = self._pre_update_hooks if timing == 'pre' \
            else self._post_update_hooks
        hooks[name] = hook

    def remove_hook(self, name):
        """Removes the hook called ``name``."""
        try:
            del self._pre_update_hooks[name]
        except KeyError:
            del self._post_update_hooks[name]

    def call_hooks(self, timing='pre'):
        """Calls the hooks of the given timing."""
        if timing not in ('pre', 'post'):
            raise ValueError("timing must be 'pre' or 'post'")
        hooks = self._pre_update_hooks if timing == 'pre' \
            else self._post_update_hooks
        for hook in hooks.values():
            self.call_hook(hook)

    def call_hook(self, hook):
        hook(self)

    def serialize(self, serializer):
        """Saves or loads ``t``, ``epoch`` and every update rule's state."""
        self.t = serializer('t', self.t)
        self.epoch = serializer('epoch', self.epoch)
        for name, param in self.target.namedparams():
            rule = getattr(param, 'update_rule', None)
            if rule is not None:
                rule.serialize(serializer[name])

    # --- loss scaling -----------------------------------------------------

    def loss_scaling(self, interval=1000, scale=None):
        """Turns on dynamic loss scaling (for float16 training)."""
        self._loss_scaling_is_dynamic = True
        self._loss_scale_interval = interval
        self._loss_scaling_multiplier = 2.0
        self._loss_scaling_isnan_ever = False
        self._loss_scaling_count = 0
        self._loss_scale = scale if scale is not None else 2. ** 10

    def set_loss_scale(self, loss_scale):
        """Sets a fixed loss scale."""
        self._loss_scaling_is_dynamic = False
        self._loss_scale = loss_scale

    def check_nan_in_grads(self):
        """Whether some gradient has a NaN or an inf."""
        for param in self.target.params():
            grad = param.grad
            if grad is None:
                continue
            xp = backend.get_array_module(grad)
            if not bool(xp.isfinite(grad).all()):
                return True
        return False

    def is_safe_to_update(self):
        return not self.check_nan_in_grads()

    def update_loss_scale(self):
        if not self._loss_scaling_is_dynamic:
            return
        if self._loss_scaling_isnan:
            multiplier = 1. / self._loss_scaling_multiplier
            self._loss_scaling_count = 0
            self._loss_scaling_isnan_ever = True
        else:
            self._loss_scaling_count += 1
            if self._loss_scaling_count < self._loss_scale_interval:
                return
            multiplier = self._loss_scaling_multiplier
            self._loss_scaling_count = 0
        scale = self._loss_scale * multiplier
        self._loss_scale = max(1., min(scale, self._loss_scale_max))


class GradientMethod(Optimizer):
    """An optimizer that updates each parameter by its gradient through an
    :class:`UpdateRule` (``create_update_rule`` makes them)."""

    def __init__(self):
        super().__init__()
        self.hyperparam = Hyperparameter()
        self._use_fp32_update = False
        self._use_cleargrads = True

    def setup(self, link):
        super().setup(link)
        for param in link.params():
            param.update_rule = self.create_update_rule()
            if self._use_fp32_update:
                param.update_rule.use_fp32_update()
        return self

    def reallocate_cleared_grads(self):
        """Fills the gradients that are None with zeros."""
        for name, param in self.target.namedparams(False):
            if param.grad is None:
                xp = param.xp
                with chainer.using_device(param.device):
                    param.grad = xp.zeros_like(param.array)

    def call_hook(self, hook):
        if getattr(hook, 'call_for_each_param', False):
            for param in self.target.params():
                hook(param.update_rule, param)
        else:
            hook(self)

    def update(self, lossfun=None, *args, **kwds):
        """Updates the parameters.

        With ``lossfun``, it first clears the gradients, computes
        ``loss = lossfun(*args, **kwds)`` and runs ``loss.backward()``.
        """
        self._check_set_up()
        if lossfun is not None:
            loss = lossfun(*args, **kwds)
            if self._use_cleargrads:
                self.target.cleargrads()
            else:
                self.target.zerograds()
            loss.backward(loss_scale=self._loss_scale)
            del loss

        if self._loss_scaling_is_dynamic:
            self._loss_scaling_isnan = self.check_nan_in_grads()
            self.update_loss_scale()
            if self._loss_scaling_isnan:
                self.target.cleargrads()
                return

        self.reallocate_cleared_grads()
        self.call_hooks('pre')
        self.t += 1
        for param in self.target.params():
            param.update()
        self.reallocate_cleared_grads()
        self.call_hooks('post')

    def use_cleargrads(self, use=True):
        """Deprecated: cleargrads is always used unless told otherwise."""
        warnings.warn(
            'GradientMethod.use_cleargrads is deprecated.',
            DeprecationWarning)
        self._use_cleargrads = use

    def create_update_rule(self):
        """Makes the update rule of one parameter."""
        raise NotImplementedError

    def use_fp32_update(self, flag=True):
        """Updates float16 parameters through float32 copies."""
        self._use_fp32_update = flag
        if self.target is not None:
            for param in self.target.params():
                param.update_rule.use_fp32_update(flag)
