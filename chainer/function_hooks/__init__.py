"""Function hooks: callbacks run around the forward and backward of every
function (``with hook:``) or of one function (``FunctionNode.add_hook``)."""

from chainer.function_hooks import cuda_profile  # NOQA
from chainer.function_hooks import cupy_memory_profile  # NOQA
from chainer.function_hooks import debug_print  # NOQA
from chainer.function_hooks import timer  # NOQA

from chainer.function_hooks.cuda_profile import CUDAProfileHook  # NOQA
from chainer.function_hooks.cupy_memory_profile import CupyMemoryProfileHook  # NOQA
from chainer.function_hooks.debug_print import PrintHook  # NOQA
from chainer.function_hooks.timer import TimerHook  # NOQA
