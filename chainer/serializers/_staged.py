"""Loading in two passes, so that a failed load changes nothing.

Pass one reads every value the object asks for, keeps it in a staging dict,
and checks that it fits (key present, dtype castable, shape broadcastable),
changing nothing. Only when all of it fits does pass two assign, from the
staged values, so a missing key, a bad shape or a corrupt file leaves the
target exactly as it was.

A reader checks the shape and dtype that the file declares for an entry
against the target before it reads the data (:func:`check_declared`), so a
small file declaring a huge array is refused without reading it.
"""

import math
import numbers

import numpy

from chainer import backend
from chainer import serializer as serializer_module
from chainer import variable

_NONE = object()  # a stored None (Chainer writes None as an object array)


class _Staging:
    """State shared by a deserializer and its children."""

    def __init__(self):
        self.cache = None
        self.dry_run = False


def _name_matcher(ignore_names):
    """One predicate on keys from a name, or a list of names and
    predicates."""
    if isinstance(ignore_names, str):
        ignore_names = [ignore_names]
    names = set()
    predicates = []
    for item in ignore_names:
        if isinstance(item, str):
            names.add(item)
        elif callable(item):
            predicates.append(item)
        else:
            raise ValueError('ignore_names needs to be a callable, string or '
                             'list of them.')
    if not predicates:
        return frozenset(names).__contains__
    return lambda key: key in names or any(p(key) for p in predicates)


class StagedDeserializer(serializer_module.Deserializer):
    """A deserializer whose ``load`` is all-or-nothing.

    Subclasses implement ``_read(key, value)``, returning a NumPy array or
    ``_NONE``, and raising KeyError when the key is absent; ``value`` is the
    target, for :func:`check_declared`.

    Within :meth:`load`, a stored None (how Chainer writes an absent value)
    goes only into a target that is None (an unset persistent value, an
    uninitialized parameter): into an array or a scalar it is a ValueError,
    instead of a None that the object would take in place of its state.
    Called directly, outside :meth:`load`, the deserializer returns None for
    it whatever the target, as Chainer's does.
    """

    _staging = None

    def __init__(self, path='', strict=True, ignore_names=None,
                 staging=None):
        self.path = path
        self.strict = strict
        if ignore_names is not None and not callable(ignore_names):
            ignore_names = _name_matcher(ignore_names)
        self.ignore_names = ignore_names
        self._staging = staging if staging is not None else _Staging()

    @property
    def dry_run(self):
        return self._staging.dry_run

    def _source(self):
        return type(self).__name__

    def _missing_key_error(self, key):
        return KeyError('{}: {!r} is not in the file (strict=True); '
                        'use strict=False or ignore_names to skip it'.format(
                            self._source(), key))

    def load(self, obj):
        """Loads ``obj``: reads and checks everything, then assigns."""
        staging = self._staging
        staging.cache = {}
        staging.dry_run = True
        try:
            obj.serialize(self)
            staging.dry_run = False
            obj.serialize(self)
        finally:
            staging.dry_run = False
            staging.cache = None

    def _get(self, key, value):
        cache = self._staging.cache
        if cache is not None and key in cache:
            return cache[key]
        data = self._read(key, value)
        if cache is not None:
            cache[key] = data
        return data

    def __call__(self, key, value):
        key = self.path + key.lstrip('/')
        if self.ignore_names is not None and self.ignore_names(key):
            return value
        try:
            data = self._get(key, value)
        except KeyError:
            if not self.strict:
                return value
            raise self._missing_key_error(key) from None
        # A dry run returns what a real load returns (callers may parse
        # it), but copies nothing into arrays; Link.serialize also skips its
        # assignments then.
        dry = self._staging.dry_run
        if data is _NONE:
            # For an array: None, and the caller decides (a parameter saved
            # before its lazy initialization keeps what it has, as in
            # Chainer; state that must stay an array refuses it).
            if self._staging.cache is not None and value is not None and \
                    not isinstance(value, (variable.Variable,) +
                                   backend._get_array_types()):
                raise serializer_module._none_refused(key, value)
            return None
        if value is None:
            return data
        if isinstance(value, variable.Variable):
            if value.array is None:
                if not dry:
                    value.array = data
                return value
            _copy_into(value.array, data, key, dry)
            return value
        if isinstance(value, backend._get_array_types()):
            _copy_into(value, data, key, dry)
            return value
        if isinstance(value, str):
            text = data[()]
            # h5py reads a string dataset as bytes
            return text.decode() if isinstance(text, bytes) else str(text)
        if isinstance(value, (numbers.Number, numpy.generic)):
            return _to_scalar(value, data, key)
        raise TypeError(
            'cannot deserialize {!r} into a value of type {}'.format(
                key, type(value).__name__))


def check_declared(key, value, shape, dtype):
    """Refuses, before its data is read, a stored array of the declared
    ``shape`` and ``dtype`` that cannot go into the target ``value``."""
    if isinstance(value, variable.Variable):
        value = value.array
    if isinstance(value, backend._get_array_types()):
        _check_fits(key, shape, dtype, value)
    elif isinstance(value, (numbers.Number, numpy.generic)):
        _check_scalar_shape(key, shape, value)


def _check_fits(key, shape, dtype, dst):
    # NumPy's copyto words, which Chainer's loaders raise (before anything
    # is written here, though)
    if not numpy.can_cast(dtype, dst.dtype, 'same_kind'):
        raise TypeError(
            "Cannot cast array data from {!r} to {!r} according to the rule "
            "'same_kind'".format(numpy.dtype(dtype), numpy.dtype(dst.dtype)))
    try:
        ok = numpy.broadcast_shapes(shape, dst.shape) == dst.shape
    except ValueError:
        ok = False
    if not ok:
        raise ValueError(
            'could not broadcast input array from shape {} into shape '
            '{}'.format(_np_shape(shape), _np_shape(dst.shape)))


def _np_shape(shape):
    """A shape as NumPy's messages write it: (2,3), (2,), ()."""
    return '({}{})'.format(','.join(str(s) for s in shape),
                           ',' if len(shape) == 1 else '')


def _check_scalar_shape(key, shape, value):
    if len(shape) > 1 or math.prod(shape) != 1:
        raise TypeError(
            'cannot load {!r} into a scalar of type {}: the stored value '
            'has shape {}'.format(key, type(value).__name__, shape))


def _copy_into(dst, src, key, dry):
    _check_fits(key, src.shape, src.dtype, dst)
    if dry:
        return
    if isinstance(dst, numpy.ndarray):
        # a CuPy source (a dict of GPU arrays) comes to the host first
        numpy.copyto(dst, backend.CpuDevice().send(src))
    else:
        xp = backend.get_array_module(dst)
        with backend.get_device_from_array(dst).create_context():
            dst[...] = xp.asarray(src)


def _to_scalar(value, data, key):
    _check_scalar_shape(key, data.shape, value)
    target = numpy.dtype(type(value))
    if not numpy.can_cast(data.dtype, target, 'safe'):
        raise TypeError(
            'Cannot safely deserialize {!r} from numpy array with dtype={} '
            'into a variable of type {}.'.format(key, data.dtype,
                                                 type(value)))
    return type(value)(data.reshape(())[()])
