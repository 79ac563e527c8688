import pickle
import zipfile

import numpy
import pytest

from chainer import datasets


def test_tuple_dataset():
    t = datasets.TupleDataset(numpy.arange(4), numpy.arange(4) * 2)
    assert len(t) == 4 and t[1] == (1, 2)
    assert t[1:3] == [(1, 2), (2, 4)]
    a, b = t[[0, 2]]  # a non-slice index goes to each dataset
    assert a.tolist() == [0, 2] and b.tolist() == [0, 4]
    assert datasets.TupleDataset(numpy.arange(3))[0:2] == [(0,), (1,)]
    with pytest.raises(ValueError, match='no datasets'):
        datasets.TupleDataset()
    with pytest.raises(ValueError, match='index 1 has a wrong length'):
        datasets.TupleDataset([1], [1, 2])


def test_dict_dataset():
    d = datasets.DictDataset(a=numpy.arange(3), b=[4, 5, 6])
    assert len(d) == 3 and d[0] == {'a': 0, 'b': 4}
    assert d[0:2] == [{'a': 0, 'b': 4}, {'a': 1, 'b': 5}]
    assert datasets.DictDataset(a=numpy.arange(3))[[0, 1]]['a'].tolist() == \
        [0, 1]
    with pytest.raises(ValueError, match='no datasets'):
        datasets.DictDataset()
    with pytest.raises(ValueError, match='conflicts at "b"'):
        datasets.DictDataset(a=[1], b=[1, 2])


def test_sub_dataset():
    s = datasets.SubDataset(list(range(10)), 2, 5)
    assert len(s) == 3 and s[0] == 2 and s[-1] == 4
    assert s[::-1] == [4, 3, 2] and list(s) == [2, 3, 4]
    for i in (3, -4):
        with pytest.raises(IndexError, match='out of range'):
            s[i]
    s = datasets.SubDataset(list(range(10)), 2, 5,
                            order=list(range(9, -1, -1)))
    assert list(s) == [7, 6, 5]
    with pytest.raises(ValueError, match='same length'):
        datasets.SubDataset(list(range(10)), 2, 5, order=[1, 2])


def test_split_dataset():
    a, b = datasets.split_dataset(list(range(5)), 2)
    assert (list(a), list(b)) == ([0, 1], [2, 3, 4])
    a, b = datasets.split_dataset(list(range(5)), numpy.int64(2), [4, 3, 2,
                                                                   1, 0])
    assert list(a) == [4, 3]
    with pytest.raises(ValueError, match='non-negative'):
        datasets.split_dataset([1, 2], -1)
    with pytest.raises(ValueError, match='exceeds'):
        datasets.split_dataset([1, 2], 3)
    with pytest.raises(TypeError, match='must be int'):
        datasets.split_dataset([1, 2], 1.5)


def test_split_random():
    a, b = datasets.split_dataset_random(list(range(5)), 2, seed=3)
    # Chainer gives the same split for the same seed.
    assert (list(a), list(b)) == ([3, 4], [1, 0, 2])
    # seed=None: a fresh generator; NumPy's global state is not consumed
    numpy.random.seed(5)
    expect = numpy.random.rand()
    numpy.random.seed(5)
    a2, b2 = datasets.split_dataset_random(list(range(9)), 4)
    assert numpy.random.rand() == expect
    assert sorted(list(a2) + list(b2)) == list(range(9))
    assert sorted(list(a) + list(b)) == list(range(5))


def test_split_n():
    parts = datasets.split_dataset_n(list(range(7)), 3)
    assert [list(p) for p in parts] == [[0, 1], [2, 3], [4, 5]]
    parts = datasets.split_dataset_n_random(list(range(7)), 3, seed=0)
    assert [list(p) for p in parts] == [[6, 2], [1, 3], [0, 5]]


def test_cross_validation():
    cv = datasets.get_cross_validation_datasets(list(range(7)), 3)
    assert [(list(a), list(b)) for a, b in cv] == [
        ([0, 1, 2, 3], [4, 5, 6]), ([4, 5, 6, 0, 1], [2, 3]),
        ([2, 3, 4, 5, 6], [0, 1])]
    cv = datasets.get_cross_validation_datasets_random(list(range(7)), 3,
                                                       seed=0)
    assert [(list(a), list(b)) for a, b in cv] == [
        ([6, 2, 1, 3], [0, 5, 4]), ([0, 5, 4, 6, 2], [1, 3]),
        ([1, 3, 0, 5, 4], [6, 2])]
    with pytest.raises(TypeError, match='unexpected'):
        datasets.get_cross_validation_datasets([1, 2], 2, bad=1)


