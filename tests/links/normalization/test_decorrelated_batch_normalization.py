import warnings

import numpy
import pytest

import chainer
import chainer.links as L
from link_harness import roundtrip_npz


def R(seed, *shape):
    return numpy.random.RandomState(seed).randn(*shape).astype(numpy.float32)


def test_state():
    link = L.DecorrelatedBatchNormalization(4, groups=2)
    assert [name for name, _ in link.namedparams()] == []
    assert link._persistent == {'N', 'avg_mean', 'avg_projection'}
    numpy.testing.assert_array_equal(link.avg_mean, numpy.zeros((2, 2)))
    numpy.testing.assert_array_equal(
        link.avg_projection, numpy.stack([numpy.eye(2)] * 2))
    assert link.avg_mean.dtype == numpy.float32
    link = L.DecorrelatedBatchNormalization(4, groups=2, dtype=numpy.float64)
    assert link.avg_projection.dtype == numpy.float64


def test_train_matches_reference():
    # Expected values from Chainer 7.8.1 with the same arrays.
    link = L.DecorrelatedBatchNormalization(4, groups=2)
    y = link(R(0, 5, 4))
    numpy.testing.assert_allclose(y.array.ravel(), [
        1.196979, 1.382378, 0.983461, 1.422146, 0.559149, -1.711767,
        1.284022, -0.750165, -1.675828, 0.325307, -1.413442, 0.841422,
        -0.510627, 0.164052, -0.325373, -0.226851, 0.430327, -0.15997,
        -0.528667, -1.286552], rtol=1e-4, atol=1e-5)
    numpy.testing.assert_allclose(link.avg_projection.ravel(), [
        1.092718, 0.072364, 0.072364, 1.186226, 1.278016, -0.020232,
        -0.020232, 1.01375], rtol=1e-4, atol=1e-5)


def test_test_mode_finetune_and_serialize(tmp_path):
    link = L.DecorrelatedBatchNormalization(4, groups=2)
    x = R(0, 6, 4, 3)
    with chainer.using_config('train', False):
        y = link(x)
    assert type(y.creator).__name__ == 'FixedDecorrelatedBatchNormalization'
    numpy.testing.assert_allclose(y.array, x, rtol=1e-6)
    link(x, finetune=True)
    assert link.N == 1
    link.start_finetuning()
    assert link.N == 0
    with pytest.raises(TypeError, match='test'):
        link(x, test=True)
    roundtrip_npz(link, L.DecorrelatedBatchNormalization(4, groups=2),
                  tmp_path)


@pytest.mark.parametrize('fmt', ['npz', 'hdf5'])
@pytest.mark.parametrize('groups', [1, 2])
def test_loads_statistics_of_the_old_algorithm(fmt, groups, tmp_path):
    # Saved before Chainer v7: no group axis. A dict is saved as it is.
    if fmt == 'hdf5':
        pytest.importorskip('h5py')
    C = 8 // groups
    old = {'avg_mean': numpy.arange(C, dtype=numpy.float32),
           'avg_projection': numpy.eye(C, dtype=numpy.float32) * 2,
           'N': numpy.array(0)}
    path = str(tmp_path / ('old.' + fmt))
    getattr(chainer.serializers, 'save_' + fmt)(path, old)
    link = L.DecorrelatedBatchNormalization(8, groups=groups)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        getattr(chainer.serializers, 'load_' + fmt)(path, link)
    messages = [str(w.message) for w in caught]
    assert len([m for m in messages if 'old Decorrelated' in m]) == \
        (2 if groups != 1 else 0)
    numpy.testing.assert_array_equal(link.avg_mean,
                                     numpy.tile(old['avg_mean'], (groups, 1)))
    numpy.testing.assert_array_equal(
        link.avg_projection, numpy.tile(old['avg_projection'],
                                        (groups, 1, 1)))
