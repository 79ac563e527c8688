import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op


def _ref(out_shape, mode, align_corners):
    """A direct per-pixel reference."""
    def coords(n_in, n_out):
        out = []
        for i in range(n_out):
            if mode == 'nearest':
                out.append(min(int(numpy.floor(i * n_in / n_out)), n_in - 1))
            elif align_corners:
                out.append(i * (n_in - 1) / (n_out - 1) if n_out > 1 else 0.)
            else:
                p = (i + 0.5) * n_in / n_out - 0.5
                out.append(min(max(p, 0.), n_in - 1))
        return out

    def interp(row, p):
        lo = int(numpy.floor(p))
        hi = min(lo + 1, len(row) - 1)
        return row[lo] * (1 - (p - lo)) + row[hi] * (p - lo)

    def f(x):
        n, c, h, w = x.shape
        ys, xs = coords(h, out_shape[0]), coords(w, out_shape[1])
        y = numpy.empty((n, c) + tuple(out_shape))
        for i, p in enumerate(ys):
            for j, q in enumerate(xs):
                if mode == 'nearest':
                    y[:, :, i, j] = x[:, :, p, q]
                else:
                    cols = [interp(x[:, :, :, k].T, p).T for k in range(w)]
                    y[:, :, i, j] = interp(cols, q)
        return y
    return f


@pytest.mark.parametrize('in_hw,out_hw', [((3, 4), (5, 2)), ((2, 2), (1, 1)),
                                          ((1, 3), (2, 7))])
@pytest.mark.parametrize('mode,align', [('bilinear', True),
                                        ('bilinear', False),
                                        ('nearest', True)])
def test_resize_images(in_hw, out_hw, mode, align):
    check_op(lambda x: F.resize_images(x, out_hw, mode=mode,
                                       align_corners=align),
             lambda rng, dt: (rng.randn(2, 1, *in_hw).astype(dt),),
             _ref(out_hw, mode, align))


def test_resize_images_values():
    x = numpy.arange(4, dtype=numpy.float32).reshape(1, 1, 2, 2)
    y = F.resize_images(x, (3, 3))
    assert type(y.creator).__name__ == 'ResizeImages'
    numpy.testing.assert_allclose(y.array[0, 0], [[0, .5, 1], [1, 1.5, 2],
                                                  [2, 2.5, 3]])
    y = F.resize_images(x, (1, 1), align_corners=False)
    numpy.testing.assert_allclose(y.array.ravel(), [1.5])
    y = F.resize_images(x, (3, 4), mode='nearest')
    numpy.testing.assert_array_equal(y.array[0, 0], [[0, 0, 1, 1]] * 2 +
                                     [[2, 2, 3, 3]])


def test_resize_images_errors():
    x = numpy.zeros((1, 1, 2, 2), numpy.float32)
    with pytest.raises(InvalidType, match='x.ndim == 4'):
        F.resize_images(x[0], (3, 3))
    with pytest.raises(InvalidType, match='dtype.kind == f'):
        F.resize_images(x.astype(numpy.int32), (3, 3))
    with pytest.raises(ValueError, match='mode'):
        F.resize_images(x, (3, 3), mode='bicubic')
    with pytest.raises(ValueError, match='output_shape'):
        F.resize_images(x, (3,))
    with pytest.raises(TypeError):
        F.resize_images(x, (3, 3), 'nearest')


def test_bilinear_rounds_as_chainer():
    # Chainer 7.8.1's CPU interpolation: four weighted neighbours summed
    # by einsum (its values)
    rs = numpy.random.RandomState(0)
    x = rs.randn(1, 1, 3, 4).astype(numpy.float32)
    y = F.resize_images(x, (4, 6))
    assert y.array.ravel()[:8].tolist() == [
        1.764052391052246, 0.9457151889801025, 0.515873372554779,
        0.8630218505859375, 1.48360013961792, 2.2408931255340576,
        1.8330562114715576, 0.4223426878452301]
    y = F.resize_images(x, (5, 3), align_corners=False)
    assert y.array.ravel()[:5].tolist() == [
        1.5367364883422852, 0.6894476413726807, 2.030534029006958,
        1.4794093370437622, 0.40823066234588623]


def test_bilinear_gradient_rounds_as_chainer():
    # Chainer's CPU gradient: the weighted gy summed by bincount (float64)
    rs = numpy.random.RandomState(0)
    x = chainer.Variable(rs.randn(1, 1, 3, 4).astype(numpy.float32))
    y = F.resize_images(x, (4, 6))
    F.sum(y * y.array).backward()
    assert x.grad.ravel()[:6].tolist() == [
        2.8096694946289062, 1.2221187353134155, 2.0128440856933594,
        3.1609139442443848, 2.18854022026062, 0.12101532518863678]
