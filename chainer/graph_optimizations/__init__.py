"""Static-graph optimizations.

``@static_graph`` records a Chain's ``forward`` (define-by-run) and replays
the recorded ops on later calls with the same key, without building the
graph op by op; ``@static_code`` marks functions a replay must call again.
"""

# As in Chainer, ``chainer.graph_optimizations.static_graph`` names the module;
# the decorator is ``chainer.static_graph``.
from chainer.graph_optimizations import static_graph  # NOQA
from chainer.graph_optimizations import static_graph_utilities  # NOQA
from chainer.graph_optimizations.static_graph_utilities import static_code  # NOQA
