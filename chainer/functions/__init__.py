"""``chainer.functions`` (F): the differentiable functions."""

from chainer.functions.array.broadcast import broadcast, broadcast_to  # NOQA
from chainer.functions.array.cast import cast  # NOQA
from chainer.functions.array.copy import copy  # NOQA
from chainer.functions.array.get_item import get_item  # NOQA
from chainer.functions.array.reshape import reshape  # NOQA
from chainer.functions.array.transpose import transpose  # NOQA
from chainer.functions.math.average import average  # NOQA
from chainer.functions.math.basic_math import absolute, add  # NOQA
from chainer.functions.math.exponential import exp, log, log10, log2  # NOQA
from chainer.functions.math.identity import identity  # NOQA
from chainer.functions.math.matmul import batch_matmul, matmul  # NOQA
from chainer.functions.math.sum import sum, sum_to  # NOQA

mean = average

from chainer.functions.math import basic_math as _basic_math  # NOQA
from chainer.functions.array import get_item as _get_item  # NOQA

_basic_math.install_variable_arithmetics()
_get_item.install_variable_get_item()
