"""Saving to and loading from HDF5 files (needs h5py)."""

import io
import os

import numpy

from chainer import backend
from chainer import serializer as serializer_module
from chainer import variable
from chainer.serializers import _staged
from chainer.serializers import _tempfiles

try:
    import h5py
    _available = True
except ImportError:
    h5py = None
    _available = False


def _check_available():
    if not _available:
        # RuntimeError, as in Chainer
        raise RuntimeError('HDF5 serialization needs h5py, which is not '
                           'installed (pip install h5py)')


class HDF5Serializer(serializer_module.Serializer):
    """Writes the values of an object into an HDF5 group.

    Children become subgroups; None is stored as an empty dataset.

    Args:
        group (h5py.Group): The group to write into (an open h5py.File).
        compression (int): The gzip level for arrays of more than one
            element.
    """

    def __init__(self, group, compression=4):
        _check_available()
        self.group = group
        self.compression = compression

    def __getitem__(self, key):
        name = key.strip('/')
        return HDF5Serializer(self.group.require_group(name),
                              self.compression)

    def __call__(self, key, value):
        arr = value.array if isinstance(value, variable.Variable) else value
        if arr is None:
            if h5py.version.version_tuple < (2, 7, 0):  # no h5py.Empty
                raise RuntimeError(
                    'h5py>=2.7.0 is required to serialize None.')
            self.group.create_dataset(key, data=h5py.Empty('f'))
            return value
        if backend.is_gpu_array(arr):
            arr = backend.CpuDevice().send(arr)
        arr = numpy.asarray(arr)
        compression = None if arr.size <= 1 else self.compression
        self.group.create_dataset(key, data=arr, compression=compression)
        return value


def save_hdf5(filename, obj, compression=4):
    """Saves an object to an HDF5 file (needs h5py).

    A path is written through a temporary file in the same folder, fsynced
    and renamed into place, as :func:`~chainer.serializers.save_npz` does:
    a failure or a crash during the save (an error, a full disk, SIGKILL)
    leaves the previous file as it was.

    Args:
        filename (str, path-like or file object): The file to write.
        obj: The object (``serialize(serializer)``), or a dict of arrays,
            saved as it is (as Chainer saves it).
        compression (int): The gzip level (0-9).
    """
    _check_available()
    if not isinstance(filename, (str, os.PathLike)):
        with h5py.File(filename, 'w') as f:
            _write(f, obj, compression)
        return
    with _tempfiles.saving(os.fspath(filename)) as raw:
        # Through a Python file: HDF5 would take a lock of its own on the
        # file, which clashes with the one the save holds.
        sink = _WriteGuard(raw)
        with h5py.File(sink, 'w') as f:
            # HDF5 writes its signature at the head of the file only when
            # flushed: do it first, so that the temporary file of a killed
            # save is known at once for one of ours
            f.flush()
            _write(f, obj, compression)
        if sink.error is not None:
            raise sink.error


def _write(f, obj, compression):
    serializer = HDF5Serializer(f, compression=compression)
    if isinstance(obj, dict):
        for key, value in obj.items():
            serializer(key, value)
    else:
        serializer.save(obj)


class _WriteGuard(io.RawIOBase):
    """A file for h5py that keeps the first write error for the caller and
    then ignores further writes: HDF5 handles a failing write (a full disk)
    badly, up to a segmentation fault while closing, and the file is
    thrown away anyway."""

    def __init__(self, raw):
        super().__init__()
        self.raw = raw
        self.error = None

    def readable(self):
        return True

    def writable(self):
        return True

    def seekable(self):
        return True

    def seek(self, offset, whence=io.SEEK_SET):
        return self.raw.seek(offset, whence)

    def tell(self):
        return self.raw.tell()

    def readinto(self, buffer):
        return self.raw.readinto(buffer)

    def write(self, data):
        view = memoryview(data).cast('B')
        end = self.raw.tell() + len(view)
        if self.error is None:
            try:
                done = 0
                while done < len(view):  # an unbuffered write may be short
                    done += self.raw.write(view[done:])
                return done
            except OSError as e:
                self.error = e
        self.raw.seek(end)
        return len(view)

    def truncate(self, size=None):
        if self.error is None:
            try:
                return self.raw.truncate(size)
            except OSError as e:
                self.error = e
        return self.raw.tell() if size is None else size

    def flush(self):
        if self.error is None:
            try:
                self.raw.flush()
            except OSError as e:
                self.error = e


