"""Backend configurations for tests: ``BackendConfig`` and
``inject_backend_tests``."""

import contextlib
import inspect

import chainer
from chainer.testing import _bundle

# The options of a configuration, in the order of its name, with defaults.
_DEFAULTS = (
    ('use_chainerx', False),
    ('chainerx_device', None),
    ('use_cuda', False),
    ('cuda_device', None),
    ('use_cudnn', 'never'),
    ('cudnn_deterministic', False),
    ('autotune', False),
    ('cudnn_fast_batch_normalization', False),
    ('use_ideep', 'never'),
)
_CONFIG_KEYS = ('use_cudnn', 'cudnn_deterministic', 'autotune',
                'cudnn_fast_batch_normalization', 'use_ideep')


class BackendConfig:
    """One backend a test runs on: a device and the related configuration.

    Args:
        params (dict): Any of ``use_chainerx``, ``chainerx_device``,
            ``use_cuda``, ``cuda_device`` (0 by default with ``use_cuda``),
            ``use_cudnn`` (``'never'``, ``'auto'`` or ``'always'``),
            ``cudnn_deterministic``, ``autotune``,
            ``cudnn_fast_batch_normalization`` and ``use_ideep``. The empty
            dict is the CPU with NumPy.

    Use it as a context manager (``with backend_config:``) to apply its
    configuration (``chainer.config.use_cudnn`` and the like) and device;
    :meth:`get_array` sends NumPy arrays to its device.
    """

    def __init__(self, params):
        if not isinstance(params, dict):
            raise TypeError('BackendConfig: params must be a dict, got '
                            '{}'.format(type(params).__name__))
        known = dict(_DEFAULTS)
        for key in params:
            if key not in known:
                raise ValueError('BackendConfig: unknown parameter {!r} '
                                 '(expected one of {})'.format(
                                     key, ', '.join(known)))
        props = dict(known)
        props.update(params)
        if props['use_cuda'] and props['cuda_device'] is None:
            props['cuda_device'] = 0
        if props['use_chainerx'] and props['chainerx_device'] is None:
            raise ValueError('BackendConfig: chainerx_device is required '
                             'with use_chainerx')
        if props['use_cudnn'] not in ('never', 'auto', 'always'):
            raise ValueError('BackendConfig: use_cudnn must be never, auto '
                             'or always, got {!r}'.format(props['use_cudnn']))
        self._props = [(k, props[k]) for k, _ in _DEFAULTS]
        for k, v in self._props:
            setattr(self, k, v)
        self._device = None
        self._contexts = []

    @property
    def device(self):
        """The :class:`chainer.backend.Device` of the configuration."""
        if self._device is None:
            if self.use_chainerx:
                spec = self.chainerx_device
            elif self.use_cuda:
                spec = '@cupy:{}'.format(self.cuda_device)
            else:
                spec = '@numpy'
            self._device = chainer.get_device(spec)
        return self._device

    @property
    def xp(self):
        """The array module of the device."""
        return self.device.xp

    def __repr__(self):
        return '<BackendConfig {}>'.format(' '.join(
            '{}={!r}'.format(k, v) for k, v in self._props))

    def get_func_str(self):
        """The configuration as a string usable in a name."""
        def fmt(v):
            if isinstance(v, bool):
                return str(v).lower()
            return str(v)
        return '__'.join('{}_{}'.format(k, fmt(v)) for k, v in self._props)

    def get_pytest_marks(self):
        """The pytest marks of tests run on this backend: ``gpu`` for CUDA
        (CuPy, or a ChainerX ``cuda:N`` device), ``cudnn`` with cuDNN on,
        ``chainerx``, ``ideep``; with the skips of what is not there (CuPy,
        enough GPUs; ChainerX and iDeep always)."""
        import pytest
        from chainer.backends import cuda
        marks = []
        gpu_index = None
        if self.use_chainerx:
            marks.append(pytest.mark.chainerx)
            marks.append(pytest.mark.skip(
                reason='ChainerX is not supported by chainer-ng'))
            backend, _, index = str(self.chainerx_device).partition(':')
            if backend == 'cuda':
                gpu_index = int(index or 0)
        if self.use_cuda:
            gpu_index = self.cuda_device
            if self.use_cudnn != 'never':
                marks.append(pytest.mark.cudnn)
        if gpu_index is not None:
            marks.append(pytest.mark.gpu)
            marks.append(pytest.mark.skipif(
                not cuda.available, reason='CuPy is not available'))
            if gpu_index >= 1:
                from chainer.testing import attr
                marks.append(pytest.mark.skipif(
                    attr._gpu_count() <= gpu_index,
                    reason='needs {} GPUs'.format(gpu_index + 1)))
        if self.use_ideep != 'never':
            marks.append(pytest.mark.ideep)
            marks.append(pytest.mark.skip(
                reason='iDeep is not supported by chainer-ng'))
        return marks

    def __enter__(self):
        stack = contextlib.ExitStack()
        for key in _CONFIG_KEYS:
            stack.enter_context(chainer.using_config(key, getattr(self, key)))
        if self.use_cuda:
            stack.enter_context(chainer.using_device(self.device))
        self._contexts.append(stack)
        return self

    def __exit__(self, *args):
        self._contexts.pop().close()

    def get_array(self, np_array):
        """Sends a NumPy array (or a tuple/list of them) to the device."""
        if isinstance(np_array, tuple):
            return tuple(self.get_array(a) for a in np_array)
        if isinstance(np_array, list):
            return [self.get_array(a) for a in np_array]
        return self.device.send(np_array)


