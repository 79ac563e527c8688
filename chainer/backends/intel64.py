"""iDeep (``@intel64``) is not supported by chainer-ng: these say so.

They exist so that code written for Chainer, which asks whether iDeep is
there, runs unchanged (and takes its NumPy path).
"""

from chainer import backend


def is_ideep_available():
    """Always False: chainer-ng has no iDeep backend."""
    return False


def check_ideep_available():
    # Chainer's words where ideep4py is not installed (chainer-ng never
    # uses it; the devices are NumPy's and CuPy's).
    raise RuntimeError('iDeep is not available.\n'
                       "Reason: ModuleNotFoundError: No module named "
                       "'ideep4py'")


def should_use_ideep(level):
    """Always False (see :func:`is_ideep_available`)."""
    return False


def inputs_all_ready(inputs, supported_ndim=(2, 4)):
    return False


class Intel64Device(backend.Device):
    """The iDeep device; constructing it raises (iDeep is not supported)."""

    name = '@intel64'

    def __init__(self):
        check_ideep_available()

    @staticmethod
    def from_array(array):
        return None  # no array is an iDeep array here
