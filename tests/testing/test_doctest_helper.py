import importlib

import pytest

from chainer.testing import doctest_helper


def test_skipif_returns_the_condition():
    assert doctest_helper.skipif(True) is True
    assert doctest_helper.skipif(False) is False
    assert doctest_helper.skipif(0) == 0


def test_skipif_requires_satisfied():
    # Chainer's answers: true only when every requirement is met
    assert doctest_helper.skipif_requires_satisfied('numpy') is True
    assert doctest_helper.skipif_requires_satisfied('numpy>=1.0') is True
    assert doctest_helper.skipif_requires_satisfied('numpy<1.0') is False
    assert doctest_helper.skipif_requires_satisfied(
        'numpy', 'no-such-package-xyz') is False
    assert doctest_helper.skipif_requires_satisfied() is True


@pytest.mark.parametrize('limit, expected', [
    (None, [False, False, False, False]),
    ('0', [False, True, True, True]),
    ('1', [False, False, True, True]),
    ('2', [False, False, False, True]),
])
def test_skipif_not_enough_cuda_devices(monkeypatch, limit, expected):
    if limit is None:
        monkeypatch.delenv('CHAINER_TEST_GPU_LIMIT', raising=False)
    else:
        monkeypatch.setenv('CHAINER_TEST_GPU_LIMIT', limit)
    try:
        # the limit is read at import, as in Chainer
        mod = importlib.reload(doctest_helper)
        assert mod._gpu_limit == (-1 if limit is None else int(limit))
        assert [mod.skipif_not_enough_cuda_devices(n)
                for n in range(4)] == expected
    finally:
        monkeypatch.undo()
        importlib.reload(doctest_helper)
