"""Round trips through serializers: ``save_and_load`` and friends."""

import os

from chainer import utils


def save_and_load(src, dst, filename, saver, loader):
    """Saves ``src`` and loads it into ``dst`` with a de/serializer, in a
    temporary directory.

    Args:
        src: The object to save (a Link, an Optimizer, ...).
        dst: The object to load into.
        filename (str): The file name used.
        saver (callable): ``saver(path, src)``.
        loader (callable): ``loader(path, dst)``.
    """
    with utils.tempdir() as tempdir:
        path = os.path.join(tempdir, filename)
        saver(path, src)
        loader(path, dst)


def save_and_load_npz(src, dst):
    """Saves ``src`` to an NPZ file and loads it into ``dst``."""
    from chainer import serializers
    save_and_load(src, dst, 'tmp.npz',
                  serializers.save_npz, serializers.load_npz)


def save_and_load_hdf5(src, dst):
    """Saves ``src`` to an HDF5 file and loads it into ``dst`` (needs
    h5py)."""
    from chainer import serializers
    save_and_load(src, dst, 'tmp.h5',
                  serializers.save_hdf5, serializers.load_hdf5)
