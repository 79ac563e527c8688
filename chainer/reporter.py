"""Reporting: how a model's forward pass hands values (loss, accuracy) to
the training loop.

A :class:`Reporter` holds the current *observation* (a dict). Code called
inside ``with reporter.scope(observation):`` calls :func:`report`, which
writes into it, prefixing each key with the name of the registered
observer (``'main/loss'``). :class:`Summary` and :class:`DictSummary`
average the observed values over iterations.
"""

import collections
import contextlib
import json
import threading
import warnings

import numpy

from chainer import backend
from chainer import configuration
from chainer import serializer as serializer_module
from chainer import variable

_local = threading.local()


def _reporters():
    try:
        return _local.reporters
    except AttributeError:
        _local.reporters = []
        return _local.reporters


def _unchained(value):
    # A reported Variable is replaced by a graph-free copy sharing its
    # array, so the observation does not keep the graph alive.
    if isinstance(value, variable.Variable):
        return variable.Variable(value.array, name=value.name,
                                 requires_grad=value.requires_grad)
    return value


class Reporter:
    """Collects observed values into the current observation.

    Register objects with :meth:`add_observer` (a link named ``'main'``,
    say); then ``report({'loss': loss}, link)`` stores
    ``observation['main/loss']``. A reporter is made current with a
    ``with`` block (a thread-local stack); :func:`report` writes to the
    current one.

    Attributes:
        observation (dict): The dict that :meth:`report` writes to.

    >>> from chainer.reporter import Reporter, report
    >>> reporter = Reporter()
    >>> observer = object()
    >>> reporter.add_observer('main', observer)
    >>> observation = {}
    >>> with reporter.scope(observation):
    ...     report({'loss': 0.5}, observer)
    >>> observation
    {'main/loss': 0.5}
    """

    def __init__(self):
        self._observer_names = {}
        self.observation = {}

    def __enter__(self):
        # ``with reporter as r:`` gives None, as in Chainer
        _reporters().append(self)

    def __exit__(self, exc_type, exc_value, traceback):
        _reporters().pop()

    @contextlib.contextmanager
    def scope(self, observation):
        """Makes this reporter current and writes to ``observation``
        within a ``with`` block."""
        old = self.observation
        self.observation = observation
        self.__enter__()
        try:
            yield
        finally:
            self.__exit__(None, None, None)
            self.observation = old

    def add_observer(self, name, observer):
        """Registers ``observer`` under ``name`` (the key prefix)."""
        self._observer_names[id(observer)] = name

    def add_observers(self, prefix, observers):
        """Registers each ``(name, observer)`` pair (e.g. from
        ``link.namedlinks()``) under ``prefix + name``."""
        for name, observer in observers:
            self._observer_names[id(observer)] = prefix + name

    def report(self, values, observer=None):
        """Stores ``values`` (a dict) in the observation.

        With an ``observer``, each key becomes ``'<observer name>/<key>'``;
        the observer must be registered (KeyError otherwise). Variables are
        stored without their graph unless ``config.keep_graph_on_report``.
        """
        if not configuration.config.keep_graph_on_report:
            values = {k: _unchained(v) for k, v in values.items()}
        if observer is None:
            self.observation.update(values)
            return
        try:
            name = self._observer_names[id(observer)]
        except KeyError:
            raise KeyError('Given observer is not registered to the '
                           'reporter.') from None
        for key, value in values.items():
            self.observation['{}/{}'.format(name, key)] = value


def get_current_reporter():
    """Returns the current reporter (IndexError if there is none)."""
    return _reporters()[-1]


def report(values, observer=None):
    """Reports ``values`` to the current reporter; does nothing when no
    reporter is current. See :meth:`Reporter.report`."""
    reporters = _reporters()
    if reporters:
        reporters[-1].report(values, observer)


@contextlib.contextmanager
def report_scope(observation):
    """Makes the current reporter write to ``observation`` within a
    ``with`` block."""
    with get_current_reporter().scope(observation):
        yield


def _as_value(x):
    return x.array if isinstance(x, variable.Variable) else x


