"""Writing files atomically: a crash never leaves a half-written file."""

import contextlib
import errno
import os
import tempfile


def _default_mode():
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


_MODE = _default_mode()


@contextlib.contextmanager
def atomic_path(path, prefix='.tmp-'):
    """Yields a temporary path in the folder of ``path``; when the block
    succeeds, the file written there gets the usual permissions and is
    renamed to ``path``; when it fails, the file is removed.  The temporary
    is named ``<prefix><name>-<8 random><ext>``.

    >>> import os, tempfile
    >>> d = tempfile.mkdtemp()
    >>> with atomic_path(os.path.join(d, 'a.txt')) as tmp:
    ...     with open(tmp, 'w') as f:
    ...         _ = f.write('done')
    >>> open(os.path.join(d, 'a.txt')).read()
    'done'
    """
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        # The error opening ``path`` itself would give (not the temporary).
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT),
                                path)
    name = os.path.basename(path)
    fd, tmp = tempfile.mkstemp(prefix=prefix + name + '-',
                               suffix=os.path.splitext(name)[1], dir=folder)
    os.close(fd)
    try:
        yield tmp
        os.chmod(tmp, _MODE)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise
