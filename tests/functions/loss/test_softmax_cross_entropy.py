import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.functions.loss import softmax_cross_entropy as sce_mod
from op_harness import check_op, on_device


def _log_softmax(x):
    m = x.max(axis=1, keepdims=True)
    return x - m - numpy.log(numpy.exp(x - m).sum(axis=1, keepdims=True))


def _ref(x, t, normalize=True, class_weight=None, reduce='mean'):
    log_y = _log_softmax(x)
    valid = t != -1
    tt = numpy.where(valid, t, 0)
    loss = -numpy.take_along_axis(log_y, tt[:, None], 1)[:, 0] * valid
    if class_weight is not None:
        loss = loss * class_weight[tt]
    if reduce == 'no':
        return loss
    count = valid.sum() if normalize else x.shape[0]
    return loss.sum() / max(count, 1)


T2 = numpy.array([0, -1, 2, 1], numpy.int32)
T3 = numpy.array([[0, 1], [2, -1]], numpy.int32)
CW = numpy.array([1., 2., 0.5])


@pytest.mark.parametrize('t', [T2, T3])
@pytest.mark.parametrize('kw', [
    {}, {'reduce': 'no'}, {'normalize': False}, {'class_weight': CW},
    {'class_weight': CW, 'reduce': 'no'}, {'cache_score': False},
])
def test_forward_backward(t, kw):
    shape = (t.shape[0], 3) + t.shape[1:]
    cw = kw.get('class_weight')

    def dev_kw():
        # class_weight on the inputs' device (the other options kept)
        return {k: on_device(v) for k, v in kw.items()}

    def f(x):
        return F.softmax_cross_entropy(x, on_device(t),
                                       enable_double_backprop=True, **dev_kw())

    def ref(x):
        return _ref(x, t, kw.get('normalize', True), cw,
                    kw.get('reduce', 'mean'))
    check_op(f, lambda rng, dt: (rng.randn(*shape).astype(dt),), ref)
    # The fast path (no double backprop) gives the same gradient.
    check_op(lambda x: F.softmax_cross_entropy(x, on_device(t), **dev_kw()),
             lambda rng, dt: (rng.randn(*shape).astype(dt),), None,
             double_backward=False)


def test_matches_chainer_values():
    x = numpy.random.RandomState(0).randn(2, 3, 2).astype(numpy.float32)
    y = F.softmax_cross_entropy(x, T3)
    numpy.testing.assert_allclose(y.array, 0.8381686, rtol=1e-6)
    y = F.softmax_cross_entropy(x, T3, normalize=False)
    numpy.testing.assert_allclose(y.array, 1.25725, rtol=1e-5)
    y = F.softmax_cross_entropy(x, T3, class_weight=numpy.array([1, 2, 3.]))
    numpy.testing.assert_allclose(y.array, 1.82611, rtol=1e-5)
    assert isinstance(y.creator, sce_mod.SoftmaxCrossEntropy)
    assert y.creator.label == 'SoftmaxCrossEntropy'


def test_large_logits_stable():
    x = chainer.Variable(numpy.array([[1e4, 0, -1e4], [1, 2, 3]],
                                     numpy.float32))
    y = F.softmax_cross_entropy(x, numpy.array([2, 0], numpy.int32))
    assert y.dtype == numpy.float32
    numpy.testing.assert_allclose(y.array, (2e4 + 2.40760596) / 2, rtol=1e-6)
    y.backward()
    assert numpy.isfinite(x.grad).all()
    numpy.testing.assert_allclose(x.grad[0], [0.5, 0, -0.5], atol=1e-6)


@pytest.mark.parametrize('kw', [{}, {'reduce': 'no'}])
@pytest.mark.parametrize('loss', ['cross-entropy', 'kl-divergence'])
def test_soft_target(kw, loss):
    def make(rng, dt):
        t = rng.uniform(0.1, 1, (3, 4, 2))
        return rng.randn(3, 4, 2).astype(dt), (t / t.sum(1, keepdims=True))

    def ref(x, t):
        y = -(t * _log_softmax(x)).sum(axis=1)
        if loss == 'kl-divergence':
            y = y + (t * numpy.log(t + 1e-7)).sum(axis=1)  # Chainer's eps
        return y if kw else y.mean()

    def f(x, t):
        return F.softmax_cross_entropy(x, on_device(t.astype(x.dtype)),
                                       soft_target_loss=loss,
                                       enable_double_backprop=True, **kw)
    check_op(lambda x: f(x, make(numpy.random.RandomState(0),
                                 numpy.float64)[1]),
             lambda rng, dt: (make(rng, dt)[0],),
             lambda x: ref(x, make(numpy.random.RandomState(0),
                                   numpy.float64)[1]))


