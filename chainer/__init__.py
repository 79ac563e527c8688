"""chainer-ng: Chainer, the define-by-run deep-learning framework, rebuilt
for modern Python, NumPy 2 and CuPy."""

import warnings as _warnings

import numpy

import chainerx  # NOQA  (Chainer binds it here; is_available() is False)

from chainer import _defaults
from chainer import _environment_check
from chainer import _malloc
from chainer import _version
from chainer.configuration import config, global_config, using_config  # NOQA

_environment_check.check()
_defaults.set_defaults()
_defaults.set_numpy_printing()
_malloc.tune()

from chainer import backend  # NOQA
from chainer import backends  # NOQA
from chainer.backend import get_device, using_device  # NOQA
from chainer.backends.cuda import (should_use_cudnn,  # NOQA
                                   should_use_cudnn_tensor_core)
from chainer.variable import (Parameter, Variable, as_array,  # NOQA
                              as_variable)
from chainer import variable  # NOQA
from chainer.function_node import FunctionNode, grad  # NOQA
from chainer._forward_ad import jvp  # NOQA
from chainer._backprop import backward  # NOQA
from chainer.function import (Function, FunctionAdapter,  # NOQA
                              force_backprop_mode, no_backprop_mode)
from chainer.function_hook import FunctionHook, get_function_hooks  # NOQA
from chainer import utils  # NOQA
from chainer import functions  # NOQA
from chainer import initializers  # NOQA
from chainer import gradient_check  # NOQA
from chainer.device_resident import DeviceResident  # NOQA
from chainer.initializer import Initializer  # NOQA
from chainer.link import Chain, ChainList, Link  # NOQA
from chainer.link_hook import LinkHook, _get_link_hooks  # NOQA
from chainer.sequential import Sequential  # NOQA
from chainer.serializer import (AbstractSerializer, Deserializer,  # NOQA
                                Serializer)
from chainer import serializers  # NOQA
from chainer import links  # NOQA
from chainer import function_hooks  # NOQA
from chainer import link_hooks  # NOQA
from chainer.optimizer import GradientMethod, Optimizer, UpdateRule  # NOQA
from chainer import optimizers  # NOQA
from chainer import optimizer_hooks  # NOQA
from chainer import dataset  # NOQA
from chainer import datasets  # NOQA
from chainer import iterators  # NOQA
from chainer import reporter  # NOQA
from chainer.reporter import (DictSummary, Reporter, Summary,  # NOQA
                              get_current_reporter, report, report_scope)
from chainer import training  # NOQA
from chainer import testing  # NOQA
from chainer import distributions  # NOQA
from chainer.distribution import (Distribution, cross_entropy,  # NOQA
                                  kl_divergence, register_kl)

from chainer._defaults import mixed16  # NOQA
from chainer import warnings  # NOQA
from chainer import graph_optimizations  # NOQA
from chainer.graph_optimizations.static_graph import static_graph  # NOQA
from chainer.graph_optimizations.static_graph_utilities import static_code  # NOQA
from chainer import memory_layouts  # NOQA
from chainer import types  # NOQA
from chainer.functions import array  # NOQA  (bound on chainer, as in Chainer)
from chainer.functions.math import basic_math  # NOQA
from chainer._runtime_info import print_runtime_info  # NOQA
# Bound at import, as in Chainer, for code that reaches them as attributes.
from chainer import _backprop_utils  # NOQA
from chainer import _backend  # NOQA
from chainer.backends import _chainerx  # NOQA
from chainer.utils import _collections, conv, conv_nd_kernel, type_check  # NOQA
from chainer.functions.pooling import (  # NOQA
    average_pooling_nd_kernel, max_pooling_nd_kernel, pooling_nd_kernel)

__version__ = _version.__version__

cuda = backends.cuda
_sys_modules = __import__('sys').modules
_sys_modules.setdefault('chainer.cuda', cuda)


class _FallbackType:

    def __repr__(self):
        return 'Fallback'


Fallback = _FallbackType()
disable_experimental_feature_warning = False


def get_array_types():
    """The supported array types (numpy.ndarray, and cupy.ndarray when
    CuPy is available)."""
    return backend._get_array_types()


def get_cpu_array_types():
    return (numpy.ndarray,)


def is_arrays_compatible(arrays):
    """Whether the arrays can be mixed (all on the CPU, or all CuPy)."""
    arrays = [a for a in arrays if a is not None]
    if not arrays:
        return True
    if isinstance(arrays[0], numpy.ndarray):
        return all(isinstance(a, numpy.ndarray) for a in arrays)
    return all(backend.is_gpu_array(a) for a in arrays)


def is_debug():
    """Whether debug mode (``config.debug``) is on."""
    return bool(config.debug)


def set_debug(debug):
    """Sets ``config.debug``."""
    config.debug = debug


class DebugMode:
    """Deprecated: use ``chainer.using_config('debug', ...)``."""

    def __init__(self, debug):
        _warnings.warn('chainer.DebugMode is deprecated. Use '
                       "chainer.using_config('debug', ...) instead.",
                       DeprecationWarning)
        self._using = using_config('debug', debug)

    def __enter__(self):
        self._using.__enter__()

    def __exit__(self, *args):
        self._using.__exit__(*args)


def get_dtype(dtype=None, map_mixed16=None):
    """The default dtype (``config.dtype``), float16 for mixed16 unless
    ``map_mixed16`` says otherwise."""
    if dtype is None:
        dtype = config.dtype
    if dtype is mixed16:
        return numpy.dtype(numpy.float16 if map_mixed16 is None
                           else map_mixed16)
    return numpy.dtype(dtype)


def get_compute_mode():
    return config.compute_mode


