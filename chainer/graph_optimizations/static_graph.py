"""``@static_graph``: record a Chain's forward once, then replay it.

The first call of the decorated forward (per chain and per key) runs
define-by-run and records the ops it applies (see ``_schedule``); later
calls with the same key replay them on the new arrays, with no Variable,
FunctionNode or graph built for the ops inside and no type checks, and the
whole forward stands in the graph as one ``StaticScheduleFunction``.

The key is made of: the shapes, dtypes, devices and ``requires_grad`` of the
array and Variable arguments; the values of the other arguments (None,
bool, int, float, complex, str, bytes, NumPy scalars and dtypes, and tuples
of them; anything else makes the call run define-by-run); the configuration
entries that can change what the forward does (``train``,
``enable_backprop``, ``type_check``, ``dtype``, the cuDNN and iDeep
switches, ...); and the state of the chain and its links: which Parameter
objects they hold with the shapes, dtypes and devices of their arrays,
their persistent values (arrays by identity) and their other array
attributes (by identity).  The first two calls with a new key run
define-by-run and record; the schedule is replayed from the third call on
if both recordings agree (the same ops on the same slots, equal constants
and op settings), and the key runs define-by-run for good if they do not.
Older keys are kept (up to ``max_cache_size``, or only the last one with
``minimize_cache_size=True``).

What is replayed is what the ops did: Python code of the forward (creating
arrays, reading ``.array``, branching on values, ``self.n += 1``) runs only
when recording, and its results are frozen, as with Chainer's static graph.
The second recording catches such values when they differ between the two
calls, not when they happen to be equal: a value computed in Python from
the parameters (say ``float(self.W.array.max())``) and recorded twice with
the same parameters stays frozen after they change.
Parameters are read through their Parameter objects at each call, so
optimizers (in place or not), serializers and ``copyparams`` are seen;
persistent arrays are used by identity, so in-place updates (batch
normalization's running statistics, updated by its op) are seen too.
The call runs define-by-run when ``chainer.config.use_static_graph`` is
False (and then no attribute is set on the chain), while function hooks or
link hooks are active (a link hook such as spectral normalization is Python
code around a link) or ``chainer.config.debug`` is on, in test mode with
``force_test_define_by_run=True``, and for a forward the recording found
unsafe to replay: one that returns something other than a Variable or a
tuple or list of Variables, uses a Variable requiring grad that is neither
an argument nor a parameter of the chain, reports values
(``chainer.report``: a replay would not report them), or runs a backward
inside.

Whatever the verbosity, the two lines Chainer 7.8.1 prints when it builds
a schedule are printed where it would print them (``_ChainerBook``).

Where every op of a schedule has an array kernel (``_compiled``: matrix
products, tanh, sums, scalar affine steps), the replay is generated
straight-line Python, forward and backward, costing about what the same
NumPy calls written by hand cost, with the same bits as the ops.

A replayed forward is one ``StaticScheduleFunction`` node in the graph.
Its backward runs on arrays; for double backprop (and under function hooks
or ``debug`` in backward) it links the ops it ran into a graph first, so
that second-order gradients and hooks are those of define-by-run.
"""

import functools
import operator
import sys
import weakref

import numpy

from chainer import backend
from chainer import link_hook
from chainer import reporter
from chainer.configuration import _local_store
from chainer.link import Link
from chainer.graph_optimizations import static_graph_utilities
from chainer.variable import Variable, _new_variable

_KNOWN = ('force_test_define_by_run', 'minimize_cache_size',
          'verbosity_level', 'max_cache_size')

_CONFIG_KEYS = ('train', 'enable_backprop', 'type_check', 'dtype',
                'use_cudnn', 'use_cudnn_tensor_core', 'cudnn_deterministic',
                'cudnn_fast_batch_normalization', 'autotune', 'use_ideep',
                'compute_mode', 'in_recomputing', '_will_recompute',
                'warn_nondeterministic', 'lazy_grad_sum')
_config_key = operator.attrgetter(*_CONFIG_KEYS)

