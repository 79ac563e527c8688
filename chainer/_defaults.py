"""The global configuration defaults (read from the environment once)."""

import os

import numpy

from chainer.configuration import global_config


class _Mixed16:
    """The dtype-like sentinel of mixed 16/32-bit precision."""

    dtype = numpy.dtype(numpy.float16)

    def __eq__(self, other):
        return self is other

    def __ne__(self, other):
        return self is not other

    def __hash__(self):
        return hash('mixed16')

    def __repr__(self):
        return "dtype('mixed16')"


mixed16 = _Mixed16()


def _env_dtype():
    name = os.environ.get('CHAINER_DTYPE', 'float32')
    if name == 'mixed16':
        return mixed16
    if name not in ('float16', 'float32', 'float64'):
        raise TypeError('incorrect dtype name in CHAINER_DTYPE: "{}". Only '
                        'float16/32/64 and mixed16 are allowed.'.format(name))
    return numpy.dtype(name)


def _env_int(name, default):
    return bool(int(os.environ.get(name, default)))


def set_defaults():
    g = global_config
    g.debug = _env_int('CHAINER_DEBUG', '0')
    g.cudnn_deterministic = False
    g.warn_nondeterministic = False
    g.enable_backprop = True
    g.keep_graph_on_report = _env_int('CHAINER_KEEP_GRAPH_ON_REPORT', '0')
    g.train = True
    g.type_check = _env_int('CHAINER_TYPE_CHECK', '1')
    g.use_cudnn = os.environ.get('CHAINER_USE_CUDNN', 'auto')
    g.use_cudnn_tensor_core = 'auto'
    g.autotune = False
    g.schedule_func = None
    g.use_static_graph = True
    g.use_ideep = os.environ.get('CHAINER_USE_IDEEP', 'never')
    g.lazy_grad_sum = _env_int('CHAINER_LAZY_GRAD_SUM', '0')
    g.cudnn_fast_batch_normalization = _env_int(
        'CHAINER_CUDNN_FAST_BATCH_NORMALIZATION', '0')
    g.dtype = _env_dtype()
    g.in_recomputing = False
    g._will_recompute = False
    g.compute_mode = None


def set_numpy_printing():
    """NumPy 1's printing of scalars under NumPy 2 (``3.0``, not
    ``np.float64(3.0)``): the programs written for Chainer print its
    reports, evaluator results and lists of losses as they did.  Skipped
    where the user chose a legacy mode already, or with
    ``CHAINER_NUMPY_PRINT=2``."""
    if int(numpy.__version__.split('.')[0]) < 2 or \
            os.environ.get('CHAINER_NUMPY_PRINT', '1') == '2' or \
            numpy.get_printoptions().get('legacy', False) is not False:
        return
    numpy.set_printoptions(legacy='1.25')

