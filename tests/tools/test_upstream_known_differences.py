"""tools/upstream_known_differences.py: every failing reference id is listed
under the rule that explains it, and an unexplained one fails the tool."""

import importlib.util
import os

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(HERE, '..', '..', 'tools',
                    'upstream_known_differences.py')


def _load():
    spec = importlib.util.spec_from_file_location('ukd', TOOL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run_dir(tmp_path, name, rows):
    out = tmp_path / name
    out.mkdir()
    (out / 'reference_not_passed.tsv').write_text(
        ''.join('{}\t{}\n'.format(i, s) for i, s in rows))
    return str(out)


def test_ids_are_grouped_and_unexplained_ones_fail(tmp_path, monkeypatch):
    tool = _load()
    target = tmp_path / 'known.md'
    monkeypatch.setattr(tool, 'TARGET', str(target))
    static = ('chainer_tests.serializers_tests.test_npz.TestLoadNpz_param_0_'
              '{x=1}::test_load_with_strict')
    random_id = ('chainer_tests.datasets_tests.test_concatenated_dataset::'
                 'TestConcatenatedDataset_param_0_{datasets=(array([[0.3')
    other = 'chainer_tests.test_link.TestLink::test_something'
    numpy2 = _run_dir(tmp_path, 'np2', [(static, 'failed'),
                                         (random_id, 'missing')])
    numpy1 = _run_dir(tmp_path, 'np1', [(static, 'failed')])
    assert tool.main([numpy2, numpy1]) == 0
    text = target.read_text()
    assert '## Loading is all-or-nothing (1 ids)' in text
    assert '## Test ids holding random arrays (1 ids)' in text
    assert '`{}`'.format(static) in text
    assert 'Unexplained' not in text
    worse = _run_dir(tmp_path, 'worse', [(other, 'failed')])
    assert tool.main([numpy2, worse]) == 1
    assert '## Unexplained (1)' in target.read_text()