_VALUES = frozenset([type(None), bool, int, float, complex, str, bytes,
                     numpy.dtype])
_ndarray = numpy.ndarray


def _none():
    return None


class _Dropped:
    """What a schedule is to a copy or a pickle of its chain: None (the
    copy records anew)."""

    def __reduce__(self):
        return (_none, ())

    def __deepcopy__(self, memo):
        return None


class _Dynamic(_Dropped):
    """A key whose forward always runs define-by-run, and why."""

    def __init__(self, reason):
        self.reason = reason


def _value_key(v):
    t = type(v)
    if t in _VALUES or isinstance(v, numpy.generic):
        return (t, v)
    if t is tuple:
        inner = tuple([_value_key(x) for x in v])
        if None not in inner:
            return (t, inner)
    return None


def _array_key(a):
    t = type(a)
    if t is _ndarray:
        return (t, a.shape, a.dtype)
    dev = getattr(getattr(a, 'device', None), 'id', None)
    return (t, a.shape, a.dtype, dev)


def _args_key(args, arrays):
    """The key of the arguments (None if one cannot be keyed); the array
    and Variable arguments are appended to ``arrays``."""
    key = []
    for a in args:
        if isinstance(a, Variable):
            d = a._data
            if d is None:
                return None
            key.append((_array_key(d), a._requires_grad))
            arrays.append(a)
        elif type(a) is _ndarray or isinstance(
                a, backend._get_array_types()):
            key.append(_array_key(a))
            arrays.append(a)
        else:
            k = _value_key(a)
            if k is None:
                return None
            key.append(k)
    return tuple(key)


def _state_key(chain, keep=None):
    """The chain's state, as a key: its Parameter objects with the shapes,
    dtypes and devices of their arrays, its persistent values, and its other
    array attributes by identity (an array the forward used is replayed as
    the same object).  The objects it names by identity are appended to
    ``keep`` if given (to be kept alive with a schedule recorded now)."""
    key = []
    array_types = backend._get_array_types()
    links = [chain]
    for link in links:  # (the links, without building their paths)
        links.extend(link.children())
        if link._local_link_hooks:
            return None  # Python code around a link: define-by-run
        params = link._params
        persistent = link._persistent
        for name, v in link.__dict__.items():
            if name in params:
                if keep is not None:
                    keep.append(v)
                a = v._data
                if a is None:
                    key.append((id(v), None))
                elif type(a) is _ndarray:
                    key.append((id(v), a.shape, a.dtype, v._requires_grad))
                else:
                    key.append((id(v), _array_key(a), v._requires_grad))
            elif name in persistent:
                k = _value_key(v)
                if k is None:
                    if keep is not None:
                        keep.append(v)
                    k = id(v)
                key.append(k)
            elif type(v) is _ndarray or isinstance(v, array_types):
                if keep is not None:
                    keep.append(v)
                key.append(id(v))
    return tuple(key)


