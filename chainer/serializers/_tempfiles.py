"""Temporary files of saves, and removing the ones a killed save left.

A save writes a temporary file next to its target, through
``chainer.utils._atomic.atomic_path`` (named ``.tmp~<name>-<8 random><ext>``:
the tilde marks a save's, other writers' are ``.tmp-...``),
fsyncs it and renames it into place; a snapshot writer also works in a
temporary folder (``tmp<name><8 random>``, as Chainer names it). A save locks
its temporary file or folder (``flock``) before writing a byte into it and
holds the lock until the rename; the kernel drops the lock when the process
dies, even by SIGKILL.

So before each save into a folder, :func:`remove_stale` removes the leftovers
there, and only ours:

* a file with a save's name pattern that nobody holds locked (nor is this
  process writing) and that is not empty: a save locks its file before its
  first byte, so it is dead.  (HDF5 does not write its signature first: a
  save killed midway may begin with zeros.)  An empty one only when it has
  not changed for :data:`STALE_AGE` seconds: a save killed in the
  millisecond between creating its file and locking it leaves one, and a
  live save in that millisecond looks the same.
* a file of the older ``.tmp-`` pattern (chainer-ng's saves before the
  tilde; other writers, such as LogReport, which take no lock, still use
  it) under the same rule, but only when it begins like an ``.npz`` (zip)
  or an HDF5 file, which only saves write; or by age.
* a folder with the name pattern above that nobody holds locked and that
  holds only the snapshot named by the folder and that snapshot's temporary
  files; an empty one once it is :data:`STALE_AGE` seconds old.

Where ``flock`` is missing (Windows) or fails (some network file systems),
the age is the whole rule.
"""

import contextlib
import errno
import os
import re
import shutil
import threading
import time

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None

from chainer.utils._atomic import atomic_path

STALE_AGE = 600  # seconds without a change after which a leftover is stale

# atomic_path's names: tempfile's 8 random characters between the target's
# name and its suffix
_TEMP_FILE = re.compile(r'\.tmp[-~](.+)-[a-z0-9_]{8}(\.[^.]*)?\Z', re.S)
_SAVE_PREFIX = '.tmp~'
_TEMP_FOLDER = re.compile(r'tmp(.+)[a-z0-9_]{8}\Z', re.S)
_SIGNATURES = (b'PK\x03\x04', b'\x89HDF\r\n\x1a\n')

_active = set()  # the temporaries this process is writing
_active_lock = threading.Lock()


def _is_temp_file_name(name):
    m = _TEMP_FILE.match(name)
    return m is not None and os.path.splitext(m.group(1))[1] == (
        m.group(2) or '')


class _Hold:
    """The lock that a save holds on its temporary file or folder (and its
    entry in this process's list of temporaries being written)."""

    def __init__(self):
        self.path = None
        self.fd = None

    def attach(self, path):
        self.path = os.path.abspath(path)
        with _active_lock:
            _active.add(self.path)
        try:
            flags = os.O_RDONLY if os.path.isdir(path) else os.O_RDWR
            self.fd = os.open(path, flags)
            if fcntl is not None:
                fcntl.flock(self.fd, fcntl.LOCK_EX)
        except OSError:
            pass  # no lock: cleaners fall back on the age of the file

    def release(self):
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
        if self.path is not None:
            with _active_lock:
                _active.discard(self.path)
            self.path = None


@contextlib.contextmanager
def holding(path):
    """Holds the lock on the temporary file or folder ``path`` while the
    block runs."""
    hold = _Hold()
    try:
        hold.attach(path)
        yield
    finally:
        hold.release()


@contextlib.contextmanager
def saving(path):
    """Yields a binary file (unbuffered, empty) to write ``path`` into: a
    temporary file in the folder of ``path``, which is fsynced and renamed
    to ``path`` when the block succeeds, and removed, ``path`` untouched,
    when it fails. Stale leftovers of earlier saves in that folder are
    removed first."""
    folder = os.path.dirname(os.path.abspath(path))
    remove_stale(folder)
    hold = _Hold()
    try:
        with atomic_path(path, _SAVE_PREFIX) as tmp:
            hold.attach(tmp)
            # written through the locked descriptor itself: with the POSIX
            # locks that stand in for flock on NFS, closing any other
            # descriptor of the file would drop the lock
            if hold.fd is not None:
                f = open(hold.fd, 'r+b', buffering=0, closefd=False)
            else:
                f = open(tmp, 'r+b', buffering=0)
            with f:
                yield f
                os.fsync(f.fileno())
    finally:
        # released only after the rename: until then the file must look
        # alive to other processes' cleaners
        hold.release()
    _fsync_folder(folder)


def _fsync_folder(folder):
    # makes the rename itself durable; not every system can open a folder
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def remove_stale(folder):
    """Removes the temporary files and folders that dead saves left in
    ``folder`` (see the module's documentation for the rule)."""
    try:
        entries = list(os.scandir(os.path.abspath(folder)))
    except OSError:
        return
    now = time.time()
    for entry in entries:
        try:
            if _is_temp_file_name(entry.name) and entry.is_file(
                    follow_symlinks=False):
                _remove_if_stale(entry.path, False, now)
            elif _TEMP_FOLDER.match(entry.name) and entry.is_dir(
                    follow_symlinks=False):
                _remove_if_stale(entry.path, True, now)
        except OSError:
            pass  # gone meanwhile, or not ours to remove


def _remove_if_stale(path, folder, now):
    with _active_lock:
        if path in _active:
            return
    if fcntl is None:  # no locks to ask: the age is the whole rule
        if folder:
            _remove_folder_if_ours(path, None, now)
        elif _old(path, now):
            os.remove(path)
        return
    fd = os.open(path, os.O_RDONLY | _NOFOLLOW | _NONBLOCK)
    try:
        locked = _try_lock(fd)
        if locked is False:
            return  # a live save holds it
        if os.stat(path).st_ino != os.fstat(fd).st_ino:
            return  # replaced since we listed it
        if folder:
            _remove_folder_if_ours(path, locked, now)
        elif (locked and (_is_save(path) and os.fstat(fd).st_size or
                          _has_signature(fd))) or _old(path, now):
            os.remove(path)
    finally:
        os.close(fd)


_NOFOLLOW = getattr(os, 'O_NOFOLLOW', 0)
_NONBLOCK = getattr(os, 'O_NONBLOCK', 0)


def _try_lock(fd):
    """True: locked here, so no one else holds it; False: someone holds
    it; None: cannot tell."""
    if fcntl is None:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as e:
        if e.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            return False
        return None
    return True


def _is_save(path):
    return os.path.basename(path).startswith(_SAVE_PREFIX)


def _has_signature(fd):
    # the signature, or a part of it: a save killed within its first bytes
    # (an empty file stays ambiguous, as another writer's just-made file)
    head = os.pread(fd, 8, 0)
    return bool(head) and any(head.startswith(s) or s.startswith(head)
                              for s in _SIGNATURES)


def _old(path, now):
    return now - os.stat(path).st_mtime > STALE_AGE


def _remove_folder_if_ours(path, locked, now):
    snapshot = _TEMP_FOLDER.match(os.path.basename(path)).group(1)
    names = os.listdir(path)
    for name in names:
        m = _TEMP_FILE.match(name)
        if name != snapshot and not (
                m and m.group(1) == snapshot and _is_temp_file_name(name)):
            return  # not what a snapshot writer leaves: not ours
    if not names:
        if _old(path, now):
            os.rmdir(path)
    elif locked or all(_old(os.path.join(path, n), now) for n in names):
        shutil.rmtree(path)
