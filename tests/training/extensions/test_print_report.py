import io

import numpy
import pytest

from chainer.training import extensions


def _run(entries, logs, fake_trainer, postprocess=None):
    tr = fake_trainer(ipe=2)
    log_report = extensions.LogReport(trigger=(1, 'iteration'),
                                      filename=None, postprocess=postprocess)
    out = io.StringIO()
    ext = extensions.PrintReport(entries, log_report=log_report, out=out)
    for obs in logs:
        tr.updater.iteration += 1
        tr.observation = obs
        ext(tr)
    return out.getvalue()


def test_layout_matches_chainer(fake_trainer):
    # The layout of Chainer 7.8.1: header joined by two spaces, each column
    # max(10, len(name)) wide plus two spaces, values in 'g' format,
    # each line after ESC[J, blanks for missing entries.
    text = _run(['epoch', 'iteration', 'main/loss', 'missing/key',
                 'a_very_long_entry_name_here'],
                [{'main/loss': numpy.float32(0.705613)},
                 {'main/loss': 0.6799841}], fake_trainer)
    lines = text.split('\n')
    assert lines[0] == ('epoch       iteration   main/loss   missing/key  '
                        'a_very_long_entry_name_here')
    assert lines[1] == '\x1b[J0           1           0.705613' + ' ' * 46
    assert lines[2] == '\x1b[J1           2           0.679984' + ' ' * 46
    assert lines[3] == '' and len(lines) == 4


def test_formats(fake_trainer):
    def post(entry):
        if entry['iteration'] == 3:
            entry['v'] = 'text'
    text = _run(['elapsed_time', 'v'],
                [{'v': 1e-7}, {'v': 123456789.0}, {}], fake_trainer, post)
    lines = text.split('\n')
    assert lines[0] == 'elapsed_time  v         '
    assert lines[1] == '\x1b[J0             1e-07       '
    assert lines[2] == '\x1b[J0             1.23457e+08  '
    assert lines[3] == '\x1b[J0             text        '


def test_by_name_and_errors(tiny_trainer):
    t = tiny_trainer(stop=(2, 'epoch'))
    out = io.StringIO()
    t.extend(extensions.LogReport())
    t.extend(extensions.PrintReport(['epoch', 'iteration'], out=out))
    t.run()
    assert out.getvalue() == (
        'epoch       iteration \n'
        '\x1b[J1           4           \n'
        '\x1b[J2           8           \n')
    bad = extensions.PrintReport(['epoch'], log_report=3, out=io.StringIO())
    with pytest.raises(TypeError, match='log report has a wrong type'):
        bad(t)
