"""Matplotlib helpers of the plotting extensions (Agg backend, no pyplot
state, atomic writes)."""

import os
import warnings

from chainer.utils._atomic import atomic_path


def available():
    """Whether matplotlib can be imported."""
    try:
        import matplotlib  # NOQA
    except ImportError:
        return False
    return True


def warn_unavailable():
    warnings.warn(
        'matplotlib is not installed on your environment, so nothing will '
        'be plotted at this time. Please install matplotlib to plot '
        'figures.\n\n  $ pip install matplotlib\n')


def new_figure(figsize=None):
    """A Figure drawn by the Agg canvas (no GUI, no global pyplot
    figure)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    fig = Figure(figsize=figsize)
    FigureCanvasAgg(fig)
    return fig


def save(fig, path, **kwargs):
    """Saves the figure through a temporary file renamed into place."""
    ext = os.path.splitext(path)[1]
    os.makedirs(os.path.dirname(path) or '.', exist_ok=True)
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format=ext[1:] or 'png', **kwargs)
