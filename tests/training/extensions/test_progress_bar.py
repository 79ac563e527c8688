import io
import re
import sys

import pytest

from chainer.training import extensions
from chainer.training import triggers


@pytest.fixture
def stdout(monkeypatch):
    """The stream the bar is drawn on: sys.stdout when the bar is made
    (Chainer 7.8.1 ignores ``out``)."""
    def swap(stream):
        monkeypatch.setattr(sys, 'stdout', stream)
        return stream
    return swap

_SPEED = r' *(inf|[-+0-9.e]+) iters/sec\. Estimated time to finish: ' \
    r'\d+:\d\d:\d\d(\.\d+)?\.\n'


class _StopTrigger:

    def get_training_length(self):
        return 3, 'epoch'


def test_text_format(fake_trainer, stdout):
    tr = fake_trainer(ipe=4)
    tr.stop_trigger = _StopTrigger()
    out = stdout(io.StringIO())
    ext = extensions.ProgressBar(update_interval=2, out=out)
    for _ in range(12):
        tr.updater.iteration += 1
        ext(tr)
    ext.finalize()
    blocks = out.getvalue().split('\x1b[4A')
    assert len(blocks) == 7 and blocks[-1] == '\x1b[J'
    first = blocks[0]
    assert first.startswith('\x1b[J     total [' + '#' * 8 + '.' * 42 +
                            '] 16.67%\n')
    lines = first[3:].split('\n')
    assert lines[1] == 'this epoch [' + '#' * 25 + '.' * 25 + '] 50.00%'
    assert lines[2] == '         2 iter, 0 epoch / 3 epochs'
    assert lines[3] == \
        '       inf iters/sec. Estimated time to finish: 0:00:00.'
    for block in blocks[1:-1]:
        assert re.fullmatch(r'\x1b\[J     total \[[#.]{50}\] +[0-9.]+%\n'
                            r'this epoch \[[#.]{50}\] +[0-9.]+%\n'
                            r' +\d+ iter, \d+ epoch / 3 epochs\n' + _SPEED,
                            block), block
    last = blocks[-2]
    assert '     total [' + '#' * 50 + '] 100.00%\n' in last
    assert 'this epoch [' + '.' * 50 + ']  0.00%\n' in last
    assert '        12 iter, 3 epoch / 3 epochs\n' in last


def test_iteration_unit_and_length(fake_trainer, stdout):
    tr = fake_trainer(ipe=4)
    tr.stop_trigger = triggers.IntervalTrigger(7, 'iteration')
    out = stdout(io.StringIO())
    ext = extensions.ProgressBar(update_interval=3, bar_length=10, out=out)
    for _ in range(7):
        tr.updater.iteration += 1
        ext(tr)
    text = out.getvalue()
    assert text.count('\x1b[4A') == 2
    # bar_length is ignored as in Chainer 7.8.1: 50 characters
    assert '\x1b[J     total [' + '#' * 21 + '.' * 29 + '] 42.86%\n' in text
    assert '         6 iter, 1 epoch / 7 iterations\n' in text
    # and so is training_length where the stop trigger has a length
    out = stdout(io.StringIO())
    ext = extensions.ProgressBar((2, 'epoch'), update_interval=1, out=out)
    tr.updater.iteration = 4
    ext(tr)
    assert '/ 7 iterations\n' in out.getvalue()
    assert ' 57.14%' in out.getvalue()
    # a stop trigger without one takes it
    tr.stop_trigger = lambda trainer: False
    out = stdout(io.StringIO())
    ext = extensions.ProgressBar((2, 'epoch'), update_interval=1, out=out)
    ext(tr)
    assert '/ 2 epochs\n' in out.getvalue() and ' 50.00%' in out.getvalue()


def test_errors(fake_trainer):
    with pytest.raises(ValueError, match='update_interval'):
        extensions.ProgressBar(update_interval=0)
    tr = fake_trainer()
    tr.stop_trigger = lambda trainer: False
    tr.updater.iteration = 100
    with pytest.raises(TypeError, match='training_length'):
        extensions.ProgressBar(out=io.StringIO())(tr)


class _Tty(io.StringIO):

    def isatty(self):
        return True


def test_tqdm_on_a_terminal(fake_trainer, monkeypatch, stdout):
    import types
    made = []

    class FakeTqdm:
        def __init__(self, total, file, **kw):
            self.total, self.n, self.closed = total, 0, False
            self.postfix = None
            made.append(self)

        def set_postfix(self, refresh=True, **kw):
            self.postfix = kw

        def refresh(self):
            pass

        def close(self):
            self.closed = True
    mod = types.ModuleType('tqdm')
    mod.tqdm = FakeTqdm
    monkeypatch.setitem(sys.modules, 'tqdm', mod)
    tr = fake_trainer(ipe=4)
    tr.stop_trigger = triggers.IntervalTrigger(8, 'iteration')
    out = stdout(_Tty())
    ext = extensions.ProgressBar(update_interval=2, out=out)
    for _ in range(5):
        tr.updater.iteration += 1
        ext(tr)
    ext.finalize()
    bar, = made
    assert (bar.total, bar.n, bar.closed) == (8, 4, True)
    assert bar.postfix == {'epoch': 1, 'iter': 4}
    assert out.getvalue() == ''
    # not a terminal: the text bar, even with tqdm installed
    out = stdout(io.StringIO())
    ext = extensions.ProgressBar(update_interval=1, out=out)
    ext(tr)
    assert out.getvalue().startswith('\x1b[J     total [')


def test_stdout_of_construction_time(fake_trainer, stdout):
    tr = fake_trainer(ipe=4)
    tr.stop_trigger = _StopTrigger()
    made_under = stdout(io.StringIO())
    ext = extensions.ProgressBar(update_interval=1)
    later = stdout(io.StringIO())
    tr.updater.iteration = 1
    ext(tr)
    assert later.getvalue() == ''
    assert made_under.getvalue().startswith('\x1b[J     total [')


def test_finalize_erases_an_undrawn_bar(fake_trainer, stdout):
    # as Chainer: training that failed before the first iteration still
    # writes the bar's erase on finalize
    out = stdout(io.StringIO())
    ext = extensions.ProgressBar()
    ext.finalize()
    assert out.getvalue() == '\x1b[J'


def test_out_is_ignored_like_chainer(fake_trainer, stdout):
    tr = fake_trainer(ipe=4)
    tr.stop_trigger = _StopTrigger()
    drawn = stdout(io.StringIO())
    given = io.StringIO()
    ext = extensions.ProgressBar(update_interval=1, out=given)
    tr.updater.iteration = 1
    ext(tr)
    assert given.getvalue() == ''
    assert drawn.getvalue().startswith('\x1b[J     total [')
