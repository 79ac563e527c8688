import os

import numpy
import pytest

from chainer import initializers
from chainer.link import Chain, Link
from chainer.serializers import hdf5
from chainer.variable import Parameter
from serialized_state import bytes_of, trained


class Linear(Link):

    def __init__(self, n_in, n_out):
        super().__init__()
        with self.init_scope():
            shape = None if n_in is None else (n_out, n_in)
            self.W = Parameter(initializers.Normal(1.0), shape)
            self.b = Parameter(initializers.Zero(), (n_out,))


class Net(Chain):

    def __init__(self, n_in=3):
        super().__init__()
        with self.init_scope():
            self.l1 = Linear(n_in, 4)
            self.u = Parameter()
        self.add_persistent('N', 0)
        self.add_persistent('avg', numpy.zeros(4))


def test_missing_h5py_is_a_clear_runtime_error(monkeypatch, tmp_path):
    monkeypatch.setattr(hdf5, '_available', False)
    with pytest.raises(RuntimeError, match='h5py'):
        hdf5.save_hdf5(str(tmp_path / 'x.h5'), Net())
    with pytest.raises(RuntimeError, match='h5py'):
        hdf5.load_hdf5(str(tmp_path / 'x.h5'), Net())


try:
    import h5py
except ImportError:
    h5py = None

needs_h5py = pytest.mark.skipif(h5py is None, reason='h5py is not installed')


@needs_h5py
def test_round_trip(tmp_path):
    fn = str(tmp_path / 'net.h5')
    src = Net()
    src.N = 5
    src.avg[:] = [1, 2, 3, 4]
    hdf5.save_hdf5(fn, src)
    with h5py.File(fn, 'r') as f:
        assert f['l1/W'].compression == 'gzip'
        assert f['u'].shape is None  # None is an empty dataset
        assert f['N'].compression is None
    dst = Net(n_in=None)
    hdf5.load_hdf5(fn, dst)
    numpy.testing.assert_array_equal(dst.l1.W.array, src.l1.W.array)
    numpy.testing.assert_array_equal(dst.avg, src.avg)
    assert dst.N == 5 and not dst.u.is_initialized


@needs_h5py
def test_missing_key_changes_nothing(tmp_path):
    fn = str(tmp_path / 'net.h5')
    hdf5.save_hdf5(fn, Net())
    with h5py.File(fn, 'a') as f:
        del f['l1/b']
    dst = Net()
    w = dst.l1.W.array.copy()
    dst.N = 9
    with pytest.raises(KeyError, match="object 'b' doesn't exist"):  # h5py's
        hdf5.load_hdf5(fn, dst)
    numpy.testing.assert_array_equal(dst.l1.W.array, w)
    assert dst.N == 9
    with h5py.File(fn, 'r') as f:
        hdf5.HDF5Deserializer(f, strict=False).load(dst)
    assert dst.N == 0


def test_child_reads_its_subgroup_and_strings(tmp_path):
    h5py = pytest.importorskip('h5py')
    path = str(tmp_path / 'a.h5')
    with h5py.File(path, 'w') as f:
        f.require_group('x').create_dataset('v', data=numpy.arange(3))
        f.create_dataset('s', data='abc')
    with h5py.File(path, 'r') as f:
        d = hdf5.HDF5Deserializer(f)
        child = d['x']
        assert child.group.name == '/x'
        assert child('v', None).tolist() == [0, 1, 2]
        assert d('s', '') == 'abc'
        # a missing subgroup: its keys are missing ones
        with pytest.raises(KeyError):
            d['nothing']('v', None)
        assert hdf5.HDF5Deserializer(f, strict=False)['nothing'](
            'v', 5) == 5


def test_none_needs_h5py_with_empty(tmp_path, monkeypatch):
    h5py = pytest.importorskip('h5py')
    monkeypatch.setattr(h5py.version, 'version_tuple', (2, 6, 0))
    with h5py.File(str(tmp_path / 'a.h5'), 'w') as f:
        with pytest.raises(RuntimeError, match='h5py>=2.7.0'):
            hdf5.HDF5Serializer(f)('x', None)