class StaticScheduleManager:
    """The schedules of a chain's static forward(s), by key."""

    def __init__(self, chain=None):
        self._owner = None if chain is None else weakref.ref(chain)
        self.schedules = {}
        self.book = _ChainerBook()

    def __reduce__(self):
        return (StaticScheduleManager, ())

    def __deepcopy__(self, memo):
        return StaticScheduleManager()

    def __repr__(self):
        return '<StaticScheduleManager: {} schedule(s)>'.format(
            len(self.schedules))

    def call(self, func, options, chain, args, kwargs):
        if options['force_test_define_by_run'] and not _local_store.train:
            return func(chain, *args, **kwargs)
        entry = self.book.take(args, options['minimize_cache_size'])
        result = self._call(func, options, chain, args, kwargs)
        if not entry.built:
            entry.built = True
            _print('end of build_schedule()')
        return self.book.note(entry, result)

    def _call(self, func, options, chain, args, kwargs):
        store = _local_store
        if store._function_hooks or store.debug:
            return func(chain, *args, **kwargs)
        arrays = []
        key = _args_key(args, arrays)
        if key is not None and kwargs:
            names = sorted(kwargs)
            kw = _args_key([kwargs[n] for n in names], arrays)
            key = None if kw is None else (key, tuple(names), kw)
        if key is None:
            _say(options, 2, chain, 'an argument cannot be keyed: '
                 'define-by-run')
            return func(chain, *args, **kwargs)
        if len(arrays) > 1:  # which arguments are the same array
            ids = [id(a._data if isinstance(a, Variable) else a)
                   for a in arrays]
            if len(set(ids)) != len(ids):
                key = (key, tuple([ids.index(i) for i in ids]))
        state = _state_key(chain)
        if state is None or link_hook._get_link_hooks():
            return func(chain, *args, **kwargs)
        # (whether a reporter is current: reports are seen only then)
        key = (func, key, _config_key(store), state,
               bool(reporter._reporters()))

        sched = self.schedules.get(key)
        if sched is None or (type(sched) is not _Dynamic and
                             not sched.verified):
            keep = []
            _state_key(chain, keep)
            return self._record(func, options, chain, args, kwargs, arrays,
                                key, keep, sched)
        chain.__dict__['static_schedule'] = sched
        if type(sched) is _Dynamic:
            return func(chain, *args, **kwargs)
        return _replay(sched, arrays, store.enable_backprop)

    def _record(self, func, options, chain, args, kwargs, arrays, key, keep,
                first):
        """Runs define-by-run and records.  A new key is recorded twice
        (its first two calls) and replayed only if both recordings agree,
        so that values the forward computed in Python from the data (frozen
        by a replay) are caught."""
        # (imported here: function_node imports this package)
        from chainer.graph_optimizations import _schedule
        rec = _schedule.Recorder()
        utils = static_graph_utilities._state
        outer = getattr(utils, 'recorder', None)
        utils.recorder = rec
        reporters = reporter._reporters()
        observation = reporters[-1].observation if reporters else None
        seen = None if observation is None else \
            {k: id(v) for k, v in observation.items()}
        try:
            with rec:
                result = func(chain, *args, **kwargs)
        finally:
            utils.recorder = outer
        if seen is not None and seen != {
                k: id(v) for k, v in observation.items()}:
            rec.unsafe = 'the forward reports values (chainer.report)'
        params = list(chain.params())
        try:
            sched = _schedule.Schedule(rec, arrays, params, result,
                                       _local_store.enable_backprop)
            sched.keep = keep
            sched.verified = False
            if first is not None:
                why = first.differs_from(sched)
                if why is not None:
                    raise _schedule._Unsafe(
                        '{} changed between two calls'.format(why))
                sched.verified = True
            _say(options, 2, chain, '{} a schedule of {} ops'.format(
                'checked' if first else 'recorded', sched.n_ops))
        except _schedule._Unsafe as e:
            sched = _Dynamic(str(e))
            sched.keep = keep
            _say(options, 2, chain, 'runs define-by-run: {}'.format(e))
        schedules = self.schedules
        limit = 1 if options['minimize_cache_size'] else \
            options['max_cache_size']
        schedules.pop(key, None)
        while schedules and len(schedules) >= limit:
            del schedules[next(iter(schedules))]
        schedules[key] = sched
        chain.__dict__['static_schedule'] = sched
        return result


def _replay(sched, arrays, backprop):
    params = sched.params
    if backprop:
        ys = sched.function_class(sched).apply(
            arrays + params if params else arrays)
        for y, rg in zip(ys, sched.out_requires_grad):
            if not rg:
                y._requires_grad = False
                y._node.requires_grad = False
    else:
        xs = [a._data if isinstance(a, Variable) else a for a in arrays]
        xs.extend([p._data for p in params])
        if sched.compiled is not None:
            outs = sched.compiled.forward(xs)[0]
        else:
            outs, _ = sched.run(xs, False)
        ys = [_new_variable(y, rg)
              for y, rg in zip(outs, sched.out_requires_grad)]
    out_type = sched.out_type
    if out_type is None:
        return ys[0]
    return out_type(ys)


