"""DumpGraph: writes the computational graph of a reported variable."""

import os
import subprocess

from chainer import computational_graph
from chainer import configuration
from chainer import variable
from chainer.training import extension
from chainer.utils import argument
from chainer.training.extensions import log_report


def is_return_code_zero(args):
    """Whether the command ``args`` (a list of str) runs and exits with 0;
    its output is discarded."""
    try:
        subprocess.run(args, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=True)
    except (subprocess.CalledProcessError, OSError):
        return False
    return True


def is_graphviz_available():
    """Whether Graphviz's ``dot`` command is available."""
    return is_return_code_zero(['dot', '-V'])


class DumpGraph(extension.Extension):
    """Writes the graph that computed the reported variable ``root_name``
    (e.g. ``'main/loss'``) as a Graphviz dot file in the trainer's output
    folder, once, at the first iteration.

    While it waits for that iteration it turns on
    ``config.keep_graph_on_report`` (so the reported variable still has its
    graph); it restores the setting afterwards. When Graphviz's ``dot``
    command is available, it also renders the graph as a PNG image of the
    same name (``cg.png``).

    Args:
        root_name (str): The observation key of the output variable.
        filename (str): The file name (``'cg.dot'``; ``out_name`` is its old
            name).
        variable_style (dict): Dot attributes of the variable nodes
            (Chainer's default style when None).
        function_style (dict): Dot attributes of the function nodes.
    """

    default_name = 'dump_graph'

    def __init__(self, root_name, filename=None, variable_style=None,
                 function_style=None, **kwargs):
        out_name = kwargs.pop('out_name', 'cg.dot')
        if kwargs:
            # Chainer's text (its parse_kwargs names __init__)
            raise argument.unexpected_error('__init__', kwargs)
        self._root_name = root_name
        self._filename = out_name if filename is None else filename
        self._variable_style = 'default' if variable_style is None \
            else variable_style
        self._function_style = 'default' if function_style is None \
            else function_style
        self._original_flag = None
        self._flag_called = False

    def initialize(self, trainer):
        if not self._flag_called:
            self._original_flag = configuration.config.keep_graph_on_report
            configuration.config.keep_graph_on_report = True

    def trigger(self, trainer):
        if self._flag_called:
            return False
        self._flag_called = True
        return True

    def __call__(self, trainer):
        try:
            var = trainer.observation[self._root_name]
            if not isinstance(var, variable.Variable):
                raise TypeError('root value is not a Variable')
            cg = computational_graph.build_computational_graph(
                [var], variable_style=self._variable_style,
                function_style=self._function_style).dump()
            os.makedirs(trainer.out, exist_ok=True)
            filename = os.path.join(trainer.out, self._filename)
            log_report._write_atomically(filename, lambda f: f.write(cg))
            if is_graphviz_available():
                image = os.path.join(trainer.out, os.path.splitext(
                    self._filename)[0] + '.png')
                subprocess.check_call(['dot', '-Tpng', filename, '-o', image])
        finally:
            configuration.config.keep_graph_on_report = self._original_flag

    def finalize(self):
        if not self._flag_called and self._original_flag is not None:
            configuration.config.keep_graph_on_report = self._original_flag

    def serialize(self, serializer):
        flag = serializer('_original_flag', self._original_flag)
        self._original_flag = None if flag is None else bool(flag)
        self._flag_called = bool(serializer('_flag_called',
                                            self._flag_called))
