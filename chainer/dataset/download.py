"""Where datasets are cached, and how they are downloaded.

Everything lives under the dataset root: ``$CHAINER_DATASET_ROOT``, or
``~/.chainer/dataset``. Downloads are cached in ``<root>/_dl_cache`` under
the MD5 hex digest of the URL (Chainer's layout, so caches are shared with
it). Every file is written to a temporary file in the same folder and
renamed into place, so an interrupted download or conversion never leaves
a half-written file where a complete one is expected. A file lock
(Chainer's ``_dl_cache/_dl_lock``) makes processes that share the cache take
turns: a URL is downloaded by one of them, and the others wait for its file.
"""

import hashlib
import os
import shutil
import sys
import tempfile
import urllib.request

import filelock

from chainer.utils._atomic import atomic_path

_dataset_root = os.environ.get(
    'CHAINER_DATASET_ROOT',
    os.path.join(os.path.expanduser('~'), '.chainer', 'dataset'))

_CHUNK = 1 << 20


def get_dataset_root():
    """Returns the root folder of the datasets (see
    :func:`set_dataset_root`)."""
    return _dataset_root


def set_dataset_root(path):
    """Sets the root folder of the datasets (default
    ``$CHAINER_DATASET_ROOT`` or ``~/.chainer/dataset``)."""
    global _dataset_root
    _dataset_root = path


def get_dataset_directory(dataset_name, create_directory=True):
    """Returns the folder of a dataset, ``<root>/<dataset_name>``.

    Args:
        dataset_name (str): The dataset's name, e.g. ``'pfnet/chainer/mnist'``.
        create_directory (bool): Creates the folder if it does not exist.

    Returns:
        str: The path.
    """
    path = os.path.join(_dataset_root, dataset_name)
    if create_directory:
        os.makedirs(path, exist_ok=True)
    return path


_locks = {}


def _lock(path):
    """One FileLock per lock file: a FileLock is reentrant, so a creator
    that creates another cached file (PTB's words need its vocabulary)
    takes the lock again instead of waiting for itself."""
    lock = _locks.get(path)
    if lock is None:
        lock = _locks.setdefault(path, filelock.FileLock(path))
    return lock


def _file_sha256(path):
    h = hashlib.sha256()
    with open(path, 'rb') as f:
        for chunk in iter(lambda: f.read(_CHUNK), b''):
            h.update(chunk)
    return h.hexdigest()


def cached_download(url, *, sha256=None):
    """Downloads a file once and returns the path of the cached copy.

    The file is cached at ``<root>/_dl_cache/<md5 of url>``; a later call
    returns that path without touching the network. The download goes to a
    temporary file in the cache folder, which is renamed into place only
    when complete (and verified). Processes that download into the same
    cache take turns (a lock file, ``_dl_cache/_dl_lock``), so a URL that
    several of them ask for at once is downloaded once.

    Args:
        url (str): The URL.
        sha256 (str): If given (chainer-ng extension), the expected SHA-256
            hex digest of the file; a mismatch deletes the download and
            raises ``RuntimeError``.

    Returns:
        str: The path of the cached file.
    """
    cache_root = os.path.join(_dataset_root, '_dl_cache')
    os.makedirs(cache_root, exist_ok=True)
    cache_path = os.path.join(
        cache_root, hashlib.md5(url.encode('utf-8')).hexdigest())
    # The file appears only by an atomic rename, so once it exists it is
    # complete, and a look without the lock is enough.
    if os.path.exists(cache_path):
        return cache_path
    with _lock(os.path.join(cache_root, '_dl_lock')):
        # Another process may have downloaded it while this one waited.
        if os.path.exists(cache_path):
            return cache_path
        # on stderr, as Chainer writes it: stdout stays for the program's
        # own output
        sys.stderr.write('Downloading from {}...\n'.format(url))
        sys.stderr.flush()
        with atomic_path(cache_path) as temp_path:
            _download(url, temp_path)
            if sha256 is not None:
                digest = _file_sha256(temp_path)
                if digest != sha256.lower():
                    raise RuntimeError(
                        'cached_download: the file downloaded from {} has '
                        'SHA-256 {}, expected {}'.format(url, digest, sha256))
    return cache_path


_URLRETRIEVE = urllib.request.urlretrieve


def _download(url, path):
    # urlretrieve, looked up at each call as Chainer does, so that a test
    # (or a proxy setup) that patches it is honoured, under either of its
    # names: urllib.request's or six.moves' (the one Chainer called); it
    # raises ContentTooShortError on a truncated transfer
    retrieve = urllib.request.urlretrieve
    if retrieve is _URLRETRIEVE:
        try:
            import six
            retrieve = six.moves.urllib.request.urlretrieve
        except (ImportError, AttributeError):
            pass
    retrieve(url, path)


def cache_or_load_file(path, creator, loader):
    """Loads a cached file, creating it first if it does not exist.

    If ``path`` exists, returns ``loader(path)``. Otherwise calls
    ``creator(temp_path)``, which must write the file at ``temp_path`` (a
    path in a temporary folder next to ``path``, with the same file name)
    and return its content; the file is then renamed to ``path`` and the
    creator's return value is returned.

    Args:
        path (str): Where the cached file lives.
        creator (callable): ``creator(path) -> content``.
        loader (callable): ``loader(path) -> content``.
    """
    if os.path.exists(path):
        return loader(path)
    # Processes creating files take turns on a lock in the dataset root,
    # as in Chainer (which also needs the root to be a folder).
    try:
        os.makedirs(_dataset_root, exist_ok=True)
    except OSError:
        raise RuntimeError(
            'cannot create dataset directory: {}'.format(_dataset_root))
    with _lock(os.path.join(_dataset_root, '_create_lock')):
        if os.path.exists(path):  # made by another process meanwhile
            return loader(path)
        folder = os.path.dirname(os.path.abspath(path))
        os.makedirs(folder, exist_ok=True)
        temp_dir = tempfile.mkdtemp(dir=folder, prefix='.creating-')
        try:
            temp_path = os.path.join(temp_dir, os.path.basename(path))
            content = creator(temp_path)
            os.replace(temp_path, path)
        finally:
            shutil.rmtree(temp_dir, ignore_errors=True)
    return content