def _print(text):
    sys.stdout.write(text + '\n')


class _Entry:
    """One of the schedules Chainer's static graph would hold: whether
    it has been built, and its backward."""

    __slots__ = ('built', 'backward_built')

    def __init__(self):
        self.built = self.backward_built = False

    def backward(self, book, compute, *args):
        """``compute(*args)``, a backward of this schedule's outputs (which
        ends the book's iteration), with Chainer's lines around the
        first."""
        book.end_forward()
        if self.backward_built:
            return compute(*args)
        _print('Creating new backward schedule...')
        gxs = compute(*args)
        self.backward_built = True
        _print('end of build_schedule()')
        return gxs


class _ChainerBook:
    """The two lines Chainer 7.8.1's static graph prints whatever the
    verbosity: 'end of build_schedule()' when one of its schedules runs
    for the first time, and 'Creating new backward schedule...' (then
    'end of build_schedule()') at its first backward.  Programs print them,
    so they are printed here when Chainer would print them, by its
    bookkeeping: a schedule per key (the shapes and dtypes of the array
    arguments) in test mode or without backprop; in training, a list per
    key from which each call of an iteration takes the next one, given
    back by the first backward after the calls (so two calls before a
    backward build two schedules); all forgotten when ``train`` flips if
    ``minimize_cache_size`` is set."""

    __slots__ = ('scheds', 'in_use', 'forward_over', 'prev_train')

    def __init__(self):
        self.scheds = {}
        self.in_use = {}
        self.forward_over = False
        self.prev_train = None

    def take(self, args, minimize):
        store = _local_store
        self.forward_over = False
        train = store.train
        if minimize and train != self.prev_train:
            self.prev_train = train
            self.scheds.clear()
            self.in_use.clear()
        # (Chainer's key is a string of the shapes and dtypes: as tuples)
        shapes = tuple([(a.shape, a.dtype) for a in _flat_arrays(args)])
        if not train or not store.enable_backprop:
            entries = self.scheds.setdefault((False, shapes), [])
            if not entries:
                entries.append(_Entry())
            return entries[0]
        key = (True, shapes)
        entries = self.scheds.setdefault(key, [])
        i = self.in_use.get(key, 0)
        if i == len(entries):
            entries.append(_Entry())
        self.in_use[key] = i + 1
        return entries[i]

    def end_forward(self):
        if not self.forward_over:
            for key in self.in_use:
                self.in_use[key] = 0
            self.forward_over = True

    def note(self, entry, result):
        """``result`` with its backward telling ``entry`` (and ending the
        book's iteration): a replay's node is told; other outputs go
        through a :class:`_BackwardNote`."""
        if not _local_store.enable_backprop:
            return result
        outs = result if type(result) in (tuple, list) else (result,)
        if not all([isinstance(v, Variable) for v in outs]):
            return result
        # (imported here: function_node imports this package)
        from chainer.graph_optimizations._schedule import (
            StaticScheduleFunction, _BackwardNote)
        creator = outs[0].creator_node if outs else None
        if type(creator) is StaticScheduleFunction:
            creator._entry, creator._book = entry, self
            return result
        # (outputs made by ops: a leaf, an argument say, stays itself)
        grads = [i for i, v in enumerate(outs)
                 if v._requires_grad and v.creator_node is not None]
        if not grads:
            return result
        noted = _BackwardNote(entry, self).apply([outs[i] for i in grads])
        outs = list(outs)
        for i, v in zip(grads, noted):
            outs[i] = v
        if type(result) in (tuple, list):
            return type(result)(outs)
        return outs[0]


def _flat_arrays(args, out=None):
    """The arrays and Variables of ``args``, in tuples and lists too."""
    if out is None:
        out = []
    for a in args:
        if type(a) is _ndarray or isinstance(a, Variable):
            out.append(a)
        elif type(a) in (tuple, list):
            _flat_arrays(a, out)
        elif isinstance(a, backend._get_array_types()):
            out.append(a)
    return out


