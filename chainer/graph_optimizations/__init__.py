"""Static-graph optimizations.

Chainer's experimental ``static_graph`` traced a Chain's ``forward`` once
and replayed the schedule.  chainer-ng runs define-by-run every time (its
per-op overhead is low), so the decorators keep the API and the semantics
without the trace.
"""

# As in Chainer, ``chainer.graph_optimizations.static_graph`` names the module;
# the decorator is ``chainer.static_graph``.
from chainer.graph_optimizations import static_graph  # NOQA
from chainer.graph_optimizations import static_graph_utilities  # NOQA
from chainer.graph_optimizations.static_graph_utilities import static_code  # NOQA
