"""Building a computational graph and dumping it in Graphviz dot format.

The graph is walked backward from the output variables: a variable node
leads to its creator (``node.creator_node``), a function node to its inputs
(``func.inputs``, variable nodes).  Nodes and edges keep the order in which
they were found, so a dump of the same graph is the same text every time
(up to the ids, which are the objects' ``id()``).
"""

import collections

from chainer import function_node as function_node_module
from chainer import variable as variable_module

_var_style = {'shape': 'octagon', 'fillcolor': '#E0E0E0', 'style': 'filled'}
_func_style = {'shape': 'record', 'fillcolor': '#6495ED', 'style': 'filled'}
_plain_var_style = {'shape': 'oval'}
_plain_func_style = {'shape': 'box'}
_RANKDIRS = ('TB', 'BT', 'LR', 'RL')


def _escape(text):
    return str(text).replace('\\', '\\\\').replace('"', '\\"')


class DotNode:
    """A node of the dot output: one variable node or one function node.

    Args:
        node (VariableNode or FunctionNode): The graph node.
        attribute (dict): Extra dot attributes (``{'shape': 'box'}``).
        show_name (bool): Prefix a variable's label with its name.

    >>> import numpy as np, chainer
    >>> x = chainer.Variable(np.zeros(3, np.float32), name='x')
    >>> DotNode(x.node, {'shape': 'oval'}).attribute
    {'label': 'x: (3), float32', 'shape': 'oval'}
    """

    def __init__(self, node, attribute=None, show_name=True):
        if not isinstance(node, (variable_module.VariableNode,
                                 function_node_module.FunctionNode)):
            raise TypeError(
                'DotNode: node must be a VariableNode or a FunctionNode, '
                'got {}'.format(type(node).__name__))
        self.node = node
        self.id_ = id(node)
        label = node.label
        is_var = isinstance(node, variable_module.VariableNode)
        if is_var and show_name and node.name is not None:
            label = '{}: {}'.format(node.name, label)
        # the shape a style without one keeps, as in Chainer
        self.attribute = {'label': label, 'shape': 'oval' if is_var else 'box'}
        if attribute is not None:
            self.attribute.update(attribute)

    @property
    def label(self):
        """The node's dot statement, e.g. ``123 [label="ReLU",shape="box"]``."""
        attrs = ','.join('{}="{}"'.format(k, _escape(v))
                         for k, v in self.attribute.items())
        return '{} [{}]'.format(self.id_, attrs)


def _style(style, default, plain, what):
    if style is None:
        return plain
    if isinstance(style, str):
        if style != 'default':
            raise ValueError(
                "{}_style must be 'default', None or a dict of dot "
                "attributes, got {!r}".format(what, style))
        return default
    return dict(style)


class ComputationalGraph:
    """A computational graph: nodes and edges, dumpable as dot.

    Usually made by :func:`build_computational_graph`.

    Args:
        nodes (list): Variable nodes and function nodes.
        edges (list of tuples): ``(from, to)`` pairs of nodes.
        variable_style (dict, 'default' or None): Dot attributes of
            variable nodes.
        function_style (dict, 'default' or None): Dot attributes of
            function nodes.
        rankdir (str): ``'TB'``, ``'BT'``, ``'LR'`` or ``'RL'``.
        remove_variable (bool): Draw only the functions, linked directly.
        show_name (bool): Show the variables' names.
    """

    def __init__(self, nodes, edges, variable_style='default',
                 function_style='default', rankdir='TB',
                 remove_variable=False, show_name=True):
        if rankdir not in _RANKDIRS:
            raise ValueError('rankdir must be in TB, BT, LR or RL.')
        self.nodes = nodes
        self.edges = edges
        self.variable_style = _style(variable_style, _var_style,
                                     _plain_var_style, 'variable')
        self.function_style = _style(function_style, _func_style,
                                     _plain_func_style, 'function')
        self.rankdir = rankdir
        self.remove_variable = remove_variable
        self.show_name = show_name

    def _to_dot(self):
        out = ['digraph graphname{rankdir=', self.rankdir, ';']
        is_var = variable_module.VariableNode
        for node in self.nodes:
            if isinstance(node, is_var):
                if self.remove_variable:
                    continue
                style = self.variable_style
            else:
                style = self.function_style
            out.append(DotNode(node, style, self.show_name).label + ';')
        if self.remove_variable:
            # f -> v -> g becomes f -> g (each pair once).
            consumers = collections.defaultdict(list)
            for a, b in self.edges:
                if isinstance(a, is_var):
                    consumers[id(a)].append(b)
            edges = []
            for a, b in self.edges:
                if not isinstance(a, is_var) and isinstance(b, is_var):
                    edges.extend((a, g) for g in consumers[id(b)])
        else:
            edges = self.edges
        seen = set()
        for a, b in edges:
            key = (id(a), id(b))
            if key not in seen:
                seen.add(key)
                out.append('{} -> {};'.format(*key))
        out.append('}')
        return ''.join(out)

    def dump(self, format='dot'):
        """Returns the graph as text (only ``format='dot'`` is supported)."""
        if format == 'dot':
            return self._to_dot()
        raise NotImplementedError('Currently, only dot format is supported.')


def build_computational_graph(outputs, remove_split=True,
                              variable_style='default',
                              function_style='default', rankdir='TB',
                              remove_variable=False, show_name=True):
    """Builds the graph that leads to ``outputs``.

    Args:
        outputs: A Variable or VariableNode, or a list/tuple of them.
        remove_split (bool): Must be True (kept for compatibility).
        variable_style, function_style: Dot attributes (a dict),
            ``'default'`` for Chainer's filled octagons and records, or None
            for plain ovals and boxes.
        rankdir (str): Graph direction: ``'TB'``, ``'BT'``, ``'LR'`` or
            ``'RL'``.
        remove_variable (bool): Draw only the function nodes.
        show_name (bool): Show the variables' names.

    Returns:
        ComputationalGraph: nodes are the VariableNodes and FunctionNodes
        found, edges are ``(from, to)`` tuples.

    >>> import numpy as np, chainer, chainer.functions as F
    >>> x = chainer.Variable(np.ones(2, np.float32), name='x')
    >>> g = build_computational_graph([F.relu(x)])
    >>> len(g.nodes), len(g.edges)
    (3, 2)
    >>> g.dump().startswith('digraph graphname{rankdir=TB;')
    True
    """
    if not remove_split:
        raise ValueError('remove_split=False is not supported anymore')
    if isinstance(outputs, (variable_module.Variable,
                            variable_module.VariableNode)):
        outputs = [outputs]
    nodes = []
    edges = []
    seen = set()
    seen_edges = set()
    stack = collections.deque()

    def link(a, b):
        if (id(a), id(b)) not in seen_edges:
            seen_edges.add((id(a), id(b)))
            edges.append((a, b))

    def add(node):
        if id(node) not in seen:
            seen.add(id(node))
            nodes.append(node)
            stack.append(node)

    for out in outputs:
        if isinstance(out, variable_module.Variable):
            out = out.node
        elif not isinstance(out, variable_module.VariableNode):
            raise TypeError(
                'build_computational_graph: outputs must be Variables or '
                'VariableNodes, got {}'.format(type(out).__name__))
        add(out)
    while stack:
        node = stack.popleft()
        if isinstance(node, variable_module.VariableNode):
            func = node.creator_node
            if func is not None:
                link(func, node)
                add(func)
        else:
            for x in node.inputs or ():
                link(x, node)
                add(x)
    return ComputationalGraph(nodes, edges, variable_style, function_style,
                              rankdir, remove_variable, show_name)
