"""VariableStatisticsPlot: plots the distribution of variables' values and
gradients over training."""

import os

import numpy

from chainer import backend
from chainer.training import extension
from chainer.training import trigger as trigger_module
from chainer.training.extensions import _plot


def _sample(arrays, max_size):
    """The values of ``arrays`` on the CPU, thinned to at most ``max_size``
    evenly spaced elements (no random numbers are drawn, so plotting never
    changes the training's random stream)."""
    flat = numpy.concatenate(
        [backend.CpuDevice().send(a).ravel().astype(numpy.float64)
         for a in arrays]) if arrays else numpy.empty(0)
    if max_size is not None and flat.size > max_size:
        idx = numpy.linspace(0, flat.size - 1, max_size).astype(numpy.int64)
        flat = flat[idx]
    return flat


class Reservoir:
    """A uniform sample of at most ``size`` of the arrays added so far
    (reservoir sampling, drawing from NumPy's global generator), each kept
    with its index.

    Args:
        size (int): The most arrays kept.
        data_shape (tuple): The shape of one array.
        dtype: The dtype they are kept in.
    """

    def __init__(self, size, data_shape, dtype=numpy.float32):
        self.size = size
        self.data = numpy.zeros((size,) + tuple(data_shape), dtype=dtype)
        self.idxs = numpy.zeros((size,), dtype=numpy.int32)
        self.counter = 0

    def add(self, x, idx=None):
        """Offers ``x`` (numbered ``idx``, by default its position)."""
        if idx is None:
            idx = self.counter
        if self.counter < self.size:
            slot = self.counter
        elif numpy.random.random() < self.size / (self.counter + 1):
            slot = numpy.random.randint(self.size)
        else:
            slot = None
        if slot is not None:
            self.data[slot] = x
            self.idxs[slot] = idx
        self.counter += 1

    def get_data(self):
        """``(idxs, data)`` of the kept arrays, in the order of idxs."""
        n = min(self.counter, self.size)
        order = numpy.argsort(self.idxs[:n])
        return self.idxs[:n][order], self.data[:n][order]


class Statistician:
    """Computes the mean, the standard deviation and percentiles of an array
    along axes, as a dict with the keys ``'mean'``, ``'std'`` and
    ``'percentile'`` (each only when asked for).

    Args:
        collect_mean (bool): Compute the mean.
        collect_std (bool): Compute the standard deviation.
        percentile_sigmas (tuple): The percentiles (in percent); empty or
            None for none.
    """

    def __init__(self, collect_mean, collect_std, percentile_sigmas):
        self.collect_mean = collect_mean
        self.collect_std = collect_std
        self.percentile_sigmas = percentile_sigmas

    def __call__(self, x, axis=0, dtype=None, xp=None):
        if axis is None:
            axis = tuple(range(x.ndim))
        elif not isinstance(axis, (tuple, list)):
            axis = (axis,)
        return self.collect(x, tuple(axis))

    def collect(self, x, axis):
        out = {}
        if self.collect_mean:
            out['mean'] = x.mean(axis=axis)
        if self.collect_std:
            out['std'] = x.std(axis=axis)
        if self.percentile_sigmas:
            xp = backend.get_array_module(x)
            out['percentile'] = xp.percentile(
                x, self.percentile_sigmas, axis=axis)
        return out


