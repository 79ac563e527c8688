import re

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import computational_graph as c

_VAR = 'shape="octagon",fillcolor="#E0E0E0",style="filled"'
_FUNC = 'shape="record",fillcolor="#6495ED",style="filled"'


def _parse(dot):
    """-> (rankdir, {id: attrs}, [(id, id)]) of a dump."""
    m = re.fullmatch(r'digraph graphname\{rankdir=(\w+);(.*)\}', dot)
    assert m, dot
    nodes, edges = {}, []
    for stmt in m.group(2).split(';'):
        if not stmt:
            continue
        e = re.fullmatch(r'(\d+) -> (\d+)', stmt)
        if e:
            edges.append(e.groups())
            continue
        n = re.fullmatch(r'(\d+) \[(.*)\]', stmt)
        assert n, stmt
        nodes[n.group(1)] = n.group(2)
    return m.group(1), nodes, edges


def _labels(nodes, edges):
    lab = {k: re.match(r'label="([^"]*)"', v).group(1)
           for k, v in nodes.items()}
    return sorted(lab.values()), sorted((lab[a], lab[b]) for a, b in edges)


@pytest.fixture
def graph():
    x = chainer.Variable(numpy.ones((2, 3), numpy.float32), name='x')
    y = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    z = F.relu(x) + y
    s = F.split_axis(z, 3, 1)
    w = s[0] * s[1] + s[2]
    w.name = 'w'
    return x, y, s, w


def test_dot_structure(graph):
    x, y, s, w = graph
    g = c.build_computational_graph([w])
    assert isinstance(g, c.ComputationalGraph)
    rankdir, nodes, edges = _parse(g.dump())
    assert rankdir == 'TB'
    assert len(nodes) == len(g.nodes) == 14
    assert len(edges) == len(g.edges) == 15
    assert nodes[str(id(x.node))] == 'label="x: (2, 3), float32",' + _VAR
    assert nodes[str(id(w.node))] == 'label="w: (2, 1), float32",' + _VAR
    assert nodes[str(id(w.creator))] == 'label="_ + _",' + _FUNC
    labels, pairs = _labels(nodes, edges)
    assert labels.count('ReLU') == 1 and labels.count('SplitAxis') == 1
    assert labels.count('(2, 1), float32') == 4
    assert ('x: (2, 3), float32', 'ReLU') in pairs
    assert ('SplitAxis', '(2, 1), float32') in pairs
    assert ('_ + _', 'w: (2, 1), float32') in pairs
    # every edge goes between a variable and a function
    kinds = {k: 'octagon' in v for k, v in nodes.items()}
    assert all(kinds[a] != kinds[b] for a, b in edges)


def test_nodes_and_edges_are_objects(graph):
    x, y, s, w = graph
    g = c.build_computational_graph(w)  # a single Variable is accepted
    assert x.node in g.nodes and w.creator in g.nodes
    assert (w.creator, w.node) in g.edges
    assert all(type(e) is tuple and len(e) == 2 for e in g.edges)


def test_same_input_twice_gives_one_edge():
    x = chainer.Variable(numpy.ones(2, numpy.float32))
    g = c.build_computational_graph([x * x])
    assert len(g.edges) == 2


def test_remove_variable_links_functions(graph):
    x, y, s, w = graph
    dot = c.build_computational_graph([w], remove_variable=True).dump()
    _, nodes, edges = _parse(dot)
    labels, pairs = _labels(nodes, edges)
    assert labels == sorted(['_ * _', '_ + _', '_ + _', 'ReLU', 'SplitAxis'])
    assert len(edges) == 5  # SplitAxis -> Mul once, though two outputs
    assert ('SplitAxis', '_ * _') in pairs and ('ReLU', '_ + _') in pairs


def test_styles_rankdir_show_name(graph):
    x, y, s, w = graph
    dot = c.build_computational_graph(
        [w], variable_style={'shape': 'box'}, function_style={'color': 'red'},
        rankdir='LR', show_name=False).dump()
    rankdir, nodes, _ = _parse(dot)
    assert rankdir == 'LR'
    assert nodes[str(id(x.node))] == 'label="(2, 3), float32",shape="box"'
    assert nodes[str(id(w.creator))] == \
        'label="_ + _",shape="box",color="red"'  # box kept, as Chainer
    dot = c.build_computational_graph([w], variable_style=None,
                                      function_style=None).dump()
    _, nodes, _ = _parse(dot)
    assert nodes[str(id(x.node))].endswith('shape="oval"')
    assert nodes[str(id(w.creator))].endswith('shape="box"')


def test_leaf_only_and_scalar_label():
    x = chainer.Variable(numpy.ones((2, 3), numpy.float32), name='x')
    assert c.build_computational_graph([x]).dump() == (
        'digraph graphname{rankdir=TB;' + str(id(x.node)) +
        ' [label="x: (2, 3), float32",' + _VAR + '];}')
    _, nodes, _ = _parse(c.build_computational_graph([F.sum(x)]).dump())
    assert any(v.startswith('label="float32"') for v in nodes.values())


def test_dotnode():
    x = chainer.Variable(numpy.ones(3, numpy.float32), name='a"b')
    n = c.DotNode(x.node, {'shape': 'oval'})
    assert n.attribute == {'label': 'a"b: (3), float32', 'shape': 'oval'}
    # quotes are escaped so the dot stays valid
    assert n.label == '{} [label="a\\"b: (3), float32",shape="oval"]'.format(
        id(x.node))
    assert c.DotNode(x.node, show_name=False).attribute == {
        'label': '(3), float32', 'shape': 'oval'}
    f = F.relu(x).creator
    assert c.DotNode(f, {'label': 'Q'}).attribute == {'label': 'Q',
                                                      'shape': 'box'}
    with pytest.raises(TypeError, match='DotNode'):
        c.DotNode(object())


def test_errors(graph):
    x, y, s, w = graph
    with pytest.raises(ValueError, match='remove_split=False'):
        c.build_computational_graph([w], remove_split=False)
    with pytest.raises(ValueError, match='rankdir must be in TB, BT, LR or RL'):
        c.build_computational_graph([w], rankdir='XX')
    with pytest.raises(ValueError, match='variable_style'):
        c.build_computational_graph([w], variable_style='foo')
    with pytest.raises(NotImplementedError, match='only dot format'):
        c.build_computational_graph([w]).dump('png')
    with pytest.raises(TypeError, match='outputs'):
        c.build_computational_graph([numpy.ones(2)])
