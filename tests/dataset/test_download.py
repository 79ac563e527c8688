import functools
import hashlib
import http.server
import multiprocessing
import os
import sys
import threading
import time

import numpy
import pytest

from chainer.dataset import download


@pytest.fixture
def root(tmp_path):
    old = download.get_dataset_root()
    download.set_dataset_root(str(tmp_path / 'root'))
    yield str(tmp_path / 'root')
    download.set_dataset_root(old)


@pytest.fixture
def server(tmp_path):
    folder = tmp_path / 'www'
    folder.mkdir()
    hits = []

    class Handler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            hits.append(self.path)
            super().do_GET()

    httpd = http.server.ThreadingHTTPServer(
        ('127.0.0.1', 0), functools.partial(Handler, directory=str(folder)))
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,),
                              daemon=True)
    thread.start()
    yield 'http://127.0.0.1:{}/'.format(httpd.server_port), folder, hits
    httpd.shutdown()
    httpd.server_close()
    thread.join()


def _cached_files(root):
    return [f for f in os.listdir(os.path.join(root, '_dl_cache'))
            if f != '_dl_lock']


def test_root_and_directory(root):
    assert download.get_dataset_root() == root
    path = download.get_dataset_directory('a/b', create_directory=False)
    assert path == os.path.join(root, 'a/b') and not os.path.exists(path)
    assert os.path.isdir(download.get_dataset_directory('a/b'))


def test_cached_download(root, server, capsys):
    url, folder, hits = server
    (folder / 'f.bin').write_bytes(b'hello')
    path = download.cached_download(url + 'f.bin')
    expected = os.path.join(root, '_dl_cache',
                            hashlib.md5((url + 'f.bin').encode()).hexdigest())
    assert path == expected
    with open(path, 'rb') as f:
        assert f.read() == b'hello'
    out, err = capsys.readouterr()
    # Chainer writes the notice on stderr, not stdout
    assert err == 'Downloading from {}f.bin...\n'.format(url)
    assert out == ''
    assert download.cached_download(url + 'f.bin') == path
    assert hits == ['/f.bin']  # cached: one request only
    # no temporary files are left behind (the lock file stays)
    assert sorted(os.listdir(os.path.dirname(path))) == \
        sorted([os.path.basename(path), '_dl_lock'])


def test_cached_download_goes_through_urlretrieve(root, monkeypatch):
    # as in Chainer, the transfer is urllib.request.urlretrieve(url, path),
    # so patching it (a test, a proxy setup) is honoured
    import urllib.request
    calls = []

    def fake(url, path):
        calls.append((url, path))
        with open(path, 'w') as f:
            f.write('test')

    monkeypatch.setattr(urllib.request, 'urlretrieve', fake)
    path = download.cached_download('https://example.com')
    assert len(calls) == 1 and calls[0][0] == 'https://example.com'
    # it wrote a temporary file beside the cache entry, renamed into place
    assert os.path.dirname(calls[0][1]) == os.path.dirname(path)
    assert calls[0][1] != path and not os.path.exists(calls[0][1])
    with open(path) as f:
        assert f.read() == 'test'


def test_cached_download_checksum(root, server):
    url, folder, _ = server
    (folder / 'g.bin').write_bytes(b'data')
    good = hashlib.sha256(b'data').hexdigest()
    with pytest.raises(RuntimeError, match='SHA-256'):
        download.cached_download(url + 'g.bin', sha256='0' * 64)
    assert _cached_files(root) == []
    assert os.path.exists(download.cached_download(url + 'g.bin',
                                                   sha256=good))


def test_cached_download_http_error_leaves_nothing(root, server):
    url, _, _ = server
    with pytest.raises(Exception):
        download.cached_download(url + 'missing')
    assert _cached_files(root) == []


def _download_in_turn(root, url, log, barrier, results):
    # A child process: a downloader that notes each call and takes its time,
    # so that the other child asks while the download is under way.
    real = download._download

    def slow_download(url, path):
        with open(log, 'a') as f:
            f.write('{}\n'.format(os.getpid()))
        real(url, path)
        time.sleep(0.5)

    download._download = slow_download
    download.set_dataset_root(root)
    barrier.wait()
    path = download.cached_download(url)
    with open(path, 'rb') as f:
        results.put((path, f.read()))


@pytest.mark.skipif(sys.platform == 'win32', reason='needs fork')
def test_cached_download_two_processes(tmp_path):
    source = tmp_path / 'data.bin'
    payload = os.urandom(3 << 20)
    source.write_bytes(payload)
    url = source.as_uri()
    root, log = str(tmp_path / 'root'), str(tmp_path / 'calls.log')
    ctx = multiprocessing.get_context('fork')
    barrier, results = ctx.Barrier(2), ctx.Queue()
    procs = [ctx.Process(target=_download_in_turn,
                         args=(root, url, log, barrier, results))
             for _ in range(2)]
    for p in procs:
        p.start()
    got = [results.get(timeout=60) for _ in procs]
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    # both got the complete file, at the same path; it was downloaded once
    assert got[0][0] == got[1][0]
    assert got[0][1] == payload and got[1][1] == payload
    with open(log) as f:
        assert len(f.read().split()) == 1
    assert _cached_files(root) == [os.path.basename(got[0][0])]


def test_cache_or_load_file(tmp_path, root):
    path = str(tmp_path / 'sub' / 'x.npz')
    calls = []

    def creator(p):
        calls.append(p)
        assert os.path.basename(p) == 'x.npz' and p != path
        numpy.savez(p, a=numpy.arange(3))
        return 'created'

    assert download.cache_or_load_file(path, creator, None) == 'created'
    loaded = download.cache_or_load_file(
        path, creator, lambda p: numpy.load(p)['a'].tolist())
    assert loaded == [0, 1, 2] and len(calls) == 1
    assert sorted(os.listdir(tmp_path / 'sub')) == ['x.npz']


def test_cache_or_load_file_failed_creator(tmp_path, root):
    (tmp_path / 'c').mkdir()
    path = str(tmp_path / 'c' / 'y.npz')

    def creator(p):
        with open(p, 'w') as f:
            f.write('half')
        raise IOError('boom')

    with pytest.raises(IOError):
        download.cache_or_load_file(path, creator, None)
    assert os.listdir(tmp_path / 'c') == []


def test_cache_or_load_file_needs_a_root_folder(tmp_path):
    # as in Chainer: creating files takes the lock in the dataset root
    old = download.get_dataset_root()
    (tmp_path / 'a_file').write_text('')
    download.set_dataset_root(str(tmp_path / 'a_file'))
    try:
        with pytest.raises(RuntimeError, match='cannot create dataset'):
            download.cache_or_load_file(
                str(tmp_path / 'x'), lambda p: 1 / 0, lambda p: 1 / 0)
    finally:
        download.set_dataset_root(old)
    # a file that exists is loaded without the lock
    assert download.cache_or_load_file(
        str(tmp_path / 'a_file'), None, lambda p: 'loaded') == 'loaded'


def test_cached_download_honours_a_patch_of_six_moves(root, monkeypatch):
    # Chainer called six.moves.urllib.request.urlretrieve; code patching
    # that name still reaches the transfer.
    six = pytest.importorskip('six')
    calls = []

    def fake(url, path):
        calls.append(url)
        with open(path, 'w') as f:
            f.write('six')

    monkeypatch.setattr(six.moves.urllib.request, 'urlretrieve', fake)
    path = download.cached_download('https://example.com/six')
    assert calls == ['https://example.com/six']
    with open(path) as f:
        assert f.read() == 'six'