class VariableStatisticsPlot(extension.Extension):
    """Plots, for the values and the gradients of ``targets``, the
    percentiles (as bands), the mean and the mean +- std over training, and
    saves the figure in the trainer's output folder.

    It needs matplotlib (``pip install matplotlib``); without it, it warns
    once and does nothing.

    Args:
        targets (Variable, Link or list of them): What to watch (the
            parameters of a Link).
        max_sample_size (int): The most values used per statistic.
        report_data (bool): Plot the values.
        report_grad (bool): Plot the gradients.
        plot_mean (bool): Plot the mean.
        plot_std (bool): Plot the mean +- std.
        percentile_sigmas (tuple): The percentiles to plot (in percent).
        trigger: When to add a point and redraw: ``(period, unit)``.
        filename (str): The file name (``'statistics.png'``; ``file_name``
            is its old name).
        figsize (tuple): The figure size (inches).
        marker (str): The marker of the points.
        grid (bool): Draw a grid.
    """

    def __init__(self, targets, max_sample_size=1000, report_data=True,
                 report_grad=True, plot_mean=True, plot_std=True,
                 percentile_sigmas=(0, 0.13, 2.28, 15.87, 50, 84.13, 97.72,
                                    99.87, 100),
                 trigger=(1, 'epoch'), filename=None, figsize=None,
                 marker=None, grid=True, **kwargs):
        file_name = kwargs.pop('file_name', 'statistics.png')
        if kwargs:
            raise TypeError(
                'VariableStatisticsPlot() got unexpected keyword '
                'argument(s) {}'.format(', '.join(repr(k) for k in kwargs)))
        if not isinstance(targets, (list, tuple)):
            targets = [targets]
        self._targets = targets
        self._max_sample_size = max_sample_size
        self._keys = [k for k, on in (('data', report_data),
                                      ('grad', report_grad)) if on]
        if not self._keys:
            raise ValueError('Either report_data or report_grad must be '
                             'true.')
        self._plot_mean = plot_mean
        self._plot_std = plot_std
        self._percentile_sigmas = tuple(percentile_sigmas)
        self._trigger = trigger_module.get_trigger(trigger)
        self._file_name = file_name if filename is None else filename
        self._figsize = figsize
        self._marker = marker
        self._grid = grid
        self._xs = []
        self._stats = {k: [] for k in self._keys}
        if not _plot.available():
            _plot.warn_unavailable()

    def _variables(self):
        for t in self._targets:
            if hasattr(t, 'params'):
                yield from t.params()
            else:
                yield t

    def _statistics(self, key):
        arrays = []
        for v in self._variables():
            a = v.array if key == 'data' else v.grad
            if a is not None:
                arrays.append(a)
        x = _sample(arrays, self._max_sample_size)
        n = len(self._percentile_sigmas)
        if x.size == 0:
            return numpy.full(n + 2, numpy.nan)
        return numpy.concatenate([
            numpy.percentile(x, self._percentile_sigmas),
            [x.mean(), x.std()]])

    def __call__(self, trainer):
        if not _plot.available():
            return
        if not self._trigger(trainer):
            return
        self._xs.append(trainer.updater.iteration)
        for key in self._keys:
            self._stats[key].append(self._statistics(key))

        fig = _plot.new_figure(self._figsize)
        n = len(self._percentile_sigmas)
        xs = numpy.asarray(self._xs)
        for i, key in enumerate(self._keys):
            ax = fig.add_subplot(1, len(self._keys), i + 1)
            stats = numpy.asarray(self._stats[key])
            for j in range(n // 2):  # bands between symmetric percentiles
                ax.fill_between(xs, stats[:, j], stats[:, n - 1 - j],
                                color='C0', alpha=0.15 + 0.1 * j,
                                linewidth=0)
            if n % 2:
                ax.plot(xs, stats[:, n // 2], color='C0', marker=self._marker,
                        label='median')
            if self._plot_mean:
                ax.plot(xs, stats[:, n], color='C1', marker=self._marker,
                        label='mean')
            if self._plot_std:
                for sign in (1, -1):
                    ax.plot(xs, stats[:, n] + sign * stats[:, n + 1],
                            color='C2', linestyle='--', marker=self._marker,
                            label='mean +- std' if sign > 0 else None)
            ax.set_title(key)
            ax.set_xlabel('iteration')
            if self._grid:
                ax.grid()
            ax.legend(loc='best')
        fig.tight_layout()
        _plot.save(fig, os.path.join(trainer.out, self._file_name))
