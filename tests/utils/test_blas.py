"""chainer.utils._blas: batches of products on chainer-ng's own threads,
each keeping NumPy's OpenBLAS to one thread; the same numbers as NumPy."""

import threading

import numpy
import pytest

from chainer.utils import _blas
from chainer.utils import conv_nd

needs_local = pytest.mark.skipif(
    _blas._local_threads is None,
    reason="NumPy's BLAS is not an OpenBLAS with per-thread thread counts")


@pytest.fixture(params=[1, 2], ids=['in-turn', 'two-threads'])
def threads(request, monkeypatch):
    if request.param > 1 and _blas._local_threads is None:
        pytest.skip('no per-thread OpenBLAS thread count here')
    monkeypatch.setattr(_blas, '_threads', request.param)
    return request.param


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
@pytest.mark.parametrize('shape', [(300, 200, 400), (40, 300, 2000),
                                   (2000, 100, 40), (3, 4, 5)])
def test_matmul_is_numpys(threads, dtype, shape):
    # OpenBLAS's edge kernels may round a row block's last rows otherwise
    # (seen in float64), so: NumPy's numbers to rounding, and the same bits
    # from call to call
    m, k, n = shape
    rng = numpy.random.RandomState(0)
    a = rng.standard_normal((m, k)).astype(dtype)
    b = rng.standard_normal((k, n)).astype(dtype)
    tol = dict(rtol=1e-5, atol=1e-5) if dtype == numpy.float32 else \
        dict(rtol=1e-13, atol=1e-13)
    got = _blas.matmul(a, b)
    assert got.dtype == dtype and got.shape == (m, n)
    numpy.testing.assert_allclose(got, numpy.matmul(a, b), **tol)
    assert _blas.matmul(a, b).tobytes() == got.tobytes()
    # transposed operands and a given out, as the convolutions pass them
    out = numpy.empty((n, m), dtype)
    assert _blas.matmul(b.T, a.T, out=out) is out
    numpy.testing.assert_allclose(out, numpy.matmul(b.T, a.T), **tol)


def test_matmul_of_other_dtypes_is_numpys(threads):
    a = numpy.arange(6, dtype=numpy.int64).reshape(2, 3)
    numpy.testing.assert_array_equal(_blas.matmul(a, a.T), a @ a.T)
    h = numpy.ones((300, 300), numpy.float16)
    assert _blas.matmul(h, h).dtype == numpy.float16


def test_run_calls_every_part_once(threads):
    seen = []
    lock = threading.Lock()

    def part(k):
        def call():
            with lock:
                seen.append((k, threading.get_ident()))
        return call
    _blas.run([part(k) for k in range(7)])
    assert sorted(k for k, _ in seen) == list(range(7))
    # this thread takes parts 0, n, 2n, ...; helpers the others
    here = threading.get_ident()
    assert {k for k, t in seen if t == here} == set(range(0, 7, threads))


def test_run_raises_a_parts_error(threads):
    done = []

    def bad():
        raise ValueError('part failed')
    parts = [lambda: done.append(0), bad, lambda: done.append(2),
             lambda: done.append(3)]
    with pytest.raises(ValueError, match='part failed'):
        _blas.run(parts)
    # in turn it stops there; spread, it comes after every part ended
    assert sorted(done) == ([0] if threads == 1 else [0, 2, 3])


@needs_local
def test_run_gives_this_thread_its_blas_threads_back(threads):
    before = _blas._local_threads(3)
    try:
        _blas.run([lambda: None] * 4)
        assert _blas._local_threads(3) == 3
    finally:
        _blas._local_threads(before)


def test_the_loops_take_blas_threads_by_default(monkeypatch):
    # _setup gives the C loops (conv_nd.DEFAULT_THREADS) the products'
    # thread count: 2 where OpenBLAS runs on chainer-ng's threads, else 1
    calls = []

    class Loops:
        def set_threads(self, n):
            calls.append(n)
    monkeypatch.setattr(conv_nd, '_loops', Loops())
    monkeypatch.setattr(conv_nd, 'DEFAULT_THREADS', conv_nd.DEFAULT_THREADS)
    monkeypatch.setattr(_blas, '_cores', lambda: 4)
    try:
        monkeypatch.setattr(_blas, '_find', lambda: None)
        _blas._setup()
        assert (_blas.threads(), conv_nd.DEFAULT_THREADS) == (1, 1)
        monkeypatch.setattr(_blas, '_find', lambda: (lambda n: 1))
        _blas._setup()
        assert (_blas.threads(), conv_nd.DEFAULT_THREADS) == (2, 2)
        assert calls == [1, 2]
    finally:
        monkeypatch.undo()
        _blas._setup()


@needs_local
def test_a_forked_child_starts_its_own_helpers(monkeypatch):
    import multiprocessing
    monkeypatch.setattr(_blas, '_threads', 2)
    a = numpy.ones((512, 512), numpy.float32)
    _blas.matmul(a, a)  # the parent has its helper
    assert _blas._workers
    ctx = multiprocessing.get_context('fork')
    with ctx.Pool(1) as pool:
        # (a deadlock here: the child waiting on the parent's helper)
        total = pool.apply_async(_product_total).get(timeout=60)
    assert total == 512.0 ** 3


def _product_total():
    _blas._threads = 2
    a = numpy.ones((512, 512), numpy.float32)
    return float(_blas.matmul(a, a).sum())


def test_products_by_size(monkeypatch):
    # tiny: NumPy alone; medium: this thread with one OpenBLAS thread;
    # large: split (and this thread's count given back each time)
    calls = []

    def local(n):
        calls.append(n)
        return 7
    monkeypatch.setattr(_blas, '_local_threads', local)
    monkeypatch.setattr(_blas, '_threads', 2)
    monkeypatch.setattr(_blas, 'run', lambda parts: [f() for f in parts])
    tiny = numpy.ones((32, 32), numpy.float32)  # 32k multiply-adds
    _blas.matmul(tiny, tiny)
    assert calls == []
    medium = numpy.ones((128, 128), numpy.float32)  # 2M
    numpy.testing.assert_array_equal(_blas.matmul(medium, medium), 128)
    assert calls == [1, 7]
    calls.clear()
    large = numpy.ones((256, 256), numpy.float32)  # 16M: two row halves
    numpy.testing.assert_array_equal(_blas.matmul(large, large), 256)
    assert calls == []  # (run, stubbed here, sets the counts)
