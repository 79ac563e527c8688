"""Optimizer, GradientMethod, UpdateRule and hyperparameters.

A :class:`GradientMethod` gives each parameter of its target link an
:class:`UpdateRule`; ``optimizer.update()`` runs the hooks and then each
parameter's rule.  A rule's hyperparameters fall back to the optimizer's,
so ``opt.lr = 0.1`` changes every rule that has not set its own.
"""

import collections
import copy
import math
import warnings

import numpy

import chainer
from chainer import backend
from chainer.variable import Parameter, Variable


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
    return ('chainer.optimizer.{0} is deprecated from v4. Use '
            'chainer.optimizer_hooks.{0} instead.'.format(module_name))


def _parent_or(parent, default):
    # The parent of a rule's hyperparameters: the optimizer's, or the
    # module defaults for a rule made on its own.
    return default if parent is None else parent


def _set_given(hyperparam, **values):
    # Sets the rule-level hyperparameters that were given (not None).
    for name, value in values.items():
        if value is not None:
            setattr(hyperparam, name, value)


class _NoInitializer:
    # The initializer of the float32 copy of an uninitialized float16
    # parameter: it only gives the dtype (the copy is never initialized).

    def __init__(self, dtype):
        self.dtype = dtype

    def __call__(self, array):
        raise RuntimeError('the float32 copy of a parameter is never '
                           'initialized')


