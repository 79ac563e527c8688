"""Runs Chainer's own test suite against the installed chainer-ng.

Usage::

    python tools/run_upstream_tests.py UPSTREAM [--out DIR] [-n N]
        [--pairwise] [--by-folder] [--gpu] [--] [pytest arguments...]

UPSTREAM is a checkout of the chainer/chainer repository: a work tree with
``tests/`` and ``setup.cfg``, or a git directory (such as the one the
``fetch`` tool brings), from which ``git archive HEAD tests setup.cfg`` is
unpacked into ``--out``. pytest then runs ``tests/chainer_tests`` from that
folder, with upstream's ``setup.cfg`` as shipped, on the CPU (``not gpu and
not cudnn and not ideep and not slow``), so ``import chainer`` is whatever
this Python has installed.

``--gpu`` runs the GPU tests instead (``gpu and not slow and not
multi_gpu``, cuDNN ones included), on a machine with CuPy and a GPU: the
reference list holds CPU ids only, so it prints the outcomes per folder
(with ``--by-folder``) and writes the ids that did not pass to
``gpu_not_passed.tsv``.

It writes ``junit.xml`` and ``outcomes.tsv`` (one ``id<TAB>outcome`` a line,
ids in the form of ``shared/upstream/chainer781_passed_ids.txt.gz``) into
``--out`` and prints one line of counts, then the share of the ids that pass
on the real Chainer 7.8.1 which pass here (``--by-folder``: per folder too).
Nothing of upstream is kept in this project: the suite is an oracle to run.
"""

import argparse
import collections
import gzip
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
REFERENCE = os.path.join(
    ROOT, '..', 'shared', 'upstream', 'chainer781_passed_ids.txt.gz')
MARKERS = 'not gpu and not cudnn and not ideep and not slow'
GPU_MARKERS = 'gpu and not slow and not multi_gpu and not ideep'

# NumPy 2 writes scalars as np.float32(1.0); the reference ids were made
# under NumPy 1, which wrote 1.0.
_NP_SCALAR = re.compile(r'np\.(?:[a-z]+\d*_?)\(([^()]*)\)')
# Object reprs in ids hold addresses that differ from run to run.
_ADDRESS = re.compile(r' at 0x[0-9a-f]+')


def normalize(test_id):
    test_id = test_id[test_id.find('chainer_tests.'):]
    test_id = _NP_SCALAR.sub(r'\1', test_id)
    test_id = _ADDRESS.sub(' at 0x', test_id)
    return test_id.replace('numpy.bool_', 'numpy.bool')


def nodeid_to_id(nodeid):
    """A pytest node id as the reference names it: JUnit's
    ``classname::name``, made as pytest's JUnit report makes them (the part
    from the first ``[`` on stays in the name, unsplit), e.g.
    ``tests/a/test_b.py::Cls::test_c`` -> ``tests.a.test_b.Cls::test_c``."""
    path, bracket, params = nodeid.partition('[')
    names = path.split('::')
    names[0] = re.sub(r'\.py$', '', names[0].replace('/', '.'))
    names[-1] += bracket + params
    return '.'.join(names[:-1]) + '::' + names[-1]


def prepare(upstream, out):
    if os.path.isdir(os.path.join(upstream, 'tests', 'chainer_tests')):
        return os.path.abspath(upstream)
    # a git directory: unpack the tests and the configuration
    archive = subprocess.run(
        ['git', '--git-dir', upstream, 'archive', 'HEAD', 'tests',
         'setup.cfg'], check=True, stdout=subprocess.PIPE).stdout
    tree = os.path.join(out, 'upstream')
    os.makedirs(tree, exist_ok=True)
    subprocess.run(['tar', 'x', '-C', tree], input=archive, check=True)
    return tree


# What the suite imports besides chainer (the reference run had them all).
NEEDED = ('pytest', 'mock', 'six', 'scipy', 'h5py', 'matplotlib', 'PIL')


def check_environment():
    import importlib.util
    missing = [m for m in NEEDED if importlib.util.find_spec(m) is None]
    if missing:
        sys.exit('run_upstream_tests: install {} first (Chainer\'s suite '
                 'imports them)'.format(', '.join(missing)))


def shard_files(tree, jobs):
    """The test files of tests/chainer_tests in ``jobs`` groups of about the
    same total size (pytest-xdist cannot be used: some of the suite's test
    ids hold object addresses, which differ between its workers)."""
    files = []
    for dirpath, _, names in os.walk(os.path.join(tree, 'tests',
                                                  'chainer_tests')):
        for name in names:
            if name.startswith('test_') and name.endswith('.py'):
                path = os.path.join(dirpath, name)
                files.append((os.path.getsize(path),
                              os.path.relpath(path, tree)))
    shards = [[0, []] for _ in range(jobs)]
    for size, path in sorted(files, reverse=True):
        shard = min(shards, key=lambda s: s[0])
        shard[0] += size
        shard[1].append(path)
    return [sorted(paths) for _, paths in shards if paths]