class HDF5Deserializer(_staged.StagedDeserializer):
    """Loads values from an HDF5 group (needs h5py).

    Like :class:`~chainer.serializers.NpzDeserializer`, :meth:`load` is all
    or nothing, checks a dataset's shape and dtype against the target before
    reading it, and refuses a stored None (``h5py.Empty``) for a target
    that holds a value. Soft and external links in the file are refused
    (ValueError), never followed.

    Args:
        group (h5py.Group): The group to read.
        strict (bool): Raise KeyError for a missing key.
    """

    def __init__(self, group, strict=True, **kwargs):
        _check_available()
        staging = kwargs.pop('_staging', None)
        path = kwargs.pop('_path', '')
        if kwargs:
            raise TypeError('HDF5Deserializer() got unexpected keyword '
                            'argument(s): {}'.format(', '.join(kwargs)))
        super().__init__(path, strict, None, staging)
        self.group = group

    def __getitem__(self, key):
        # the child reads the subgroup (None when it is absent: its reads
        # then miss); its path keeps the full keys, for the staging cache
        name = key.strip('/')
        path = self.path + name
        sub = None if self.group is None else _follow(self.group, name, path)
        if not isinstance(sub, h5py.Group):
            sub = None
        return HDF5Deserializer(sub, self.strict, _path=path + '/',
                                _staging=self._staging)

    def _missing_key_error(self, key):
        # h5py's own KeyError, which Chainer users see (its lookup is
        # read-only: a missing name opens nothing)
        if self.group is not None:
            try:
                self.group[key[len(self.path):]]
            except KeyError as e:
                return e
        return super()._missing_key_error(key)

    def _read(self, key, value):
        name = key[len(self.path):]
        dataset = None if self.group is None else _follow(self.group, name,
                                                           key)
        if not isinstance(dataset, h5py.Dataset):
            raise KeyError(name)
        if dataset.shape is None:  # h5py.Empty: how Chainer stores None
            return _staged._NONE
        # before reading: a dataset that cannot fit is not decompressed
        _staged.check_declared(key, value, dataset.shape, dataset.dtype)
        try:
            return numpy.asarray(dataset[()])
        except Exception as e:
            raise ValueError('cannot read {!r} from the HDF5 file ({}: {})'
                             .format(key, type(e).__name__, e)) from e


def _follow(group, name, key):
    """The object at the path ``name`` under ``group`` (None if absent),
    through hard links only: a soft or external link is refused, never
    followed (it could lead anywhere, another file included)."""
    obj = group
    for part in name.split('/'):
        if not part:
            continue
        if not isinstance(obj, h5py.Group):
            return None
        try:
            link = obj.get(part, getlink=True)
        except Exception as e:  # a link of a type h5py does not know
            raise _refused_link(key, 'a link that h5py cannot read ({})'
                                .format(e)) from e
        if link is None:
            return None
        if isinstance(link, h5py.SoftLink):
            raise _refused_link(key, 'a soft link to {!r}'.format(link.path))
        if isinstance(link, h5py.ExternalLink):
            raise _refused_link(key, 'an external link to {!r} in {!r}'
                                .format(link.path, link.filename))
        if not isinstance(link, h5py.HardLink):
            raise _refused_link(key, 'a link of type {}'
                                .format(type(link).__name__))
        obj = obj[part]
    return obj


def _refused_link(key, what):
    return ValueError('cannot load {!r}: the HDF5 file has {} there; links '
                      'are refused, not followed'.format(key, what))


def load_hdf5(filename, obj):
    """Loads an object saved by :func:`save_hdf5` (needs h5py).

    All or nothing, like :func:`~chainer.serializers.load_npz`.
    """
    _check_available()
    with h5py.File(filename, 'r') as f:
        HDF5Deserializer(f).load(obj)