def _say(options, level, chain, text):
    if options['verbosity_level'] >= level:
        sys.stdout.write('static_graph ({}): {}\n'.format(
            type(chain).__name__, text))


def static_graph(*args, **kwargs):
    """Decorator for a Chain's ``forward`` (or ``__call__``) whose graph is
    the same at every call (usable with or without arguments).

    The first two calls with a given key run define-by-run and record the
    ops; later calls replay them (see the module documentation for the key and
    for what is frozen).  The chain gets the attributes
    ``schedule_manager`` and ``static_schedule`` (the schedule last used).

    Args:
        force_test_define_by_run (bool): Run define-by-run in test mode
            (``chainer.config.train`` False).
        minimize_cache_size (bool): Keep only the last recorded schedule, so
            that a change of key (batch size, train/test) frees the old one.
        verbosity_level (int): At 0 and 1, only the two lines Chainer
            prints at any level ('end of build_schedule()' and 'Creating
            new backward schedule...', see ``_ChainerBook``); from 2, also
            when a schedule is recorded or refused and when a call cannot
            be keyed.
        max_cache_size (int): How many schedules to keep per chain (the
            oldest is dropped first); 16 by default.

    >>> import numpy as np
    >>> import chainer
    >>> import chainer.functions as F
    >>> import chainer.links as L
    >>> class MLP(chainer.Chain):
    ...     def __init__(self):
    ...         super().__init__()
    ...         with self.init_scope():
    ...             self.l1 = L.Linear(3, 2)
    ...     @chainer.static_graph
    ...     def forward(self, x):
    ...         return F.relu(self.l1(x))
    >>> model = MLP()
    >>> x = np.ones((4, 3), np.float32)
    >>> y1 = model(x)  # recorded (and Chainer's message printed)
    end of build_schedule()
    >>> y1.grad = np.ones((4, 2), np.float32)
    >>> y1.backward()
    Creating new backward schedule...
    end of build_schedule()
    >>> y2 = model(x)  # recorded again, and checked against the first
    >>> y3 = model(x)  # replayed
    end of build_schedule()
    >>> y3.creator.label
    'StaticScheduleFunction'
    >>> bool((y1.array == y3.array).all())
    True
    """
    unknown = set(kwargs) - set(_KNOWN)
    if unknown:
        raise TypeError('static_graph got unexpected keyword argument(s): '
                        '{}'.format(', '.join(sorted(unknown))))
    options = {'force_test_define_by_run': False,
               'minimize_cache_size': False, 'verbosity_level': 0,
               'max_cache_size': 16}
    options.update(kwargs)
    if options['max_cache_size'] < 1:
        raise ValueError('static_graph: max_cache_size must be at least 1')

    def wrap(func):
        @functools.wraps(func)
        def wrapped(self, *args, **kwargs):
            if not _local_store.use_static_graph:
                return func(self, *args, **kwargs)
            d = self.__dict__
            manager = d.get('schedule_manager')
            if manager is None or manager._owner is None or \
                    manager._owner() is not self:
                # New, or copied from another chain: start afresh.
                if not isinstance(self, Link):
                    raise TypeError(
                        'static_graph decorates a method of a Chain (or a '
                        'Link), not of a {}'.format(type(self).__name__))
                manager = d['schedule_manager'] = StaticScheduleManager(self)
                d['static_schedule'] = None
            return manager.call(func, options, self, args, kwargs)
        return wrapped

    if len(args) == 1 and not kwargs and callable(args[0]):
        return wrap(args[0])
    if args:
        raise TypeError('static_graph takes keyword arguments only')
    return wrap


# Chainer's names for the manager and the replay node (its code imports
# them from here).
ScheduleManager = StaticScheduleManager


def __getattr__(name):
    if name == 'StaticScheduleFunction':
        # (_schedule imports function_node, which imports this module)
        from chainer.graph_optimizations._schedule import (
            StaticScheduleFunction)
        return StaticScheduleFunction
    raise AttributeError(
        'module {!r} has no attribute {!r}'.format(__name__, name))
