import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType
from op_harness import check_op, on_device

F_ = F.discriminative_margin_based_clustering_loss
LAB = numpy.array([[[1, 1, 0], [2, 2, 1]], [[0, 2, 2], [3, 2, 0]]], numpy.int32)


def _ref(emb, lab, dv, dd, m, norm, alpha=1., beta=1., gamma=1e-3):
    b, c = emb.shape[:2]
    e = emb.reshape(b, c, -1)
    la = lab.reshape(b, -1)
    nrm = (lambda v, ax: abs(v).sum(ax)) if norm == 1 else \
        (lambda v, ax: numpy.sqrt((v ** 2).sum(ax)))
    mus = numpy.zeros((b, m, c))
    num, den = numpy.zeros(m), numpy.zeros(m)
    for i in range(b):
        for k in range(m):
            sel = la[i] == k + 1
            if sel.any():
                mus[i, k] = e[i][:, sel].mean(1)
            d = nrm(e[i][:, sel] - mus[i, k][:, None], 0)
            num[k] += (numpy.maximum(d - dv, 0) ** 2).sum()
            den[k] += sel.sum()
    var = numpy.mean([n / d if d else 0 for n, d in zip(num, den)])
    dist = sum(numpy.maximum(2 * dd - nrm(mus[i, p] - mus[i, q], 0), 0) ** 2
               for i in range(b) for p in range(m) for q in range(m) if p != q)
    dist /= b * m * (m - 1)
    reg = sum(nrm(mus[:, k].ravel(), 0) for k in range(m)) / (m * b)
    return alpha * var, beta * dist, gamma * reg


@pytest.mark.parametrize('norm', [1, 2])
def test_discriminative_loss(norm):
    check_op(lambda e: F_(e, on_device(LAB), 0.5, 1.5, 2, norm, 2., 3., 0.1),
             lambda rng, dt: (rng.randn(2, 2, 2, 3).astype(dt),),
             lambda e: _ref(e, LAB, 0.5, 1.5, 2, norm, 2., 3., 0.1),
             fwd_tol={numpy.float16: dict(atol=2e-2, rtol=2e-2)},
             bwd_tol={numpy.float16: dict(atol=2e-1, rtol=2e-1)})


def test_chainer_values_and_finite_grad():
    rng = numpy.random.RandomState(1)
    emb = rng.randn(2, 2, 2, 3)
    lab = rng.randint(0, 4, (2, 2, 3)).astype(numpy.int32)
    ys = F_(emb, lab, 0.5, 1.5, 2, norm=2, alpha=2., beta=3., gamma=.1)
    # Chainer 7.8.1 gives these
    numpy.testing.assert_allclose([float(y.array) for y in ys],
                                  [0.417063, 7.859662, 0.082332], rtol=1e-5)
    # Absent clusters (zero means) give zero distances: no NaN gradient.
    v = chainer.Variable(emb.astype(numpy.float32))
    ys = F_(v, numpy.zeros_like(lab), 0.5, 1.5, 2, norm=2)
    (ys[0] + ys[1] + ys[2]).backward()
    assert numpy.isfinite(v.grad).all()


def test_errors():
    emb = numpy.zeros((2, 2, 2, 3), numpy.float32)
    with pytest.raises(ValueError, match='norm can only be 1 or 2'):
        F_(emb, LAB, 0.5, 1.5, 2, norm=3)
    with pytest.raises(ValueError, match='has to be positive'):
        F_(emb, LAB, 0.5, 1.5, 0)
    with pytest.raises(ValueError, match='max_embedding_dim \\(3\\)'):
        F_(emb, LAB, 0.5, 1.5, 3)
    with pytest.raises(InvalidType, match='labels.dtype.kind == i'):
        F_(emb, LAB.astype(numpy.float32), 0.5, 1.5, 2)
    with pytest.raises(InvalidType, match='labels: \\(B, H, W\\)'):
        F_(emb, LAB[:, :1], 0.5, 1.5, 2)