# --- hostile or broken files: a clear error, the target untouched -----------

@needs_h5py
@pytest.mark.parametrize('key', ['1/avg_mean', '1/N', 't', '0/W/t',
                                 '0/W/m'])
def test_empty_dataset_is_refused_for_state(key, tmp_path):
    model, opt = trained()
    obj = opt if key == 't' or key.startswith('0/W/') else model
    fn = str(tmp_path / 'x.h5')
    hdf5.save_hdf5(fn, obj)
    with h5py.File(fn, 'a') as f:
        del f[key]
        f.create_dataset(key, data=h5py.Empty('f'))
    before = bytes_of(obj)
    with pytest.raises(ValueError, match='{!r}.*None'.format(key)):
        hdf5.load_hdf5(fn, obj)
    assert bytes_of(obj) == before


@needs_h5py
def test_declared_size_is_checked_before_reading(tmp_path):
    import tracemalloc
    fn = str(tmp_path / 'x.h5')
    with h5py.File(fn, 'w') as f:
        # 2 GiB declared, nothing stored: reading it would allocate it all
        f.create_dataset('l1/W', shape=(2 ** 29,), dtype='f',
                         chunks=(2 ** 20,), compression='gzip')
        f.create_dataset('l1/b', data=numpy.zeros(4))
        f.create_dataset('N', data=0)
        f.create_dataset('avg', data=numpy.zeros(4))
        f.create_dataset('u', data=h5py.Empty('f'))
    assert os.path.getsize(fn) < 2 ** 20
    dst = Net()
    before = bytes_of(dst)
    tracemalloc.start()
    try:
        with pytest.raises(ValueError,
                           match=r"^could not broadcast input array from "
                           r"shape \(536870912,\) into shape \(4,3\)$"):
            hdf5.load_hdf5(fn, dst)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 16 * 2 ** 20
    assert bytes_of(dst) == before


@needs_h5py
@pytest.mark.parametrize('kind', ['soft', 'external', 'soft_group'])
def test_links_are_refused(kind, tmp_path):
    src = Net()
    fn = str(tmp_path / 'x.h5')
    hdf5.save_hdf5(fn, src)
    other = str(tmp_path / 'other.h5')
    with h5py.File(other, 'w') as f:
        f.create_dataset('W', data=numpy.full((4, 3), 7, 'f'))
    with h5py.File(fn, 'a') as f:
        f.copy('l1', 'elsewhere')
        f['elsewhere/W'][...] = 7
        if kind == 'soft':
            del f['l1/W']
            f['l1/W'] = h5py.SoftLink('/elsewhere/W')
            what = "'l1/W'.*soft link to '/elsewhere/W'"
        elif kind == 'external':
            del f['l1/W']
            f['l1/W'] = h5py.ExternalLink(other, '/W')
            what = "'l1/W'.*external link to '/W' in '.*other.h5'"
        else:
            del f['l1']
            f['l1'] = h5py.SoftLink('/elsewhere')
            what = "'l1'.*soft link to '/elsewhere'"
    dst = Net()
    before = bytes_of(dst)
    with pytest.raises(ValueError, match=what + '.*not followed'):
        hdf5.load_hdf5(fn, dst)
    assert bytes_of(dst) == before
    assert not (dst.l1.W.array == 7).all()


@needs_h5py
def test_missing_dataset_is_h5pys_keyerror(tmp_path):
    # what Chainer users see: h5py's own KeyError for the lookup
    from chainer import links
    path = str(tmp_path / 'm.h5')
    hdf5.save_hdf5(path, links.Linear(2, 2))
    target = Chain()
    with target.init_scope():
        target.extra = Parameter(numpy.zeros(2, numpy.float32))
    with pytest.raises(KeyError) as info:
        hdf5.load_hdf5(path, target)
    with h5py.File(path, 'r') as f:
        with pytest.raises(KeyError) as expected:
            f['extra']
    assert str(info.value) == str(expected.value)
    assert "'extra'" in str(info.value)
