"""tools/run_upstream_tests.py names tests as the reference list does."""

import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', '..', 'tools'))
import run_upstream_tests as runner  # NOQA: E402


@pytest.mark.parametrize('nodeid,expected', [
    ('tests/chainer_tests/a_tests/test_b.py::TestC::test_d',
     'tests.chainer_tests.a_tests.test_b.TestC::test_d'),
    ('tests/chainer_tests/test_b.py::TestC_param_0_{x=1}::test_d',
     'tests.chainer_tests.test_b.TestC_param_0_{x=1}::test_d'),
    # pytest's JUnit names: from the first '[' on, nothing is split
    ('tests/chainer_tests/test_b.py::TestC_param_0_{x=[1, 2]}::test_d',
     'tests.chainer_tests.test_b::TestC_param_0_{x=[1, 2]}::test_d'),
])
def test_nodeid_to_id(nodeid, expected):
    assert runner.nodeid_to_id(nodeid) == expected


def test_normalize_numpy2_scalars():
    ours = ('tests.chainer_tests.x.TestA_param_0_{eps=np.float32(0.5), '
            'n=np.int64(3), t=numpy.bool_}::test_b')
    assert runner.normalize(ours) == \
        'chainer_tests.x.TestA_param_0_{eps=0.5, n=3, t=numpy.bool}::test_b'


def test_shards_cover_every_file_once(tmp_path):
    root = tmp_path / 'tests' / 'chainer_tests'
    (root / 'sub').mkdir(parents=True)
    for i, size in enumerate([50, 10, 30, 20, 40]):
        (root / ('sub' if i % 2 else '.') / 'test_{}.py'.format(i)).write_text(
            'x' * size)
    (root / 'helper.py').write_text('')
    shards = runner.shard_files(str(tmp_path), 2)
    files = sorted(f for shard in shards for f in shard)
    assert len(files) == 5 and len(set(files)) == 5
    assert all(f.startswith('tests/chainer_tests/') for f in files)
    sizes = [sum(os.path.getsize(tmp_path / f) for f in shard) for shard in shards]
    assert sorted(sizes) == [70, 80]


def test_normalize_object_addresses():
    a = 'tests.chainer_tests.t.TestA_param_0_{f=<function g at 0x7f57f7a180e0>}::test_b'
    b = 'tests.chainer_tests.t.TestA_param_0_{f=<function g at 0x7fab12>}::test_b'
    assert runner.normalize(a) == runner.normalize(b)


def test_gpu_report_by_folder(tmp_path, capsys):
    outcomes = {
        'tests.chainer_tests.links_tests.test_a.TestA::test_b': 'passed',
        'tests.chainer_tests.links_tests.test_a.TestA::test_c': 'failed',
        'tests.chainer_tests.test_variable.TestV::test_d': 'skipped',
        'tests.chainer_tests.test_variable.TestV::test_e': 'error',
    }
    runner.report_gpu(outcomes, str(tmp_path), by_folder=True)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ['links_tests', '1', 'passed', '1', 'failed',
                                '0', 'error', '0', 'skipped']
    assert lines[1].split() == ['test_variable', '0', 'passed', '0',
                                'failed', '1', 'error', '1', 'skipped']
    rows = (tmp_path / 'gpu_not_passed.tsv').read_text().splitlines()
    assert rows == [
        'tests.chainer_tests.links_tests.test_a.TestA::test_c\tfailed',
        'tests.chainer_tests.test_variable.TestV::test_e\terror']
