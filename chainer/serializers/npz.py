"""Saving to and loading from NumPy ``.npz`` files."""

import math
import os
import zipfile

import numpy
from numpy.lib import format as npy_format

from chainer import backend
from chainer import serializer as serializer_module
from chainer import variable
from chainer.serializers import _staged
from chainer.serializers import _tempfiles


class DictionarySerializer(serializer_module.Serializer):
    """Collects the values of an object into a flat dict.

    Keys are ``/``-separated paths (``'l1/W'``); values are NumPy arrays
    (GPU arrays are copied to the host, scalars become 0-d arrays, None an
    object array holding None, which is how Chainer stores None).

    Args:
        target (dict): The dict to fill (a new one by default).
        path (str): The prefix of the keys.

    >>> import numpy as np
    >>> s = DictionarySerializer()
    >>> _ = s['child']('w', np.zeros(2))
    >>> list(s.target)
    ['child/w']
    """

    def __init__(self, target=None, path=''):
        self.target = {} if target is None else target
        self.path = path

    def __getitem__(self, key):
        key = key.strip('/')
        return DictionarySerializer(self.target, self.path + key + '/')

    def __call__(self, key, value):
        key = key.lstrip('/')
        arr = value.array if isinstance(value, variable.Variable) else value
        if arr is None:
            arr = numpy.asarray(None)
        elif isinstance(arr, numpy.ndarray):
            pass
        elif backend.is_gpu_array(arr):
            arr = backend.CpuDevice().send(arr)
        else:
            arr = numpy.asarray(arr)
        self.target[self.path + key] = arr
        return value


def serialize(obj):
    """The values of ``obj`` as the flat dict that :func:`save_npz` writes.

    >>> import chainer
    >>> sorted(serialize(chainer.links.Linear(2, 3)))
    ['W', 'b']
    """
    s = DictionarySerializer()
    s.save(obj)
    return s.target


def save_npz(file, obj, compression=True):
    """Saves an object (a Link, an Optimizer, a Trainer...) to an ``.npz``.

    Args:
        file (str, path-like or file object): Where to write. A path is
            written as is (no ``.npz`` suffix is added), through a temporary
            file in the same folder, fsynced and renamed into place, so a
            crash never leaves a half-written file; temporary files that
            killed saves left in that folder are removed (see
            ``chainer.serializers._tempfiles`` for the rule).
        obj: The object; it must have ``serialize(serializer)``. A dict
            (of arrays) is saved as it is, as Chainer saves it.
        compression (bool): Compress the arrays (zip deflate).
    """
    target = obj if isinstance(obj, dict) else serialize(obj)
    savez = numpy.savez_compressed if compression else numpy.savez
    if not isinstance(file, (str, os.PathLike)):
        savez(file, **target)
        return
    with _tempfiles.saving(os.fspath(file)) as f:
        savez(f, **target)


class NpzDeserializer(_staged.StagedDeserializer):
    """Loads values from an ``.npz`` file (or any dict of arrays).

    Loading never unpickles: a 0-d object entry (how Chainer stores None)
    is read as None without being unpickled, and any other object entry is
    refused (ValueError). The shape and dtype that an entry's header
    declares are checked against the target before its data is read.
    :meth:`load` is all-or-nothing:
    it first reads and checks every value the object asks for, and only
    then assigns, so on an error the object is left exactly as it was.

    Args:
        npz: A ``numpy.load`` result of an ``.npz`` file, or a dict.
        path (str): The prefix of the keys to read (``'updater/model:main/'``
            to load a model out of a trainer snapshot).
        strict (bool): Raise KeyError for a missing key (else keep the
            target's value).
        ignore_names (list of str, or callable): Keys (full paths) to skip,
            or a predicate on them.
    """

    def __init__(self, npz, path='', strict=True, ignore_names=None,
                 **kwargs):
        super().__init__(path, strict, ignore_names,
                         kwargs.pop('_staging', None))
        if kwargs:
            raise TypeError('NpzDeserializer() got unexpected keyword '
                            'argument(s): {}'.format(', '.join(kwargs)))
        self.npz = npz

    def __getitem__(self, key):
        key = key.strip('/')
        return NpzDeserializer(self.npz, self.path + key + '/', self.strict,
                               self.ignore_names, _staging=self._staging)

    def _missing_key_error(self, key):
        # the errors Chainer users see: NumPy's NpzFile message, or the
        # plain key for a dict
        if hasattr(self.npz, 'files') and hasattr(self.npz, 'zip'):
            return KeyError('{} is not a file in the archive'.format(key))
        return KeyError(key)

    def _read(self, key, value):
        npz = self.npz
        if hasattr(npz, 'files') and hasattr(npz, 'zip'):
            return _read_npz_entry(npz, key, value)
        data = npz[key]
        data = getattr(data, 'array', data)
        if data is None:
            return _staged._NONE
        data = backend.CpuDevice().send(numpy.asarray(data)) \
            if not backend.is_gpu_array(data) else data
        if data.dtype.hasobject:
            if data.shape == () and data[()] is None:
                return _staged._NONE
            raise _object_array(key, data.shape)
        return data