def test_concatenated_dataset():
    c = datasets.ConcatenatedDataset([1, 2], [], [3, 4, 5])
    assert len(c) == 5 and c[3] == 4 and c[-1:] == [5]
    with pytest.raises(IndexError):  # as in Chainer: no negative index
        c[-1]
    assert c[1:4] == [2, 3, 4] and c[[0, 4]] == [1, 5]
    with pytest.raises(IndexError):
        c[5]
    assert len(datasets.ConcatenatedDataset()) == 0


def test_transform_dataset():
    calls = []

    def f(x):
        calls.append(x)
        return x * 10

    tr = datasets.TransformDataset([1, 2, 3], f)
    assert calls == []  # lazy
    assert len(tr) == 3 and tr[1] == 20 and tr[0:2] == [10, 20]
    assert tr[[0, 2]] == [10, 30]


def test_text_dataset(tmp_path):
    p1, p2 = tmp_path / 'a.txt', tmp_path / 'b.txt'
    p1.write_text('a\nbb\n\nccc')
    p2.write_text('1\n2\n3\n4\n')
    t = datasets.TextDataset(str(p1))
    assert len(t) == 4 and list(t) == ['a\n', 'bb\n', '\n', 'ccc']
    assert t[-1] == 'ccc'
    t = datasets.TextDataset([str(p1), str(p2)])
    assert t[0] == ('a\n', '1\n') and t[3] == ('ccc', '4\n')
    t = datasets.TextDataset([str(p1), str(p2)],
                             filter_func=lambda a, b: a.strip() != '')
    assert len(t) == 3 and t[2] == ('ccc', '4\n')
    t = pickle.loads(pickle.dumps(t))
    assert t[1] == ('bb\n', '2\n')
    t.close()
    with pytest.raises(IndexError):
        t[3]
    (tmp_path / 'c.txt').write_text('x\n')
    with pytest.raises(ValueError, match='number of lines'):
        datasets.TextDataset([str(p1), str(tmp_path / 'c.txt')])


def test_text_dataset_single_file_list_and_close(tmp_path):
    p1 = tmp_path / 'a.txt'
    p1.write_text('hello\nworld\n')
    t = datasets.TextDataset([str(p1)])   # one file in a list: strings
    assert t[1] == 'world\n'
    t.close()
    with pytest.raises(ValueError, match='closed file'):
        t[0]
    # close closes every file even when one fails, then raises
    t = datasets.TextDataset([str(p1)] * 3)
    first, last = t._fps[0], t._fps[2]
    t._fps[1] = None
    with pytest.raises(AttributeError):
        t.close()
    assert first.closed and last.closed
    with pytest.raises(ValueError, match='at least one text file'):
        datasets.TextDataset([])


def test_pickle_dataset(tmp_path):
    path = str(tmp_path / 'p.pkl')
    with datasets.open_pickle_dataset_writer(path) as w:
        w.write({'a': 1})
        w.write(numpy.arange(3))
        w.write('x')
        w.flush()
    with datasets.open_pickle_dataset(path) as d:
        assert len(d) == 3 and d[0] == {'a': 1} and d[2] == 'x'
        assert d[1].tolist() == [0, 1, 2] and d[0] == {'a': 1}
        copy = pickle.loads(pickle.dumps(d))  # reopens the file by name
        assert copy[2] == 'x'
        copy.close()


def test_pickle_dataset_in_memory_pickles_and_forks(tmp_path):
    import io
    import multiprocessing
    buf = io.BytesIO()
    w = datasets.PickleDatasetWriter(buf)
    w.write(1)
    w.write('two')
    w.flush()
    d = pickle.loads(pickle.dumps(datasets.PickleDataset(buf)))
    assert len(d) == 2 and d[1] == 'two'

    # in a child started by multiprocessing, the file is reopened there
    path = str(tmp_path / 'p.pkl')
    with datasets.open_pickle_dataset_writer(path) as w:
        w.write(b'x')
    ctx = multiprocessing.get_context('fork')
    queue = ctx.SimpleQueue()
    with datasets.open_pickle_dataset(path) as d:
        parent_fp = d._reader._fp
        p = ctx.Process(target=lambda: queue.put(
            (d._reader._fp is not parent_fp, d[0])))
        p.start()
        p.join()
        assert queue.get() == (True, b'x')
        assert d._reader._fp is parent_fp and not parent_fp.closed
    with pytest.raises(ValueError, match='random access'):
        datasets.PickleDataset(type('R', (), {'seekable': lambda s: False})())