def test_soft_target_kl_zero_entries():
    x = numpy.zeros((1, 3), numpy.float32)
    t = numpy.array([[0.5, 0.5, 0.]], numpy.float32)
    y = F.softmax_cross_entropy(x, t, soft_target_loss='kl-divergence')
    numpy.testing.assert_allclose(y.array, numpy.log(1.5), rtol=1e-6)


def test_soft_target_rounds_as_chainer():
    # Chainer 7.8.1: KL with log(t + 1e-7), and the mean as the float32 sum
    # times a Python float (float32 bits below).
    x = numpy.array([[0.5, -1., 2., 0.25], [1., 1.5, -0.5, 0.],
                     [-2., 0.75, 1.25, 0.5]], numpy.float32)
    t = F.softmax(x).array
    y = F.softmax_cross_entropy(x, t, soft_target_loss='kl-divergence')
    assert y.dtype == numpy.float32
    assert y.array.item() == 4.5902669398856233e-07
    rng = numpy.random.RandomState(0)
    x = rng.randn(3, 4).astype(numpy.float32)
    t = F.softmax(rng.randn(3, 4).astype(numpy.float32)).array
    assert F.softmax_cross_entropy(x, t).array.item() == 1.4383314847946167
    assert F.softmax_cross_entropy(
        x, t, soft_target_loss='kl-divergence').array.item() == \
        0.30620071291923523


def test_hard_labels_round_as_chainer():
    # Chainer 7.8.1's bits: log_y = x - (max + log(sum(exp))) with the
    # labels' entries picked, the mean as sum * float32(-1/n); the gradient
    # exp(log_y) - onehot, times the mean's coefficient.
    numpy.random.seed(0)
    x = chainer.Variable((numpy.random.randn(3, 4) * 3).astype(numpy.float32))
    t = numpy.random.randint(0, 4, 3).astype(numpy.int32)
    y = F.softmax_cross_entropy(x, t)
    y.backward()
    assert y.array.item() == 4.488715171813965
    assert F.softmax_cross_entropy(x, t, reduce='no').array.tolist() == [
        1.6662712097167969, 8.598714828491211, 3.2011592388153076]
    assert x.grad.tolist() == [
        [-0.27034991979599, 0.0010525191901251674, 0.005971084348857403,
         0.26332640647888184],
        [0.31260377168655396, -0.33327189087867737, 0.019936010241508484,
         0.0007321212324313819],
        [0.0029052854515612125, -0.3197616934776306, 0.006100184749811888,
         0.31075626611709595]]


def test_all_ignored_and_empty():
    x = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    y = F.softmax_cross_entropy(x, numpy.array([-1, -1], numpy.int32))
    assert float(y.array) == 0
    y.backward()
    assert not x.grad.any()
    y = F.softmax_cross_entropy(numpy.zeros((0, 3), numpy.float32),
                                numpy.zeros((0,), numpy.int32), reduce='no')
    assert y.shape == (0,)


def test_no_double_backprop_by_default():
    x = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    y = F.softmax_cross_entropy(x, numpy.array([0, 1], numpy.int32))
    gx, = chainer.grad([y], [x], enable_double_backprop=True)
    with pytest.raises(RuntimeError, match='enable_double_backprop'):
        F.sum(gx * gx).backward()


