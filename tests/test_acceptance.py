"""The seeds' examples (tests/acceptance/*.txt) as doctests.

Import lines naming modules that have not landed yet are dropped (and the
names they would bind); every other example must print what Chainer 7.8.1
printed.  Once every module exists, the files run unchanged.
"""

import doctest
import os
import re

import pytest

HERE = os.path.join(os.path.dirname(__file__), 'acceptance')
_FLAGS = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS


def _importable(statement):
    try:
        exec(statement, {})
        return True
    except ImportError:
        return False


def _filter(text):
    """Drops what the not-yet-landed modules would import."""
    out = []
    dropped = []
    for line in text.split('\n'):
        if not (line.startswith('>>> ') and 'import' in line):
            out.append(line)
            continue
        statement = line[4:]
        m = re.match(r'from (\S+) import (.*)$', statement)
        if m:
            names = [n.strip() for n in m.group(2).split(',')]
            kept = [n for n in names if _importable(
                'from {} import {}'.format(m.group(1), n))]
            dropped += [n for n in names if n not in kept]
            if kept:
                out.append('>>> from {} import {}'.format(
                    m.group(1), ', '.join(kept)))
        elif _importable(statement):
            out.append(line)
        else:
            dropped.append(statement)
    return '\n'.join(out), dropped


@pytest.mark.parametrize('name', sorted(
    f for f in os.listdir(HERE) if f.endswith('.txt')))
def test_acceptance(name):
    with open(os.path.join(HERE, name)) as f:
        text, dropped = _filter(f.read())
    parser = doctest.DocTestParser()
    test = parser.get_doctest(text, {}, name, name, 0)
    runner = doctest.DocTestRunner(optionflags=_FLAGS)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, '{} of {} examples failed'.format(
        result.failed, result.attempted)
    assert result.attempted > 40