class Summary:
    """The running (weighted) mean and standard deviation of a scalar.

    Values may be Python or NumPy scalars or 0-d arrays (NumPy or CuPy);
    sums are kept on the values' device.  A Variable is summed as one, as
    Chainer sums it (its mean is a Variable).
    """

    def __init__(self):
        # Python floats, as Chainer's: the means of Python numbers are
        # floats; NumPy float values are summed in float64 (add makes them
        # so, as NumPy 1 did for Chainer).
        self._x = 0.
        self._x2 = 0.
        self._n = 0

    def add(self, value, weight=1):
        """Adds ``value`` with the given ``weight``."""
        weight = _as_value(weight)
        if type(weight) in (int, float) and \
                isinstance(value, (numpy.ndarray, numpy.generic)) and \
                value.dtype.kind == 'f' and value.ndim == 0:
            # NumPy 1 (Chainer's) made a Python number times a NumPy scalar
            # float64, so the squares of float16/float32 values were exact
            value = numpy.float64(value)
        with backend.get_device_from_array(value).create_context():
            self._x += weight * value
            self._x2 += weight * value * value
            self._n += weight

    def compute_mean(self):
        """Returns the weighted mean."""
        x, n = self._x, self._n
        if n == 0:
            raise ZeroDivisionError('float division by zero')
        with backend.get_device_from_array(x).create_context():
            return x / n

    def make_statistics(self):
        """Returns ``(mean, std)``."""
        x, n = self._x, self._n
        if n == 0:
            raise ZeroDivisionError('float division by zero')
        xp = backend.get_array_module(x)
        with backend.get_device_from_array(x).create_context():
            mean = x / n
            var = self._x2 / n - mean * mean
            return mean, xp.sqrt(var)

    def serialize(self, serializer):
        try:
            self._x = serializer('_x', self._x)
            self._x2 = serializer('_x2', self._x2)
            n = self._n
            if isinstance(serializer, serializer_module.Deserializer):
                n = float(n)  # the stored count may be a float (weights)
            self._n = serializer('_n', n)
        except KeyError:
            warnings.warn('The previous statistics are not saved.')


def _is_scalar(value):
    return numpy.isscalar(value) or getattr(value, 'ndim', -1) == 0


class DictSummary:
    """A :class:`Summary` per key of the dicts it is given.

    Non-scalar values are ignored. A value may be a ``(value, weight)``
    pair.
    """

    def __init__(self):
        self._summaries = collections.defaultdict(Summary)

    def add(self, d):
        """Adds each scalar entry of the dict ``d``."""
        summaries = self._summaries
        for key, value in d.items():
            weight = 1
            if isinstance(value, tuple):
                value, weight = value
                weight = _as_value(weight)
                if not _is_scalar(weight):
                    raise ValueError(
                        'Given weight to {} was not scalar.'.format(key))
            value = _as_value(value)
            if _is_scalar(value):
                summaries[key].add(value, weight=weight)

    def compute_mean(self):
        """Returns a dict of the means."""
        return {key: s.compute_mean() for key, s in self._summaries.items()}

    def make_statistics(self):
        """Returns a dict with ``key`` (mean) and ``key + '.std'``."""
        stats = {}
        for key, s in self._summaries.items():
            mean, std = s.make_statistics()
            stats[key] = mean
            stats[key + '.std'] = std
        return stats

    def serialize(self, serializer):
        if isinstance(serializer, serializer_module.Serializer):
            names = list(self._summaries)
            serializer('_names', json.dumps(names))
            for i, name in enumerate(names):
                self._summaries[name].serialize(
                    serializer['_summaries'][str(i)])
            return
        dry_run = getattr(serializer, 'dry_run', False)
        try:
            names = serializer('_names', '')
        except KeyError:
            # an old snapshot: the statistics start afresh
            if not dry_run:
                warnings.warn('The names of statistics are not saved.')
                self._summaries = collections.defaultdict(Summary)
            return
        if dry_run:
            return  # a staged load's first pass returns '' for strings
        names = json.loads(names)
        summaries = collections.defaultdict(Summary)
        for i, name in enumerate(names):
            summaries[name].serialize(serializer['_summaries'][str(i)])
        self._summaries = summaries