def test_errors():
    x = numpy.zeros((2, 3), numpy.float32)
    # Chainer 7.8.1's messages (NumPy's, word for word)
    with pytest.raises(IndexError, match=r'^index 5 is out of bounds for '
                       r'axis 0 with size 3$'):
        F.softmax_cross_entropy(x, numpy.array([0, 5], numpy.int32))
    with pytest.raises(IndexError, match=r'^index -6 is out of bounds for '
                       r'axis 0 with size 3$'):
        F.softmax_cross_entropy(numpy.zeros((2, 3, 4), numpy.float32),
                                numpy.array([[0, -6, 7, 2], [0, 0, 0, 0]],
                                            numpy.int32))
    with pytest.raises(IndexError, match='index -4 is out of bounds'):
        F.softmax_cross_entropy(x, numpy.array([-4, 0], numpy.int32))
    with chainer.using_config('debug', True):
        with pytest.raises(ValueError, match='t == -2`$'):
            F.softmax_cross_entropy(x, numpy.array([-1, 0], numpy.int32),
                                    ignore_label=-2)
    # Chainer's type check fails on its own ``if`` over an Expr when it
    # words the message: a RuntimeError for every bad input.
    msg = (r'^An Expr instance cannot be evaluated as bool\. Please use '
           r'chainer\.utils\.type_check\.eval\(\) to evaluate an '
           r'expression\.$')
    for bad_x, bad_t in [(x, numpy.array([0, 1, 1], numpy.int32)),
                         (x, numpy.array([0, 1, 1])),
                         (x, numpy.array([0., 1.], numpy.float32)),
                         (x, numpy.array([0, 1], numpy.uint8)),
                         (x.astype(numpy.int32),
                          numpy.array([0, 1], numpy.int32))]:
        with pytest.raises(RuntimeError, match=msg):
            F.softmax_cross_entropy(bad_x, bad_t)
    with pytest.raises(ValueError, match="'mean' and 'no'"):
        F.softmax_cross_entropy(x, numpy.array([0, 1], numpy.int32),
                                reduce='sum')
    with pytest.raises(ValueError, match='soft_target_loss'):
        F.softmax_cross_entropy(x, x, soft_target_loss='foo')
    with pytest.raises(ValueError, match='class_weight'):
        F.softmax_cross_entropy(x, numpy.array([0, 1], numpy.int32),
                                class_weight=numpy.ones(2, numpy.float32))


def test_close_to_float64():
    # The float32 loss and gradient within a few ulps of the float64
    # reference (the order of operations is not Chainer's, so its bits are
    # not kept); the gradient is (softmax - onehot) * gy / count.
    rs = numpy.random.RandomState(0)
    x = rs.randn(6, 5).astype(numpy.float32) * 3
    t = rs.randint(0, 5, 6).astype(numpy.int32)
    t[2] = -1
    x64 = x.astype(numpy.float64)
    log_y = _log_softmax(x64)
    valid = t != -1
    tt = t * valid
    log_p = log_y[numpy.arange(6), tt] * valid
    coeff = 1.0 / valid.sum()
    v = chainer.Variable(x)
    loss = F.softmax_cross_entropy(v, t)
    assert loss.dtype == numpy.float32
    numpy.testing.assert_allclose(loss.array, -log_p.sum() * coeff,
                                  rtol=1e-6)
    loss.grad = numpy.array(0.75, numpy.float32)
    loss.backward()
    y = numpy.exp(log_y)
    y[numpy.arange(6), tt] -= 1
    y *= valid[:, None]
    assert v.grad.dtype == numpy.float32
    numpy.testing.assert_allclose(v.grad, y * (0.75 * coeff), rtol=1e-6,
                                  atol=1e-7)
    no = F.softmax_cross_entropy(x, t, reduce='no').array
    numpy.testing.assert_allclose(no, -log_p, rtol=1e-6)


def test_negative_labels_are_refused():
    # Chainer read a label in [-n, 0) as an index (a silent wrong answer).
    x = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    with pytest.raises(IndexError, match='^index -2 is out of bounds'):
        F.softmax_cross_entropy(x, numpy.array([0, -2], numpy.int32))


@pytest.mark.parametrize('class_weight,match', [
    (numpy.array([[1., 1.]], numpy.float32), 'ndim should be 1'),
    (numpy.array([1, 1], numpy.int32), "dtype of class_weight should be 'f'"),
    (chainer.Variable(numpy.array([1., 1.], numpy.float32)),
     'not a chainer.Variable'),
])
def test_class_weight_is_checked_first(class_weight, match):
    # before the inputs (here even integer x), with Chainer's messages
    x = numpy.array([[0, 1], [2, 3]])
    with pytest.raises(ValueError, match=match):
        F.softmax_cross_entropy(x, numpy.array([0, 1]),
                                class_weight=class_weight)


def test_backward_as_hooks_see_it_in_chainer():
    # the loss keeps x and t for backward, and its gradient is the node
    # _SoftmaxCrossEntropyGrad_NoDoubleBackprop of (x, t, gy), as in Chainer
    seen = []

    class Hook(chainer.FunctionHook):
        def forward_preprocess(self, function, in_data):
            seen.append((function.label, len(in_data)))

        def backward_preprocess(self, function, in_data, out_grad):
            seen.append((function.label, [d is None for d in in_data]))

    x = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    t = numpy.array([0, 2], numpy.int32)
    loss = F.softmax_cross_entropy(x, t)
    with Hook():
        loss.backward()
    assert seen == [('SoftmaxCrossEntropy', [False, False]),
                    ('_SoftmaxCrossEntropyGrad_NoDoubleBackprop', 3)]
