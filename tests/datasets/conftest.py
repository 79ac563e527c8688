"""Fixtures for the dataset downloaders: small files in the real formats
(MNIST idx.gz, the CIFAR python tarballs, PTB text, SVHN .mat), served from
a local HTTP server on 127.0.0.1, and a throwaway dataset root."""

import functools
import gzip
import http.server
import io
import os
import struct
import tarfile
import threading

import numpy
import pytest


def idx_images(images):
    """An idx3-ubyte.gz file of uint8 images of shape (n, rows, cols)."""
    n, rows, cols = images.shape
    raw = struct.pack('>iiii', 2051, n, rows, cols) + images.astype(
        numpy.uint8).tobytes()
    return gzip.compress(raw)


def idx_labels(labels):
    raw = struct.pack('>ii', 2049, len(labels)) + numpy.asarray(
        labels, numpy.uint8).tobytes()
    return gzip.compress(raw)


def _add(tar, name, payload):
    info = tarfile.TarInfo(name)
    info.size = len(payload)
    tar.addfile(info, io.BytesIO(payload))


def _py2_str(s):
    """A Python 2 ``str`` (SHORT_BINSTRING / BINSTRING), as in the pickles
    of the real CIFAR files."""
    if isinstance(s, str):
        s = s.encode('latin-1')
    if len(s) < 256:
        return b'U' + bytes([len(s)]) + s
    return b'T' + struct.pack('<i', len(s)) + s


def _int(i):
    return b'J' + struct.pack('<i', i)


def py2_pickle(d):
    """Pickles a dict of str -> (uint8 2-d array | list of ints | str) the
    way Python 2 cPickle (protocol 2) and NumPy 1 did for the CIFAR
    batches. Built opcode by opcode, so it needs no Python 2."""
    out = [b'\x80\x02}q\x00(']
    for key, value in d.items():
        out.append(_py2_str(key))
        if isinstance(value, numpy.ndarray):
            shape = b'(' + b''.join(_int(n) for n in value.shape) + b't'
            out += [b'cnumpy.core.multiarray\n_reconstruct\n',
                    b'cnumpy\nndarray\n', _int(0), b'\x85', _py2_str('b'),
                    b'\x87R(', _int(1), shape,
                    b'cnumpy\ndtype\n', _py2_str('u1'), _int(0), _int(1),
                    b'\x87R(', _int(3), _py2_str('|'), b'NNN', _int(-1),
                    _int(-1), _int(0), b'tb', b'\x89',
                    _py2_str(numpy.ascontiguousarray(value).tobytes()),
                    b'tb']
        elif isinstance(value, list):
            out.append(b']q\x01(' + b''.join(_int(v) for v in value) + b'e')
        else:
            out.append(_py2_str(value))
    out.append(b'u.')
    return b''.join(out)


def cifar_tarball(batches, prefix, label_key):
    """A CIFAR python tarball: ``batches`` maps a member name to
    (data (n, 3072) uint8, labels), pickled as in the real files."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode='w:gz') as tar:
        _add(tar, prefix + '/readme.html', b'<html></html>')
        for name, (data, labels) in batches.items():
            d = {'batch_label': 'batch', label_key: list(map(int, labels))}
            if label_key == 'fine_labels':
                d['coarse_labels'] = [0] * len(labels)
            d['data'] = data
            _add(tar, prefix + '/' + name, py2_pickle(d))
    return out.getvalue()


def svhn_mat(path, images, labels):
    """An SVHN .mat file: X of shape (32, 32, 3, n), y of shape (n, 1)
    with the digit 0 stored as 10."""
    import scipy.io
    y = numpy.asarray(labels, numpy.uint8).reshape(-1, 1).copy()
    y[y == 0] = 10
    scipy.io.savemat(path, {'X': images.transpose(2, 3, 1, 0),
                            'y': y})


class _QuietHandler(http.server.SimpleHTTPRequestHandler):

    def log_message(self, *args):
        pass


@pytest.fixture
def server(tmp_path):
    """(base_url, folder, hits): files written under ``folder`` are served
    at ``base_url + name``; ``hits`` lists the requested paths."""
    folder = tmp_path / 'www'
    folder.mkdir()
    hits = []

    class Handler(_QuietHandler):
        def do_GET(self):
            hits.append(self.path)
            super().do_GET()

    httpd = http.server.ThreadingHTTPServer(
        ('127.0.0.1', 0), functools.partial(Handler, directory=str(folder)))
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,),
                              daemon=True)
    thread.start()
    try:
        yield 'http://127.0.0.1:{}/'.format(httpd.server_port), folder, hits
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join()


@pytest.fixture
def dataset_root(tmp_path):
    from chainer.dataset import download
    old = download.get_dataset_root()
    root = str(tmp_path / 'root')
    download.set_dataset_root(root)
    try:
        yield root
    finally:
        download.set_dataset_root(old)


def write(folder, name, payload):
    path = os.path.join(str(folder), name)
    with open(path, 'wb') as f:
        f.write(payload)
    return path


@pytest.fixture
def fmt():
    """The writers above, for the test modules (which cannot import this
    conftest by name)."""
    import types
    return types.SimpleNamespace(
        idx_images=idx_images, idx_labels=idx_labels, py2_pickle=py2_pickle,
        cifar_tarball=cifar_tarball, svhn_mat=svhn_mat, write=write)
