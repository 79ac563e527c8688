"""``chainer.iterators``: dataset iterators and order samplers."""

from chainer.iterators.dali_iterator import DaliIterator  # NOQA
from chainer.iterators.multiprocess_iterator import MultiprocessIterator  # NOQA
from chainer.iterators.multithread_iterator import MultithreadIterator  # NOQA
from chainer.iterators.serial_iterator import SerialIterator  # NOQA

from chainer.iterators.order_samplers import OrderSampler  # NOQA
from chainer.iterators.order_samplers import ShuffleOrderSampler  # NOQA
