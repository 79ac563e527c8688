import io
import os
import zipfile

import numpy
import pytest

import chainer.links
from chainer import initializers
from chainer.link import Chain, Link
from chainer.serializers.npz import (DictionarySerializer, NpzDeserializer,
                                     load_npz, save_npz)
from chainer.variable import Parameter
from serialized_state import bytes_of, trained

FIXTURES = os.path.join(os.path.dirname(__file__), 'fixtures')


class Linear(Link):

    def __init__(self, n_in, n_out):
        super().__init__()
        self.n_out = n_out
        with self.init_scope():
            shape = None if n_in is None else (n_out, n_in)
            self.W = Parameter(initializers.Normal(1.0), shape)
            self.b = Parameter(initializers.Zero(), (n_out,))

    def forward(self, x):
        return x @ self.W.array.T + self.b.array


class MLP(Chain):
    """The structure of the reference fixture."""

    def __init__(self, n_in=3):
        super().__init__()
        with self.init_scope():
            self.l1 = Linear(n_in, 4)
            self.l2 = Linear(4, 2)
            self.u = Parameter()
        self.add_persistent('avg_mean', numpy.zeros(4, numpy.float32))
        self.add_persistent('N', 0)
        self.add_persistent('decay', 0.5)


def state(model):
    """Every value of a model, copied (None for uninitialized)."""
    out = {}
    for path, p in model.namedparams():
        out[path] = None if p.array is None else p.array.copy()
    for path, link in model.namedlinks():
        for name in link._persistent:
            value = getattr(link, name)
            out[path + ':' + name] = (value.copy() if hasattr(value, 'copy')
                                      else value)
    return out


def assert_same_state(a, b):
    assert a.keys() == b.keys()
    for k in a:
        if a[k] is None or b[k] is None:
            assert a[k] is None and b[k] is None, k
        else:
            numpy.testing.assert_array_equal(a[k], b[k], err_msg=k)
            assert type(a[k]) is type(b[k]), k


# --- compatibility with files written by Chainer 7.8.1 ------------------------

def test_load_reference_file():
    expected = numpy.load(os.path.join(FIXTURES,
                                       'ref_chainer_mlp_expected.npz'))
    m = MLP()
    load_npz(os.path.join(FIXTURES, 'ref_chainer_mlp.npz'), m)
    numpy.testing.assert_array_equal(m.l1.W.array, expected['l1_W'])
    numpy.testing.assert_array_equal(m.l1.b.array, expected['l1_b'])
    numpy.testing.assert_array_equal(m.l2.W.array, expected['l2_W'])
    numpy.testing.assert_array_equal(m.l2.b.array, expected['l2_b'])
    numpy.testing.assert_array_equal(m.avg_mean, expected['avg_mean'])
    assert m.N == 7 and type(m.N) is int
    assert m.decay == 0.9 and type(m.decay) is float
    assert not m.u.is_initialized  # stored as None
    y = m.l2(m.l1(expected['x']))
    numpy.testing.assert_allclose(y, expected['y'], rtol=1e-6)


def test_load_reference_file_initializes_lazy_params():
    m = MLP(n_in=None)
    assert not m.l1.W.is_initialized
    load_npz(os.path.join(FIXTURES, 'ref_chainer_mlp.npz'), m)
    assert m.l1.W.shape == (4, 3) and m.l1.W.dtype == numpy.float32
    assert numpy.isnan(m.l1.W.grad).all()


def test_saved_layout_matches_reference():
    ref = numpy.load(os.path.join(FIXTURES, 'ref_chainer_mlp.npz'),
                     allow_pickle=True)
    bio = io.BytesIO()
    save_npz(bio, MLP())
    bio.seek(0)
    ours = numpy.load(bio, allow_pickle=True)
    assert sorted(ours.files) == sorted(ref.files)
    for k in ref.files:
        assert ours[k].dtype == ref[k].dtype, k
        assert ours[k].shape == ref[k].shape, k
    assert ours['u'].dtype == object and ours['u'][()] is None


# --- round trips -------------------------------------------------------------