def _hook_timing(hook, timing, fallback=False):
    if timing not in ('pre', 'post', 'auto'):
        raise ValueError("timing must be one of ('pre', 'post', 'auto')")
    if timing == 'auto':
        # As Chainer: 'pre' without the attribute; another value than
        # 'pre' or 'post' makes an update rule's hook a 'post' hook, and an
        # optimizer's a 'pre' one, with a warning
        timing = getattr(hook, 'timing', 'pre')
        if timing not in ('pre', 'post') and fallback:
            warnings.warn("Hook timing attribute not in ('pre', 'post'), "
                          "defaulting timing to 'pre'.")
            timing = 'pre'
        timing = 'pre' if timing == 'pre' else 'post'
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
            raise KeyError('hook "{}" already exists'.format(name))
        hooks[name] = hook

    def remove_hook(self, name):
        """Removes the hook called ``name``."""
        try:
            del self._pre_update_hooks[name]
        except KeyError:
            del self._post_update_hooks[name]

    def update(self, param):
        """Updates ``param`` (a Parameter) with its gradient.

        As Chainer, the hooks and :meth:`update_core` run for every
        parameter, an uninitialized one or one without a gradient included
        (update_core skips those); the state is made on the first update of
        an initialized parameter.
        """
        if not self.enabled:
            return
        self.t += 1
        try:
            dtype = param.dtype
        except RuntimeError:
            dtype = None  # uninitialized, with no dtype known
        initialized = param.array is not None
        node = param._node
        loss_scale = None if node is None else node._loss_scale
        fp32 = None
        target = param
        if self._use_fp32_update and dtype == numpy.float16:
            fp32 = self._fp32_param
            if fp32 is None:
                if initialized:
                    fp32 = Parameter(param.array.astype(numpy.float32),
                                     name=param.name)
                else:
                    fp32 = Parameter(_NoInitializer(numpy.float32),
                                     name=param.name)
                self._fp32_param = fp32
            if initialized:
                grad = param.grad
                fp32.grad = None if grad is None \
                    else grad.astype(numpy.float32)
            target = fp32
        if initialized:
            if self._state is None:
                self._state = {}
                with chainer.using_device(target.device):
                    self.init_state(target)
            else:
                self._prepare(target)
            if loss_scale is not None:
                node._loss_scale = None
                if target.grad is not None:
                    # Undo the loss scaling of backward (not in place: the
                    # gradient may be a read-only broadcast view).
                    target.grad = target.grad / loss_scale
        for hook in self._pre_update_hooks.values():
            hook(self, target)
        self.update_core(target)
        for hook in self._post_update_hooks.values():
            hook(self, target)
        if fp32 is not None:
            if initialized:
                param.array[...] = fp32.array.astype(param.dtype)
            fp32.grad = None

    def update_core(self, param):
        """Updates ``param``; dispatches to the CPU or GPU version."""
        arr = param.array
        if isinstance(arr, numpy.ndarray) or (
                arr is None and param.device.xp is numpy):
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

    def _prepare(self, param):
        # Moves state arrays that are not on the parameter's device (loaded
        # by a deserializer, or left behind by ``to_device``) next to it.
        arr = param.array
        state = self._state
        for key, value in state.items():
            if isinstance(value, numpy.ndarray):
                if isinstance(arr, numpy.ndarray):
                    continue
            elif not backend.is_gpu_array(value) or (
                    isinstance(arr, type(value)) and
                    value.device == arr.device):
                continue
            state[key] = param.device.send(value)

    def _state_keys(self):
        # The state's keys, learnt as Chainer does: init_state run with a
        # dummy parameter on a shallow copy that shares a new state dict
        # with this rule (an init_state bound to this rule fills it too).
        self._state = {}
        try:
            probe = copy.copy(self)
            arr = numpy.zeros(1, dtype=numpy.float32)
            probe.init_state(Variable(arr, grad=arr))
            return list(self._state)
        finally:
            self._state = None

    def serialize(self, serializer):
        """Saves or loads ``t`` and the state arrays.

        Loading into a rule that has not updated yet creates its state
        from the loaded arrays (nothing changes during a deserializer's
        ``dry_run`` pass).
        """
        from chainer import serializer as serializer_module
        dry_run = getattr(serializer, 'dry_run', False)
        t = serializer('t', self.t)
        if not dry_run:
            self.t = t
        if self._state is not None:
            for key in self._state:
                value = serializer(key, self._state[key])
                if value is None and self._state[key] is not None:
                    # a moment that must stay an array (None: refused,
                    # also in a staged load's validating pass)
                    raise serializer_module._none_refused(
                        getattr(serializer, 'path', '') + key,
                        self._state[key])
                self._state[key] = value
            return
        if not isinstance(serializer, serializer_module.Deserializer):
            return
        loaded = {}
        for key in self._state_keys():
            try:
                value = serializer(key, None)
            except KeyError:
                if self.enabled:
                    raise
                value = None
            if value is None:
                return
            # A copy: the state is updated in place, the source must not be.
            loaded[key] = value.copy() if hasattr(value, 'copy') else value
        if not dry_run:
            self._state = loaded

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
    _loss_scaling_isnan = False
    _loss_scaling_isnan_ever = False
    _loss_scaling_multiplier = None

    def setup(self, link):
        """Sets the target link; returns the optimizer."""
        from chainer.link import Link
        if not isinstance(link, Link):
            raise TypeError('optimization target must be a link')
        self.target = link
        self.t = 0
        self.epoch = 0
        self._pre_update_hooks = collections.OrderedDict()
        self._post_update_hooks = collections.OrderedDict()
        return self

    def _check_set_up(self):
        if self.target is None:
            raise RuntimeError(
                'Optimizer is not set up. Call `setup` method.')

    def update(self, lossfun=None, *args, **kwds):
        """Updates the parameters (by the gradients, or after computing
        ``lossfun(*args, **kwds)`` and its backward)."""
        raise NotImplementedError

    def new_epoch(self, auto=False):
        """Starts a new epoch (``epoch += 1``)."""
        if self.use_auto_new_epoch:
            if not auto:
                # Chainer's words, on two lines
                raise RuntimeError(
                    'duplicated new_epoch with the updater.\n'
                    'Pass auto_new_epoch=False to the updater or stop '
                    'calling new_epoch outside the updater.')
        elif auto:
            raise RuntimeError(
                'invalid new_epoch call with auto=True.\n'
                'Fix the updater to set optimizer.use_auto_new_epoch = True.')
        self.epoch += 1

    def add_hook(self, hook, name=None, timing='auto'):
        """Adds a hook function called as ``hook(optimizer)`` (or per
        parameter when it says ``call_for_each_param``) before
        (``'pre'``) or after (``'post'``) each update."""
        self._check_set_up()
        if not callable(hook):
            raise TypeError('hook function must be callable')
        timing = _hook_timing(hook, timing, fallback=True)
        if name is None:
            name = getattr(hook, 'name', getattr(hook, '__name__', None))
            if name is None:
                raise ValueError('the name of the hook function is not '
                                 'specified')
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
        """Calls ``hook(self)``, or ``hook(param.update_rule, param)`` for
        each parameter when the hook says ``call_for_each_param``."""
        if getattr(hook, 'call_for_each_param', False):
            for param in self.target.params():
                hook(param.update_rule, param)
        else:
            hook(self)

    def serialize(self, serializer):
        """Saves or loads ``t``, ``epoch`` and every update rule's state."""
        # A staged deserializer's first pass (``dry_run``) only validates.
        t = serializer('t', self.t)
        epoch = serializer('epoch', self.epoch)
        if not getattr(serializer, 'dry_run', False):
            self.t = t
            self.epoch = epoch
        for name, param in self.target.namedparams():
            rule = getattr(param, 'update_rule', None)
            if rule is not None:
                rule.serialize(serializer[name])

    # --- loss scaling -----------------------------------------------------

    def loss_scaling(self, interval=1000, scale=None):
        """Turns on loss scaling (for float16 training).

        With ``scale``, the loss is scaled by that fixed value.  Without it,
        the scaling is dynamic: the scale starts at 1 and doubles after each
        update until a gradient overflows; an update whose gradients have an
        inf or a NaN is skipped and halves the scale, and from the first
        overflow on the scale grows by 2 every ``interval`` updates.
        """
        if interval < 1:
            raise ValueError('interval must be greater than or equal to 1. '
                             'Actual: {}'.format(interval))
        if scale is not None and scale <= 0:
            raise ValueError('loss_scale must be a positive number. '
                             'Actual: {}'.format(scale))
        self._loss_scale_max = 65504
        self._loss_scaling_multiplier = math.pow(2.0, 1.0 / interval)
        self._loss_scaling_isnan_ever = False
        if scale is None:
            self._loss_scaling_is_dynamic = True
            self._loss_scale = 1.0
        else:
            self._loss_scaling_is_dynamic = False
            self._loss_scale = scale

    def set_loss_scale(self, loss_scale):
        """Sets the loss scale (the current one, for dynamic scaling)."""
        self._loss_scale = loss_scale

    def check_nan_in_grads(self):
        """With dynamic loss scaling, records whether some gradient has an
        inf or a NaN, warning once for each such parameter (as Chainer:
        its name, the iteration and the loss scale)."""
        self._loss_scaling_isnan = False
        if not self._loss_scaling_is_dynamic:
            return
        for name, param in self.target.namedparams(include_uninit=False):
            grad = param.grad
            if grad is not None and \
                    not bool(param.xp.isfinite(grad).all()):
                self._loss_scaling_isnan = True
                self._loss_scaling_isnan_ever = True
                warnings.warn(
                    'Non finite number found in param.grad of {} (iteration: '
                    '{}, loss_scale: {})'.format(name, self.t,
                                                 self._loss_scale))

    def is_safe_to_update(self):
        """False when the last :meth:`check_nan_in_grads` found an overflow
        (the update is then skipped)."""
        return not self._loss_scaling_isnan

    def update_loss_scale(self):
        """Adjusts a dynamic loss scale after an update."""
        if not self._loss_scaling_is_dynamic:
            return
        if self._loss_scaling_isnan:
            multiplier = 0.5
        elif self._loss_scaling_isnan_ever:
            multiplier = self._loss_scaling_multiplier
        else:
            multiplier = 2.0
        self._loss_scale = max(
            1, min(self._loss_scale_max, self._loss_scale * multiplier))


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
        super().call_hook(hook)
        # As Chainer: a hook that cleared gradients leaves zeros for the
        # next one and for the update.
        self.reallocate_cleared_grads()

    def update(self, lossfun=None, *args, **kwds):
        """Updates the parameters.

        With ``lossfun``, it first clears the gradients, computes
        ``loss = lossfun(*args, **kwds)`` and runs ``loss.backward()``.
        """
        if self.target is None:
            # Chainer meets the missing target as an attribute of None
            # (after running lossfun): its AttributeError, word for word
            if lossfun is not None:
                lossfun(*args, **kwds)
            raise AttributeError(
                "'NoneType' object has no attribute '{}'".format(
                    'namedparams' if lossfun is None else
                    'cleargrads' if self._use_cleargrads else 'zerograds'))
        if lossfun is not None:
            loss = lossfun(*args, **kwds)
            if self._use_cleargrads:
                self.target.cleargrads()
            else:
                self.target.zerograds()
            loss.backward(loss_scale=self._loss_scale)
            del loss

        self.reallocate_cleared_grads()
        self.check_nan_in_grads()
        self.call_hooks('pre')
        self.t += 1
        if self.is_safe_to_update():
            for param in self.target.params():
                param.update()
        self.reallocate_cleared_grads()
        self.call_hooks('post')
        self.update_loss_scale()

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