def _png_images(tmp_path, Image):
    rng = numpy.random.RandomState(0)
    rgb = rng.randint(0, 256, (4, 5, 3)).astype(numpy.uint8)
    gray = rng.randint(0, 256, (4, 5)).astype(numpy.uint8)
    Image.fromarray(rgb).save(str(tmp_path / 'rgb.png'))
    Image.fromarray(gray).save(str(tmp_path / 'gray.png'))
    return rgb, gray


def test_image_datasets(tmp_path):
    Image = pytest.importorskip('PIL.Image')
    rgb, gray = _png_images(tmp_path, Image)
    d = datasets.ImageDataset(['rgb.png', 'gray.png'], root=str(tmp_path))
    assert len(d) == 2
    assert d[0].shape == (3, 4, 5) and d[0].dtype == numpy.float32
    numpy.testing.assert_array_equal(d[0], rgb.transpose(2, 0, 1))
    assert d[1].shape == (1, 4, 5)
    (tmp_path / 'list.txt').write_text('rgb.png\ngray.png\n')
    d = datasets.ImageDataset(str(tmp_path / 'list.txt'), root=str(tmp_path),
                              dtype=numpy.uint8)
    assert d[1].dtype == numpy.uint8
    numpy.testing.assert_array_equal(d[1][0], gray)

    (tmp_path / 'pairs.txt').write_text('rgb.png 3\ngray.png 7\n')
    d = datasets.LabeledImageDataset(str(tmp_path / 'pairs.txt'),
                                     root=str(tmp_path))
    x, t = d[1]
    assert x.shape == (1, 4, 5) and t == 7 and t.dtype == numpy.int32
    d = datasets.LabeledImageDataset([('rgb.png', 1)], root=str(tmp_path),
                                     label_dtype=numpy.int64)
    assert d[0][1].dtype == numpy.int64
    (tmp_path / 'bad.txt').write_text('rgb.png\n')
    with pytest.raises(ValueError) as info:
        datasets.LabeledImageDataset(str(tmp_path / 'bad.txt'))
    assert str(info.value) == 'invalid format at line 0 in file {}'.format(
        tmp_path / 'bad.txt')
    # As Chainer, lines count from 0 and a blank line is refused too.
    (tmp_path / 'blank.txt').write_text('rgb.png 0\n\ngray.png 1\n')
    with pytest.raises(ValueError) as info:
        datasets.LabeledImageDataset(str(tmp_path / 'blank.txt'))
    assert str(info.value) == 'invalid format at line 1 in file {}'.format(
        tmp_path / 'blank.txt')


def test_zipped_image_datasets(tmp_path):
    Image = pytest.importorskip('PIL.Image')
    rgb, gray = _png_images(tmp_path, Image)
    zpath = str(tmp_path / 'images.zip')
    with zipfile.ZipFile(zpath, 'w') as zf:
        zf.writestr('sub/', '')
        zf.write(str(tmp_path / 'rgb.png'), 'sub/rgb.png')
        zf.write(str(tmp_path / 'gray.png'), 'gray.png')
    d = datasets.ZippedImageDataset(zpath)
    assert len(d) == 2
    numpy.testing.assert_array_equal(d[0], rgb.transpose(2, 0, 1))
    assert d.get_example('gray.png').shape == (1, 4, 5)
    d2 = pickle.loads(pickle.dumps(d))
    assert d2[1].shape == (1, 4, 5)
    m = datasets.MultiZippedImageDataset([zpath, zpath])
    assert len(m) == 4 and m[3].shape == (1, 4, 5)
    (tmp_path / 'labels.txt').write_text('gray.png 5\nsub/rgb.png 6\n')
    ld = datasets.LabeledZippedImageDataset(zpath,
                                            str(tmp_path / 'labels.txt'))
    x, t = ld[1]
    assert len(ld) == 2 and x.shape == (3, 4, 5) and t == 6


def test_concatenated_dataset_index_error_is_bare():
    # Chainer 7.8.1: a bare IndexError, negative indices included
    d = datasets.ConcatenatedDataset(list(range(2)), list(range(3)))
    for i in (-1, 5):
        with pytest.raises(IndexError) as e:
            d[i]
        assert str(e.value) == ''
