"""ParameterStatistics: reports statistics of the parameters and their
gradients."""

import numpy

from chainer import backend
from chainer import reporter
from chainer.training import extension
from chainer.training import trigger as trigger_module

# The normal distribution's 0, +-1, +-2, +-3 sigma points, in percent.
_SIGMAS = (0.13, 2.28, 15.87, 50, 84.13, 97.72, 99.87)


def _xp(x):
    return backend.get_array_module(x)


# Module-level, as in Chainer: their reprs (``<function <lambda> ...>``)
# show in parameterized test names.
_default_statistics = {
    'mean': lambda x: _xp(x).mean(x),
    'std': lambda x: _xp(x).std(x),
    'min': lambda x: _xp(x).min(x),
    'max': lambda x: _xp(x).max(x),
    'zeros': lambda x: _xp(x).count_nonzero(x == 0),
    'percentile': lambda x: _xp(x).percentile(x, _SIGMAS),
}


class ParameterStatistics(extension.Extension):
    """Reports statistics of the parameters (``data``) and gradients
    (``grad``) of links, under keys
    ``'<prefix>/<link name><param path>/<data|grad>/<statistic>'``
    (e.g. ``'main/predictor/l1/W/data/mean'``).

    The statistics are collected at every iteration and their means are
    reported each time ``trigger`` fires. A statistic that returns several
    values reports them under ``.../<statistic>/0``, ``/1``...

    Args:
        links (Link or list of Links): The links to watch.
        statistics (dict or 'default'): Name to function of a flat array;
            ``'default'`` is mean, std, min, max, zeros (the count of zeros)
            and percentile (at the sigma points of the normal distribution).
        report_params (bool): Report statistics of the parameters.
        report_grads (bool): Report statistics of the gradients.
        prefix (str): Prefix of the keys.
        trigger: When to report: ``(period, unit)`` or a trigger.
        skip_nan_params (bool): Report NaN for an array that holds a NaN
            instead of computing its statistics.
    """

    default_name = 'parameter_statistics'
    priority = extension.PRIORITY_WRITER
    report_key_template = \
        '{prefix}{link_name}{param_name}/{attr_name}/{function_name}'
    default_statistics = _default_statistics

    def __init__(self, links, statistics='default', report_params=True,
                 report_grads=True, prefix=None, trigger=(1, 'epoch'),
                 skip_nan_params=False):
        if not isinstance(links, (list, tuple)):
            links = links,
        self._links = links
        if statistics is None:
            statistics = {}
        elif statistics == 'default':
            statistics = self.default_statistics
        self._statistics = dict(statistics)
        self._attrs = [a for a, on in (('data', report_params),
                                       ('grad', report_grads)) if on]
        self._prefix = prefix
        self._trigger = trigger_module.get_trigger(trigger)
        self._summary = reporter.DictSummary()
        self._skip_nan_params = skip_nan_params

    def __call__(self, trainer):
        stats = {}
        prefix = self._prefix + '/' if self._prefix else ''
        for link in self._links:
            link_name = getattr(link, 'name', 'None')
            for param_name, param in link.namedparams():
                for attr_name in self._attrs:
                    array = param.array if attr_name == 'data' else param.grad
                    if array is None:
                        continue
                    flat = array.ravel()
                    has_nan = self._skip_nan_params and \
                        bool(_xp(flat).isnan(flat).any())
                    for fname, func in self._statistics.items():
                        value = numpy.nan if has_nan else func(flat)
                        key = self.report_key_template.format(
                            prefix=prefix, link_name=link_name,
                            param_name=param_name, attr_name=attr_name,
                            function_name=fname)
                        if getattr(value, 'size', 1) > 1:
                            for i, v in enumerate(value):
                                stats['{}/{}'.format(key, i)] = v
                        else:
                            stats[key] = value
        self._summary.add(stats)
        if self._trigger(trainer):
            reporter.report(self._summary.compute_mean())
            self._summary = reporter.DictSummary()

    def register_statistics(self, name, function):
        """Adds a statistic ``function(flat_array)`` called ``name``."""
        self._statistics[name] = function
