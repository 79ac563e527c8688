"""Datasets of image files (read with Pillow), from folders or zip files.

An image is returned as an array of shape ``(channels, height, width)``:
a grayscale image has one channel, RGB three, RGBA four.
"""

import importlib.util
import io
import os
import threading
import zipfile

import numpy

import chainer
from chainer.dataset import dataset_mixin


# Whether Pillow, which reading images needs, is installed.
available = importlib.util.find_spec('PIL') is not None


def _read_image_as_array(source, dtype):
    try:
        from PIL import Image
    except ImportError as e:
        raise ImportError('reading images needs Pillow: pip install '
                          'pillow') from e
    image = Image.open(source)
    try:
        array = numpy.asarray(image, dtype=dtype)
    finally:
        if hasattr(image, 'close'):
            image.close()
    if array.ndim == 2:
        array = array[:, :, None]
    return array.transpose(2, 0, 1)


def _read_pairs(pairs):
    if isinstance(pairs, str):
        path = pairs
        pairs = []
        with open(path) as f:
            # As Chainer: lines counted from 0, a blank line is invalid too.
            for lineno, line in enumerate(f):
                fields = line.strip().split()
                if len(fields) != 2:
                    raise ValueError('invalid format at line {} in file '
                                     '{}'.format(lineno, path))
                pairs.append((fields[0], int(fields[1])))
    return pairs


class ImageDataset(dataset_mixin.DatasetMixin):
    """A dataset of images read from files.

    Args:
        paths (str or list of str): The image paths, or the path of a text
            file that lists one image path per line.
        root (str): The folder the paths are relative to.
        dtype: The array dtype (default ``chainer.get_dtype()``).
    """

    def __init__(self, paths, root='.', dtype=None):
        if isinstance(paths, str):
            with open(paths) as f:
                paths = [line.strip() for line in f if line.strip()]
        self._paths = paths
        self._root = root
        self._dtype = chainer.get_dtype(dtype)

    def __len__(self):
        return len(self._paths)

    def get_example(self, i):
        path = os.path.join(self._root, self._paths[i])
        return _read_image_as_array(path, self._dtype)


class LabeledImageDataset(dataset_mixin.DatasetMixin):
    """A dataset of (image, label) pairs.

    Args:
        pairs (str or list of tuples): A list of ``(path, int label)``, or
            the path of a text file with one ``<path> <label>`` per line.
        root (str): The folder the paths are relative to.
        dtype: The image dtype (default ``chainer.get_dtype()``).
        label_dtype: The label dtype.
    """

    def __init__(self, pairs, root='.', dtype=None, label_dtype=numpy.int32):
        self._pairs = _read_pairs(pairs)
        self._root = root
        self._dtype = chainer.get_dtype(dtype)
        self._label_dtype = label_dtype

    def __len__(self):
        return len(self._pairs)

    def get_example(self, i):
        path, label = self._pairs[i]
        image = _read_image_as_array(os.path.join(self._root, path),
                                     self._dtype)
        return image, numpy.array(label, dtype=self._label_dtype)


class ZippedImageDataset(dataset_mixin.DatasetMixin):
    """A dataset of the images stored in a zip file.

    The zip file is opened lazily, once per process (and reopened after
    unpickling), so the dataset works with :class:`MultiprocessIterator`.

    Args:
        zipfilename (str): The zip file.
        dtype: The array dtype (default ``chainer.get_dtype()``).
    """

    def __init__(self, zipfilename, dtype=None):
        self._zipfilename = zipfilename
        self._dtype = chainer.get_dtype(dtype)
        self._lock = threading.Lock()
        self._zf = None
        self._zf_pid = None
        with zipfile.ZipFile(zipfilename) as zf:
            self._paths = [name for name in zf.namelist()
                           if not name.endswith('/')]

    def __len__(self):
        return len(self._paths)

    def __getstate__(self):
        state = self.__dict__.copy()
        state['_zf'] = None
        state['_zf_pid'] = None
        state['_lock'] = None
        return state

    def __setstate__(self, state):
        self.__dict__ = state
        self._lock = threading.Lock()

    def _read(self, name):
        with self._lock:
            if self._zf is None or self._zf_pid != os.getpid():
                self._zf = zipfile.ZipFile(self._zipfilename)
                self._zf_pid = os.getpid()
            return self._zf.read(name)

    def get_example(self, i_or_filename):
        """Returns an image by index, or by its name inside the zip."""
        if isinstance(i_or_filename, str):
            name = i_or_filename
        else:
            name = self._paths[i_or_filename]
        return _read_image_as_array(io.BytesIO(self._read(name)),
                                    self._dtype)


class MultiZippedImageDataset(dataset_mixin.DatasetMixin):
    """The images of several zip files, one file after another.

    Args:
        zipfilenames (list of str): The zip files.
        dtype: The array dtype (default ``chainer.get_dtype()``).
    """

    def __init__(self, zipfilenames, dtype=None):
        from chainer.datasets.concatenated_dataset import ConcatenatedDataset
        self._datasets = ConcatenatedDataset(
            *[ZippedImageDataset(name, dtype) for name in zipfilenames])

    def __len__(self):
        return len(self._datasets)

    def get_example(self, i):
        return self._datasets[i]


class LabeledZippedImageDataset(dataset_mixin.DatasetMixin):
    """(image, label) pairs, the images stored in a zip file.

    Args:
        zipfilename (str): The zip file.
        labelfilename (str): A text file with one ``<name in zip> <label>``
            per line.
        dtype: The image dtype (default ``chainer.get_dtype()``).
        label_dtype: The label dtype.
    """

    def __init__(self, zipfilename, labelfilename, dtype=None,
                 label_dtype=numpy.int32):
        self._images = ZippedImageDataset(zipfilename, dtype)
        self._pairs = _read_pairs(labelfilename)
        self._label_dtype = label_dtype

    def __len__(self):
        return len(self._pairs)

    def get_example(self, i):
        name, label = self._pairs[i]
        return (self._images.get_example(name),
                numpy.array(label, dtype=self._label_dtype))