def run_pytest(tree, out, jobs, pairwise, extra, markers=MARKERS):
    env = dict(os.environ)
    env['PYTHONPATH'] = os.pathsep.join(
        [HERE] + [p for p in [env.get('PYTHONPATH')] if p])
    env['CHAINER_TEST_PAIRWISE_PARAMETERIZATION'] = (
        'always' if pairwise else 'never')
    shards = shard_files(tree, jobs) if jobs > 1 else [['tests/chainer_tests']]
    procs = []
    for k, paths in enumerate(shards):
        raw = os.path.join(out, 'outcomes.raw.{}'.format(k))
        if os.path.exists(raw):
            os.remove(raw)
        # (pytest-benchmark, where installed, warns under xdist-like
        # setups, which upstream's filterwarnings = error makes fatal)
        cmd = [sys.executable, '-m', 'pytest', '-m', markers,
               '-p', 'no:cacheprovider', '-p', 'no:benchmark', '-q', '-rN',
               '--tb=short',
               '--continue-on-collection-errors',
               '--junitxml', os.path.join(out, 'junit-{}.xml'.format(k)),
               '-p', '_upstream_outcomes'] + extra + paths
        shard_env = dict(env, UPSTREAM_OUTCOMES=raw)
        log = open(os.path.join(out, 'pytest-{}.log'.format(k)), 'w')
        procs.append((subprocess.Popen(cmd, cwd=tree, env=shard_env,
                                       stdout=log, stderr=subprocess.STDOUT),
                      raw, log))
    raws = []
    for proc, raw, log in procs:
        proc.wait()
        log.close()
        if os.path.exists(raw):
            raws.append(raw)
    merge_junit([os.path.join(out, 'junit-{}.xml'.format(k))
                 for k in range(len(shards))],
                os.path.join(out, 'junit.xml'))
    return raws


def merge_junit(parts, target):
    import xml.etree.ElementTree as ET
    root = ET.Element('testsuites')
    for part in parts:
        if os.path.exists(part):
            tree = ET.parse(part).getroot()
            suites = [tree] if tree.tag == 'testsuite' else list(tree)
            root.extend(suites)
            os.remove(part)
    ET.ElementTree(root).write(target, encoding='utf-8', xml_declaration=True)


def read_outcomes(raws):
    result = {}
    for raw in raws:
        with open(raw) as f:
            for line in f:
                nodeid, _, outcome = line.rstrip('\n').rpartition('\t')
                result[nodeid_to_id(nodeid)] = outcome
    return result


def folder_of(test_id):
    parts = test_id.split('::')[0].split('.')
    return parts[1] if len(parts) > 2 else parts[-1]


def report_gpu(outcomes, out, by_folder):
    """Outcomes of a GPU run (no reference: the list is of CPU ids)."""
    with open(os.path.join(out, 'gpu_not_passed.tsv'), 'w') as f:
        for test_id in sorted(outcomes):
            if outcomes[test_id] not in ('passed', 'skipped'):
                f.write('{}\t{}\n'.format(test_id, outcomes[test_id]))
    if by_folder:
        folders = collections.defaultdict(collections.Counter)
        for test_id, outcome in outcomes.items():
            folders[folder_of(normalize(test_id))][outcome] += 1
        for name in sorted(folders):
            c = folders[name]
            print('  {:<28} {:>6} passed {:>5} failed {:>5} error {:>6} '
                  'skipped'.format(name, c['passed'], c['failed'],
                                   c['error'], c['skipped']))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('upstream')
    parser.add_argument('--out', default=None)
    parser.add_argument('-n', '--jobs', type=int, default=1,
                        help='pytest processes, each on a share of the files')
    parser.add_argument('--pairwise', action='store_true')
    parser.add_argument('--by-folder', action='store_true')
    parser.add_argument('--reference', default=REFERENCE)
    parser.add_argument('--gpu', action='store_true',
                        help='the GPU tests (needs CuPy and a GPU)')
    parser.add_argument('pytest_args', nargs='*')
    args = parser.parse_args(argv)

    check_environment()
    out = os.path.abspath(args.out or tempfile.mkdtemp(prefix='upstream-'))
    os.makedirs(out, exist_ok=True)
    tree = prepare(args.upstream, out)
    raws = run_pytest(tree, out, args.jobs, args.pairwise, args.pytest_args,
                      GPU_MARKERS if args.gpu else MARKERS)
    if not raws:
        print('pytest ran no test (see the pytest-*.log files in {})'.format(
            out))
        return 1
    outcomes = read_outcomes(raws)
    with open(os.path.join(out, 'outcomes.tsv'), 'w') as f:
        for test_id in sorted(outcomes):
            f.write('{}\t{}\n'.format(test_id, outcomes[test_id]))
    counts = collections.Counter(outcomes.values())
    print('upstream: ' + ', '.join(
        '{} {}'.format(counts[k], k) for k in
        ('passed', 'failed', 'error', 'skipped') if counts[k]))

    if args.gpu:
        report_gpu(outcomes, out, args.by_folder)
    elif os.path.exists(args.reference):
        with gzip.open(args.reference, 'rt') as f:
            # a few lines of the list are pieces of ids that span lines
            # (array reprs); no run can match them
            reference = {normalize(line.rstrip('\n')) for line in f
                         if line.startswith('tests.chainer_tests.')}
        ours = {normalize(k): v for k, v in outcomes.items()}
        passed = {k for k in reference if ours.get(k) == 'passed'}
        print('reference ids passing here: {} of {} ({:.1%})'.format(
            len(passed), len(reference), len(passed) / len(reference)))
        with open(os.path.join(out, 'reference_not_passed.tsv'), 'w') as f:
            for k in sorted(reference - passed):
                f.write('{}\t{}\n'.format(k, ours.get(k, 'missing')))
        if args.by_folder:
            total = collections.Counter(folder_of(k) for k in reference)
            good = collections.Counter(folder_of(k) for k in passed)
            for name in sorted(total):
                print('  {:<28} {:>6} of {:>6} ({:.1%})'.format(
                    name, good[name], total[name],
                    good[name] / total[name]))
    print('results in', out)
    return 0


if __name__ == '__main__':
    sys.exit(main())
