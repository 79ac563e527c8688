"""PlotReport: plots reported values against iterations or epochs."""

import json
import os

from chainer import reporter
from chainer import serializer as serializer_module
from chainer.training import extension
from chainer.training import trigger as trigger_module
from chainer.training.extensions import _plot
from chainer.utils import argument


class PlotReport(extension.Extension):
    """Plots the means of observation keys over each interval and saves the
    figure (PNG by default) in the trainer's output folder.

    It needs matplotlib (``pip install matplotlib``); without it, it warns
    once and does nothing. It draws with the Agg backend and never touches
    pyplot's global state.

    Args:
        y_keys (str or list of str): The observation keys to plot.
        x_key (str): ``'iteration'`` or ``'epoch'``.
        trigger: When to add a point and redraw: ``(period, unit)``.
        postprocess (callable): ``postprocess(figure, axes, summary)`` is
            called before the figure is saved.
        filename (str): The file name (``'plot.png'``; ``file_name`` is its
            old name); the extension picks the image format.
        marker (str): The marker of the points (``'x'``), or None.
        grid (bool): Draw a grid.
    """

    def __init__(self, y_keys, x_key='iteration', trigger=(1, 'epoch'),
                 postprocess=None, filename=None, marker='x', grid=True,
                 **kwargs):
        file_name = kwargs.pop('file_name', 'plot.png')
        if kwargs:
            # Chainer's text (its parse_kwargs names __init__)
            raise argument.unexpected_error('__init__', kwargs)
        if isinstance(y_keys, str):
            y_keys = y_keys,
        self._x_key = x_key
        self._y_keys = y_keys
        self._trigger = trigger_module.get_trigger(trigger)
        self._file_name = file_name if filename is None else filename
        self._marker = marker
        self._grid = grid
        self._postprocess = postprocess
        self._summary = reporter.DictSummary()
        self._data = {k: [] for k in y_keys}
        if not _plot.available():
            _plot.warn_unavailable()

    @staticmethod
    def available():
        """Whether matplotlib is installed."""
        return _plot.available()

    def __call__(self, trainer):
        if not _plot.available():
            return
        observation = trainer.observation
        self._summary.add({k: observation[k] for k in self._y_keys
                           if k in observation})
        # a call before training (call_before_training=True) writes its
        # own epoch-0 entry, and leaves the trigger's position alone
        if not (getattr(trainer, 'is_before_training', False)
                or self._trigger(trainer)):
            return
        stats = {k: float(v)
                 for k, v in self._summary.compute_mean().items()}
        updater = trainer.updater
        stats['epoch'] = updater.epoch
        stats['iteration'] = updater.iteration
        x = stats[self._x_key]
        for k in self._y_keys:
            if k in stats:
                self._data[k].append((x, stats[k]))

        fig = _plot.new_figure()
        ax = fig.add_subplot(111)
        ax.set_xlabel(self._x_key)
        if self._grid:
            ax.grid()
        for k in self._y_keys:
            points = self._data[k]
            if points:
                xs, ys = zip(*points)
                ax.plot(xs, ys, marker=self._marker, label=k)
        if ax.has_data():
            if self._postprocess is not None:
                self._postprocess(fig, ax, self._summary)
            legend = ax.legend(bbox_to_anchor=(1.05, 1), loc=2,
                               borderaxespad=0.)
            _plot.save(fig, os.path.join(trainer.out, self._file_name),
                       bbox_extra_artists=(legend,), bbox_inches='tight')
        self._summary = reporter.DictSummary()

    def serialize(self, serializer):
        key = '_plot_{}'.format(self._file_name)
        if isinstance(serializer, serializer_module.Serializer):
            serializer(key, json.dumps(self._data))
        else:
            data = json.loads(serializer(key, ''))
            self._data = {k: [tuple(p) for p in v] for k, v in data.items()}
