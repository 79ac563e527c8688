import io
import threading

import numpy
import pytest

import chainer


def test_defaults():
    c = chainer.config
    assert c.train is True and c.enable_backprop is True
    assert c.debug is False and c.type_check is True
    assert c.dtype == numpy.float32 and c.use_cudnn == 'auto'
    assert c.use_ideep == 'never' and c.lazy_grad_sum is False
    assert c.keep_graph_on_report is False and c.autotune is False


def test_show_format():
    s = io.StringIO()
    chainer.config.show(s)
    lines = s.getvalue().split('\n')
    assert lines[0] == '_will_recompute                False'
    assert 'cudnn_fast_batch_normalization False' in lines
    assert 'train                          True' in lines
    g = io.StringIO()
    chainer.global_config.show(g)
    assert g.getvalue() == s.getvalue()


def test_using_config_nested():
    assert chainer.config.train
    with chainer.using_config('train', False):
        assert not chainer.config.train
        with chainer.using_config('train', True):
            assert chainer.config.train
        assert not chainer.config.train
    assert chainer.config.train


def test_using_config_new_key_and_restore_on_error():
    with pytest.raises(KeyError):
        with chainer.using_config('foo', 3):
            assert chainer.config.foo == 3
            raise KeyError
    assert not hasattr(chainer.config, 'foo')


def test_unknown_key():
    with pytest.raises(AttributeError, match='foo'):
        chainer.config.foo


def test_thread_local_overlay_and_global_fallback():
    seen = {}

    def worker():
        seen['train'] = chainer.config.train
        seen['debug'] = chainer.config.debug
        chainer.config.train = 'thread'

    with chainer.using_config('train', False):
        old = chainer.global_config.debug
        chainer.global_config.debug = True
        try:
            t = threading.Thread(target=worker)
            t.start()
            t.join()
        finally:
            chainer.global_config.debug = old
        assert chainer.config.train is False
    assert seen == {'train': True, 'debug': True}


def test_helpers():
    assert chainer.is_debug() is False
    with chainer.using_config('debug', True):
        assert chainer.is_debug()
    assert chainer.get_dtype() == numpy.float32
    with chainer.using_config('dtype', chainer.mixed16):
        assert chainer.get_dtype() == numpy.float16
        assert chainer.get_dtype(map_mixed16=numpy.float32) == numpy.float32
    assert repr(chainer.mixed16) == "dtype('mixed16')"


def test_fresh_global_config_is_independent_of_chainers():
    from chainer import configuration
    g = configuration.GlobalConfig()
    local = configuration.LocalConfig(g)
    g.x = 'global x'
    g.y = 'global y'
    local.y = 'local y'
    assert local.x == 'global x'
    assert not hasattr(chainer.global_config, 'x')
    assert not hasattr(local, 'train')
    del local.y
    assert local.y == 'global y'
    with pytest.raises(AttributeError):
        del local.x
    local.abc = 1
    out = io.StringIO()
    local.show(out)
    assert out.getvalue() == 'abc 1\nx   global x\ny   global y\n'
    out = io.StringIO()
    g.show(out)
    assert out.getvalue() == 'x global x\ny global y\n'


_NUMPY2 = int(numpy.__version__.split('.')[0]) >= 2


def _printed(code, **env):
    import os
    import subprocess
    import sys
    out = subprocess.run(
        [sys.executable, '-c', code], capture_output=True, text=True,
        env=dict(os.environ, **env), check=True)
    return out.stdout.strip()


@pytest.mark.skipif(not _NUMPY2, reason='NumPy 1 prints so already')
def test_numpy_scalars_print_as_under_numpy_1():
    # A Chainer program's evaluator results, reports and lists of NumPy
    # scalars print as they did (under NumPy 1): 0.5, not np.float32(0.5)
    code = ('import numpy, chainer; '
            'print([numpy.float32(0.5), numpy.int64(3)], '
            'numpy.get_printoptions()["legacy"])')
    assert _printed(code) == '[0.5, 3] 1.25'
    # opted out, or a user's own legacy choice made before: left alone
    assert _printed(code, CHAINER_NUMPY_PRINT='2') == \
        '[np.float32(0.5), np.int64(3)] False'
    code = ('import numpy; numpy.set_printoptions(legacy="1.13"); '
            'import chainer; print(numpy.get_printoptions()["legacy"])')
    assert _printed(code) == '1.13'


def test_deleting_an_unset_local_value_in_chainer_words():
    with pytest.raises(AttributeError) as info:
        del chainer.config.train   # only the global value is set
    assert str(info.value) == (
        "'_thread._local' object has no attribute 'train'")
    with chainer.using_config('train', False):
        del chainer.config.train
        assert chainer.config.train is True   # the global value again
        chainer.config.train = False
