"""Context: the names of an export, and what converters add to it."""

from onnx import numpy_helper

import chainer
from onnx_chainer import onnx_helper


def _node_of(variable):
    if isinstance(variable, chainer.Variable):
        return variable.node
    return variable


class Context:
    """What an export knows about names while it converts a model.

    Every graph value has one name: the model's parameters are named by
    their link path (``/l1/W`` is ``param_l1_W``), the inputs and outputs
    as the export decides, and a function's outputs after the function
    (``ReLU_0``). Converters ask for names with :meth:`get_name` and add
    tensors of their own with :meth:`add_param` (an initializer) and
    :meth:`add_const` (a ``Constant`` node).

    Args:
        model (~chainer.Link): The model exported (its parameters are
            named by their path in it).
    """

    def __init__(self, model):
        self._names = {}       # id(VariableNode) -> name
        self._alive = []       # keeps the named nodes (so ids stay unique)
        self._used = set()
        self.parameters = []   # initializers added by converters
        self.nodes = []        # Constant nodes added by converters, pending
        self.param_names = set()
        self.named_params = []  # (name, Parameter) of the model
        self.persistents = {}   # id(array) -> name, of the model's arrays
        if not isinstance(model, chainer.Link):
            return
        seen = set()
        for path, param in model.namedparams():
            if id(param) in seen:
                continue
            seen.add(id(param))
            name = onnx_helper.cleanse_param_name(path)
            self.named_params.append((name, param))
            self.param_names.add(name)
            self.set_name(param, name)
        # Persistent arrays (BatchNormalization's avg_mean, ...) are named
        # by their path too when a function takes them.
        for path, link in model.namedlinks():
            for key in sorted(link._persistent):
                value = getattr(link, key, None)
                if isinstance(value, chainer.get_array_types()):
                    self.persistents[id(value)] = \
                        onnx_helper.cleanse_param_name(
                            path.rstrip('/') + '/' + key)

    def __contains__(self, variable):
        return id(_node_of(variable)) in self._names

    def get_name(self, variable):
        """The name of a Variable (or VariableNode); an unnamed one gets a
        fresh name ``v<n>``."""
        node = _node_of(variable)
        name = self._names.get(id(node))
        if name is None:
            name = self.unique_name('v{}'.format(len(self._alive)))
            self.set_name(node, name)
        return name

    def set_name(self, variable, name, pinned=False):
        """Names a Variable (or VariableNode)."""
        node = _node_of(variable)
        if id(node) not in self._names:
            self._alive.append(node)
        self._names[id(node)] = name
        self._used.add(name)

    def is_used(self, name):
        """Whether ``name`` names something already."""
        return name in self._used

    def reserve(self, name):
        """Takes ``name`` for a value named later (a ValueError if it is
        taken)."""
        if name in self._used:
            raise ValueError(
                'ONNX export: the name {!r} is given twice'.format(name))
        self._used.add(name)

    def unique_name(self, base):
        """``base``, or ``base_<n>`` when ``base`` is taken."""
        name, n = base, 1
        while name in self._used:
            name = '{}_{}'.format(base, n)
            n += 1
        self._used.add(name)
        return name

    def _prefixed(self, name, kind, use_original_name):
        func_name = onnx_helper.get_func_name()
        if use_original_name or func_name is None:
            return self.unique_name(name)
        return self.unique_name('{}_{}_{}'.format(func_name, kind, name))

    def add_param(self, array, name, use_original_name=False):
        """Adds ``array`` as an initializer named ``<function>_param_<name>``
        (``name`` itself with ``use_original_name``); returns the name."""
        name = self._prefixed(name, 'param', use_original_name)
        self.parameters.append(numpy_helper.from_array(onnx_helper.to_numpy(array), name))
        return name

    def add_const(self, array, name):
        """Adds a ``Constant`` node of ``array`` named
        ``<function>_const_<name>``; returns the name."""
        name = self._prefixed(name, 'const', False)
        self.nodes.append(onnx_helper.make_constant(onnx_helper.to_numpy(array), name))
        return name