@pytest.mark.parametrize('compression', [True, False])
def test_round_trip_path(tmp_path, compression):
    src, dst = MLP(), MLP()
    src.N, src.decay = 3, 0.25
    src.avg_mean[:] = [1, 2, 3, 4]
    fn = str(tmp_path / 'model')
    save_npz(fn, src, compression=compression)
    assert os.listdir(tmp_path) == ['model']  # no suffix, no temp left
    load_npz(fn, dst)
    assert_same_state(state(src), state(dst))


def test_round_trip_file_object_and_path_prefix():
    outer = Chain()
    with outer.init_scope():
        outer.model = MLP()
    bio = io.BytesIO()
    save_npz(bio, outer)
    bio.seek(0)
    m = MLP()
    load_npz(bio, m, path='model/')
    numpy.testing.assert_array_equal(m.l1.W.array, outer.model.l1.W.array)


def test_persistent_none_gets_the_array():
    src, dst = MLP(), MLP()
    dst.avg_mean = None
    bio = io.BytesIO()
    save_npz(bio, src)
    bio.seek(0)
    load_npz(bio, dst)
    numpy.testing.assert_array_equal(dst.avg_mean, src.avg_mean)


def test_stored_none_for_an_initialized_param_keeps_it():
    # a parameter saved before its lazy initialization: as in Chainer, the
    # loaded model keeps its own value (with a warning here)
    src, dst = MLP(), MLP()
    dst.u.initialize((2,))
    u = dst.u.array.copy()
    bio = io.BytesIO()
    save_npz(bio, src)
    bio.seek(0)
    with pytest.warns(RuntimeWarning, match="u: the file holds None.*keeps"):
        load_npz(bio, dst)
    numpy.testing.assert_array_equal(dst.u.array, u)
    numpy.testing.assert_array_equal(dst.l1.W.array, src.l1.W.array)


def test_stored_none_for_a_statistic_is_refused():
    model, _ = trained()
    d = DictionarySerializer()
    d.save(model)
    d.target['1/avg_var'] = numpy.array(None, dtype=object)
    bio = io.BytesIO()
    numpy.savez(bio, **d.target)
    before = bytes_of(model)
    with pytest.raises(ValueError, match="'1/avg_var'.*None.*shape \\(4,\\)"):
        load_npz(io.BytesIO(bio.getvalue()), model)
    assert bytes_of(model) == before


# --- loading never unpickles -------------------------------------------------

_UNPICKLED = []


class _Evil:
    def __reduce__(self):
        return (_UNPICKLED.append, ('pwned',))


def test_load_never_unpickles():
    src = MLP()
    d = DictionarySerializer()
    d.save(src)
    d.target['decay'] = numpy.array(_Evil(), dtype=object)
    d.target['avg_mean'] = numpy.array([_Evil()] * 4, dtype=object)
    bio = io.BytesIO()
    numpy.savez(bio, **d.target)
    data = bio.getvalue()
    m = MLP()
    before = state(m)
    # a 0-d object entry is Chainer's None: not for a float
    with pytest.raises(ValueError, match="'decay'.*None.*float"):
        load_npz(io.BytesIO(data), m, ignore_names='avg_mean')
    with pytest.raises(ValueError, match="'avg_mean'.*object array.*"
                       "never unpickled"):
        load_npz(io.BytesIO(data), m)
    # even from a file that its user opened with allow_pickle=True
    with numpy.load(io.BytesIO(data), allow_pickle=True) as f:
        with pytest.raises(ValueError, match='avg_mean'):
            NpzDeserializer(f).load(m)
    assert _UNPICKLED == []
    assert_same_state(before, state(m))


# --- failures leave the target exactly as it was ----------------------------

def _saved(model, drop=None, replace=None):
    d = DictionarySerializer()
    d.save(model)
    if drop:
        del d.target[drop]
    if replace:
        d.target.update(replace)
    bio = io.BytesIO()
    numpy.savez_compressed(bio, **d.target)
    return bio.getvalue()


@pytest.mark.parametrize('drop', ['l2/b', 'N', 'u'])
def test_missing_key_changes_nothing(drop):
    data = _saved(MLP(), drop=drop)
    m = MLP(n_in=None)
    before = state(m)
    with pytest.raises(KeyError, match=drop):
        load_npz(io.BytesIO(data), m)
    assert_same_state(before, state(m))
    assert not m.l1.W.is_initialized