def _wrap_backend(method, backend_config, inject=True):
    # No functools.wraps: pytest must see a method without arguments, not
    # look for a ``backend_config`` fixture through ``__wrapped__``.
    if inject:
        def wrapped(self, *args, **kwargs):
            return method(self, backend_config, *args, **kwargs)
    else:
        def wrapped(self, *args, **kwargs):
            return method(self, *args, **kwargs)
    wrapped.__name__ = method.__name__
    wrapped.__qualname__ = getattr(method, '__qualname__', method.__name__)
    wrapped.__doc__ = method.__doc__
    wrapped.__dict__.update({k: v for k, v in vars(method).items()
                             if k != '__wrapped__'})
    # a fresh list: the marks of this backend must not reach the method
    # shared with the other backends' classes
    wrapped.pytestmark = list(getattr(method, 'pytestmark', []))
    for mark in backend_config.get_pytest_marks():
        wrapped = mark(wrapped)
    return wrapped


def _takes_argument(method):
    try:
        sig = inspect.signature(method)
    except (TypeError, ValueError):
        return True
    return len(sig.parameters) >= 2 or any(
        p.kind == p.VAR_POSITIONAL for p in sig.parameters.values())


def inject_backend_tests(method_names, params):
    """Runs test methods once per backend configuration.

    It generates one test class per configuration, named
    ``<Class>_<config>`` after :meth:`BackendConfig.get_func_str`, whose
    test methods receive the :class:`BackendConfig` as their argument and
    carry its pytest marks (``gpu``, ``cudnn``, ``chainerx``, ``ideep``), so
    that ``pytest -m 'not gpu'`` deselects the GPU configurations.

    - ``method_names=None``: every ``test*`` method runs in each
      configuration's class; those that take an argument receive the
      configuration.
    - a list of names: only those methods are in the configurations'
      classes; the class's other test methods stay in a class of the
      original name, which a further decorator (``parameterize``) expands
      (as in Chainer, alone it is not collected).

    Args:
        method_names (list of str or None): The test methods taking a
            ``backend_config`` argument.
        params (list of dicts or a dict): The :class:`BackendConfig`
            parameters.

    >>> import unittest
    >>> from chainer import testing
    >>> @testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
    ... class TestSend(unittest.TestCase):
    ...     def test_send(self, backend_config):
    ...         x = backend_config.get_array(numpy.ones(2))
    ...         assert backend_config.xp.asarray(x).shape == (2,)
    """
    if isinstance(params, dict):
        params = [params]
    if not isinstance(params, (list, tuple)):
        raise TypeError('inject_backend_tests: params must be a list of '
                        'dicts, got {}'.format(type(params).__name__))
    if method_names is not None and not isinstance(method_names,
                                                   (list, tuple)):
        raise TypeError('inject_backend_tests: method_names must be a list '
                        'of str or None, got {}'.format(
                            type(method_names).__name__))
    configs = [BackendConfig(p) for p in params]

    def generate(base):
        if method_names is not None:
            def rest(name, method):
                return _bundle.HIDE if name in method_names else None
            yield '', {}, rest
        for config in configs:
            def wrapper(name, method, config=config):
                if method_names is None:
                    return _wrap_backend(method, config,
                                         _takes_argument(method))
                if name not in method_names:
                    return _bundle.HIDE
                return _wrap_backend(method, config)
            yield '_' + config.get_func_str(), {}, wrapper

    return _bundle.make_decorator(generate)