def _read_npz_entry(npz, key, value):
    """Reads one entry of an npz file, after checking what its header
    declares (shape, dtype) against the target ``value``: a declared size
    that does not fit is refused before any data is read. Never unpickles:
    a 0-d object entry is Chainer's None, any other object entry an
    error."""
    info = _member(npz.zip, key)
    try:
        with npz.zip.open(info) as f:
            version = npy_format.read_magic(f)
            if version == (1, 0):
                shape, _, dtype = npy_format.read_array_header_1_0(f)
            else:  # 2.0, and 3.0 (the same layout, UTF-8 field names)
                shape, _, dtype = npy_format.read_array_header_2_0(f)
            data_size = info.file_size - f.tell()
    except Exception as e:
        raise _corrupt(key, e)
    if dtype.hasobject:
        if shape == ():
            return _staged._NONE  # how Chainer stores None
        raise _object_array(key, shape)
    _staged.check_declared(key, value, shape, dtype)
    if math.prod(shape) * dtype.itemsize > data_size:
        raise _corrupt(key, ValueError(
            'the header declares shape {} of {}, more than the {} bytes '
            'stored'.format(shape, dtype, data_size)))
    try:
        return npz[key]
    except Exception as e:  # a truncated or corrupt member
        raise _corrupt(key, e)


def _member(zf, key):
    # the member NumPy reads for ``key``: the name itself, or with .npy
    for name in (key, key + '.npy'):
        try:
            return zf.getinfo(name)
        except KeyError:
            pass
    raise KeyError(key)


def _object_array(key, shape):
    return ValueError(
        'cannot load {!r}: the file holds an object array of shape {}, '
        'which is never unpickled'.format(key, shape))


def _corrupt(key, cause):
    err = ValueError('cannot read {!r} from the npz file, which is corrupt '
                     'or truncated ({}: {})'.format(
                         key, type(cause).__name__, cause))
    err.__cause__ = cause
    return err


def load_npz(file, obj, path='', strict=True, ignore_names=None):
    """Loads an object saved by :func:`save_npz` (or by Chainer).

    All or nothing: every value is read and checked before any is assigned,
    so a missing key, a shape mismatch or a corrupt file raises (naming the
    key) and leaves ``obj`` exactly as it was. Never unpickles.

    Args:
        file (str, path-like or file object): The ``.npz`` file.
        obj: The object to load into (``serialize(serializer)``).
        path (str): The prefix of the keys in the file to read, e.g.
            ``'updater/model:main/'`` for a model in a trainer snapshot.
        strict (bool): Raise KeyError when a key is missing.
        ignore_names (list of str, or callable): Keys to skip.
    """
    try:
        npz = numpy.load(file, allow_pickle=False)
    except (zipfile.BadZipFile, EOFError, OSError, ValueError) as e:
        if isinstance(e, FileNotFoundError):
            raise
        raise ValueError('load_npz: {!r} is not a readable npz file '
                         '({}: {})'.format(file, type(e).__name__, e)) from e
    if not isinstance(npz, numpy.lib.npyio.NpzFile):
        raise ValueError('load_npz: {!r} holds a single array, not an npz '
                         'archive'.format(file))
    with npz:
        NpzDeserializer(npz, path=path, strict=strict,
                        ignore_names=ignore_names).load(obj)