def test_shape_mismatch_changes_nothing():
    data = _saved(MLP(), replace={'l2/W': numpy.zeros((3, 3), 'f')})
    m = MLP()
    before = state(m)
    with pytest.raises(ValueError, match=r'^could not broadcast input array '
                       r'from shape'):  # NumPy's words, as Chainer's
        load_npz(io.BytesIO(data), m)
    assert_same_state(before, state(m))


def test_unsafe_scalar_cast_changes_nothing():
    data = _saved(MLP(), replace={'N': numpy.array(1.5)})
    m = MLP()
    before = state(m)
    with pytest.raises(TypeError, match='N'):
        load_npz(io.BytesIO(data), m)
    assert_same_state(before, state(m))


def test_truncated_file_changes_nothing():
    data = _saved(MLP())
    m = MLP()
    before = state(m)
    with pytest.raises(ValueError, match='npz'):
        load_npz(io.BytesIO(data[:len(data) // 2]), m)
    assert_same_state(before, state(m))


def test_corrupt_member_changes_nothing():
    # a stored (uncompressed) archive whose last member's bytes are damaged:
    # the zip directory is intact, the CRC check of that member fails
    d = DictionarySerializer()
    d.save(MLP())
    bio = io.BytesIO()
    numpy.savez(bio, **d.target)
    raw = bytearray(bio.getvalue())
    with zipfile.ZipFile(io.BytesIO(bytes(raw))) as z:
        info = z.getinfo('l2/W.npy')
    start = info.header_offset + 30 + len(info.filename) + len(info.extra)
    raw[start + info.file_size - 4] ^= 0xFF
    m = MLP()
    before = state(m)
    with pytest.raises(ValueError, match='l2/W'):
        load_npz(io.BytesIO(bytes(raw)), m)
    assert_same_state(before, state(m))


def test_strict_false_and_ignore_names():
    src = MLP()
    data = _saved(src, drop='l1/W')
    m = MLP()
    w = m.l1.W.array.copy()
    load_npz(io.BytesIO(data), m, strict=False)
    numpy.testing.assert_array_equal(m.l1.W.array, w)
    numpy.testing.assert_array_equal(m.l2.W.array, src.l2.W.array)

    m = MLP()
    w = m.l1.W.array.copy()
    load_npz(io.BytesIO(data), m, ignore_names=['l1/W'])
    numpy.testing.assert_array_equal(m.l1.W.array, w)

    seen = []
    m = MLP()
    load_npz(io.BytesIO(data), m,
             ignore_names=lambda k: seen.append(k) or k == 'l1/W')
    assert 'l1/W' in seen and 'l2/b' in seen


def test_not_an_npz():
    bio = io.BytesIO()
    numpy.save(bio, numpy.zeros(2))
    bio.seek(0)
    with pytest.raises(ValueError, match='single array'):
        load_npz(bio, MLP())


# --- the serializer objects --------------------------------------------------

def test_dictionary_serializer():
    s = DictionarySerializer()
    a = numpy.arange(3.)
    assert s('a', a) is a and s.target['a'] is a
    assert s('n', 3) == 3 and s.target['n'] == numpy.array(3)
    assert s('x', None) is None
    assert s.target['x'].dtype == object and s.target['x'][()] is None
    child = s['child']['g']
    assert child.path == 'child/g/' and child.target is s.target
    child('w', 1.5)
    assert list(s.target) == ['a', 'n', 'x', 'child/g/w']


def test_npz_deserializer_values():
    d = {'a': numpy.arange(3.), 'i': numpy.array(4), 'f': numpy.array(2.5),
         'b': numpy.array(True), 's': numpy.array('ab'),
         'o': numpy.array(None, dtype=object), 'p/q': numpy.array(1)}
    ds = NpzDeserializer(d)
    numpy.testing.assert_array_equal(ds('a', None), d['a'])
    assert ds('i', 1) == 4 and type(ds('i', 1)) is int
    assert type(ds('i', 1.0)) is float
    assert ds('b', False) is True
    assert ds('s', 'x') == 'ab'
    assert ds('o', None) is None and ds('o', 3) is None
    assert ds['p']('q', 0) == 1
    x = numpy.zeros(3, numpy.float32)
    assert ds('a', x) is x
    numpy.testing.assert_array_equal(x, [0, 1, 2])
    with pytest.raises(TypeError, match='safely'):
        ds('f', 1)
    with pytest.raises(TypeError, match='safely'):
        ds('i', False)
    with pytest.raises(TypeError, match='cast'):
        ds('a', numpy.zeros(3, numpy.int32))
    with pytest.raises(ValueError, match='shape'):
        ds('a', numpy.zeros(4))
    with pytest.raises(KeyError, match='missing'):
        ds('missing', 1)
    assert NpzDeserializer(d, strict=False)('missing', 1) == 1


class _LogLike:
    """A serialize() that parses what it loads (like LogReport's log)."""

    def __init__(self):
        self.log = []

    def serialize(self, serializer):
        import json
        from chainer.serializer import Serializer
        if isinstance(serializer, Serializer):
            serializer('_log', json.dumps(self.log))
        else:
            self.log = json.loads(serializer('_log', ''))


def test_dry_run_returns_real_values_to_other_objects():
    src = _LogLike()
    src.log = [{'loss': 1.5}]
    bio = io.BytesIO()
    save_npz(bio, src)
    bio.seek(0)
    dst = _LogLike()
    load_npz(bio, dst)
    assert dst.log == [{'loss': 1.5}]


def test_missing_key_message_is_numpys():
    bio = io.BytesIO()
    numpy.savez(bio, x=numpy.zeros(1))
    bio.seek(0)
    with pytest.raises(KeyError, match='^\'p/W is not a file in the archive\'$'):
        load_npz(bio, chainer.links.Linear(2, 3), path='p/')
    with pytest.raises(KeyError, match="^'W'$"):
        NpzDeserializer({}).load(chainer.links.Linear(2, 3))


def test_ignore_names_list_mixes_names_and_predicates():
    src = MLP()
    data = _saved(src)
    m = MLP()
    w1, b2 = m.l1.W.array.copy(), m.l2.b.array.copy()
    load_npz(io.BytesIO(data), m,
             ignore_names=[lambda k: k.endswith('/W') and 'l1' in k, 'l2/b'])
    numpy.testing.assert_array_equal(m.l1.W.array, w1)
    numpy.testing.assert_array_equal(m.l2.b.array, b2)
    numpy.testing.assert_array_equal(m.l2.W.array, src.l2.W.array)
    with pytest.raises(ValueError, match='ignore_names needs to be a '
                       'callable, string or list of them'):
        load_npz(io.BytesIO(data), MLP(), ignore_names=[1])


def test_serialize_gives_the_saved_dict():
    from chainer.serializers import npz
    m = MLP()
    target = npz.serialize(m)
    assert isinstance(target, dict)
    assert sorted(target) == ['N', 'avg_mean', 'decay', 'l1/W', 'l1/b',
                              'l2/W', 'l2/b', 'u']
    assert target['u'][()] is None
    numpy.testing.assert_array_equal(target['l1/W'], m.l1.W.array)


def test_none_read_from_a_file_opened_with_pickles(tmp_path):
    # a user's numpy.load(..., allow_pickle=True) gives None as an object
    # array; the deserializer still reads it as None
    path = str(tmp_path / 'a.npz')
    numpy.savez(path, w=None, y=numpy.ones(2, numpy.float32),
                s=numpy.array(b'abc'))
    with numpy.load(path, allow_pickle=True) as f:
        d = NpzDeserializer(f)
        assert d('w', None) is None
        assert d('w', numpy.empty(1, numpy.float32)) is None
        assert d('s', '') == 'abc'   # bytes come back as text


# --- hostile or broken files: a clear error, the target untouched -----------

@pytest.mark.parametrize('key', ['1/avg_mean', '1/N', 't',
                                 '0/W/t', '0/W/m'])
def test_stored_none_is_refused_for_state(key):
    model, opt = trained()
    obj = opt if key == 't' or key.startswith('0/W/') else model
    d = DictionarySerializer()
    d.save(obj)
    assert key in d.target
    d.target[key] = numpy.array(None, dtype=object)  # Chainer's None
    bio = io.BytesIO()
    numpy.savez(bio, **d.target)
    before = bytes_of(obj)
    with pytest.raises(ValueError, match='{!r}.*None'.format(key)):
        load_npz(io.BytesIO(bio.getvalue()), obj)
    assert bytes_of(obj) == before


def _npz_with_member(entries, key, raw):
    """An npz of ``entries`` whose member ``key`` has the bytes ``raw``."""
    bio = io.BytesIO()
    with zipfile.ZipFile(bio, 'w', zipfile.ZIP_DEFLATED) as zf:
        for k, v in entries.items():
            with zf.open(k + '.npy', 'w') as f:
                if k == key:
                    f.write(raw)
                else:
                    numpy.lib.format.write_array(f, numpy.asarray(v))
    return bio.getvalue()


def _npy_header(shape, dtype='<f4'):
    bio = io.BytesIO()
    numpy.lib.format.write_array_header_1_0(
        bio, {'descr': dtype, 'fortran_order': False, 'shape': shape})
    return bio.getvalue()


def _peak_memory(fn):
    import tracemalloc
    tracemalloc.start()
    try:
        fn()
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return peak


def test_declared_size_is_checked_before_reading():
    # 12 floats of data under a header that declares 2 GiB of them
    src = chainer.links.Linear(3, 4)
    entries = {'W': src.W.array, 'b': src.b.array}
    raw = _npy_header((2 ** 29,)) + src.W.array.tobytes()
    data = _npz_with_member(entries, 'W', raw)
    assert len(data) < 4096
    err = []
    for dst in chainer.links.Linear(3, 4), chainer.links.Linear(None, 4):
        before = bytes_of(dst)

        def load():
            with pytest.raises(ValueError, match='536870912') as e:
                load_npz(io.BytesIO(data), dst)
            err.append(str(e.value))
        assert _peak_memory(load) < 16 * 2 ** 20
        assert bytes_of(dst) == before
    # an initialized target: the expected and the declared shapes
    assert '(4,3)' in err[0] and '(536870912,)' in err[0]
    # an uninitialized one: more declared than stored
    assert '536870912' in err[1] and 'npz' in err[1]


def test_declared_size_of_a_compressed_bomb_is_checked_first():
    # an honest 64 MiB of zeros, deflated to a few dozen kB, for a
    # parameter of 12 values: refused without being inflated
    src = chainer.links.Linear(3, 4)
    bio = io.BytesIO()
    with zipfile.ZipFile(bio, 'w', zipfile.ZIP_DEFLATED) as zf:
        with zf.open('W.npy', 'w', force_zip64=True) as f:
            f.write(_npy_header((2 ** 24,)))
            chunk = bytes(2 ** 22)
            for _ in range(16):
                f.write(chunk)
        with zf.open('b.npy', 'w') as f:
            numpy.lib.format.write_array(f, src.b.array)
    data = bio.getvalue()
    assert len(data) < 2 ** 20
    dst = chainer.links.Linear(3, 4)
    before = bytes_of(dst)

    def load():
        with pytest.raises(ValueError, match=r'\(16777216,\) into shape '
                           r'\(4,3\)$'):
            load_npz(io.BytesIO(data), dst)
    assert _peak_memory(load) < 16 * 2 ** 20
    assert bytes_of(dst) == before


def test_declared_dtype_is_checked_before_reading():
    src = chainer.links.Linear(3, 4)
    raw = _npy_header((4, 3), '<c16') + bytes(16 * 12)
    data = _npz_with_member({'W': src.W.array, 'b': src.b.array}, 'W', raw)
    dst = chainer.links.Linear(3, 4)
    before = bytes_of(dst)
    with pytest.raises(TypeError, match=r"^Cannot cast array data from "
                       r"dtype\('complex128'\) to dtype\('float32'\) "
                       r"according to the rule 'same_kind'$"):
        load_npz(io.BytesIO(data), dst)
    assert bytes_of(dst) == before


def test_mismatch_messages_are_numpys_as_chainers(tmp_path):
    # Chainer 7.8.1 copies with numpy.copyto: its words, word for word
    path = str(tmp_path / 'm.npz')
    save_npz(path, chainer.links.Linear(3, 2))
    with pytest.raises(ValueError) as e:
        load_npz(path, chainer.links.Linear(4, 2))
    assert str(e.value) == ('could not broadcast input array from shape '
                            '(2,3) into shape (2,4)')