# --- deprecated aliases of the optimizer hooks ------------------------------

from chainer import optimizer_hooks as _hooks  # NOQA: E402


class WeightDecay(_hooks.WeightDecay):
    """Deprecated: use :class:`chainer.optimizer_hooks.WeightDecay`."""

    def __init__(self, rate):
        warnings.warn(make_deprecation_message('WeightDecay'),
                      DeprecationWarning)
        super().__init__(rate)


class Lasso(_hooks.Lasso):
    """Deprecated: use :class:`chainer.optimizer_hooks.Lasso`."""

    def __init__(self, rate):
        warnings.warn(make_deprecation_message('Lasso'), DeprecationWarning)
        super().__init__(rate)


class GradientClipping(_hooks.GradientClipping):
    """Deprecated: use :class:`chainer.optimizer_hooks.GradientClipping`."""

    def __init__(self, threshold):
        warnings.warn(make_deprecation_message('GradientClipping'),
                      DeprecationWarning)
        super().__init__(threshold)


class GradientNoise(_hooks.GradientNoise):
    """Deprecated: use :class:`chainer.optimizer_hooks.GradientNoise`."""

    def __init__(self, eta,
                 noise_func=_hooks.gradient_noise.exponential_decay_noise):
        warnings.warn(make_deprecation_message('GradientNoise'),
                      DeprecationWarning)
        super().__init__(eta, noise_func)


class GradientHardClipping(_hooks.GradientHardClipping):
    """Deprecated: use
    :class:`chainer.optimizer_hooks.GradientHardClipping`."""

    def __init__(self, lower_bound, upper_bound):
        warnings.warn(make_deprecation_message('GradientHardClipping'),
                      DeprecationWarning)
        super().__init__(lower_bound, upper_bound)
