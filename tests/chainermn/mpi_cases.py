"""Cases run on every rank by ``mpiexec -n N python -m pytest mpi_cases.py``
(test_chainermn.py starts them). Each case is collective: all ranks run it,
and a failure on any rank fails it on all, so that no rank waits for one
that gave up."""

import functools
import os

import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L
import chainermn
from chainer import gradient_check, testing
from chainer.training import extensions

COMM = chainermn.create_communicator('naive')
RANK, SIZE = COMM.rank, COMM.size


def collective(f):
    @functools.wraps(f)
    def run(*args, **kwargs):
        error = None
        try:
            f(*args, **kwargs)
        except BaseException as e:  # noqa: B036
            error = e
        failed = COMM.gather_obj(error is not None)
        failed = COMM.bcast_obj(failed)
        if error is not None:
            raise error
        if any(failed):
            raise AssertionError('failed on rank(s) {}'.format(
                [r for r, b in enumerate(failed) if b]))
    return run


def data(shape, seed, dtype=numpy.float32):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(dtype)


@pytest.mark.parametrize('name', ['naive', 'flat'])
@collective
def test_collectives_against_numpy(name):
    comm = chainermn.create_communicator(name)
    assert (comm.rank, comm.size, comm.intra_size, comm.inter_size) == (RANK, SIZE, SIZE, 1)
    every = [data((3, 2), r) for r in range(SIZE)]
    mine = every[RANK]
    for dtype in (numpy.float16, numpy.float32, numpy.float64, numpy.int32):
        got = comm.allreduce(mine.astype(dtype) if dtype != numpy.int32 else
                             numpy.arange(4, dtype=dtype) * RANK)
        want = sum(x.astype(dtype) for x in every) if dtype != numpy.int32 else \
            numpy.arange(4) * sum(range(SIZE))
        assert got.dtype == dtype
        numpy.testing.assert_allclose(got, want, rtol=1e-2 if dtype == numpy.float16 else 1e-6)
    for root in range(SIZE):
        numpy.testing.assert_array_equal(comm.bcast(mine if RANK == root else None, root),
                                         every[root])
        g = comm.gather(mine, root)
        if RANK == root:
            numpy.testing.assert_array_equal(numpy.stack(g), numpy.stack(every))
        else:
            assert g is None
        parts = numpy.stack([data(4, 100 + root + i) for i in range(SIZE)])
        numpy.testing.assert_array_equal(comm.scatter(parts if RANK == root else None, root),
                                         parts[RANK])
    numpy.testing.assert_array_equal(numpy.stack(comm.allgather(mine)), numpy.stack(every))
    sent = [numpy.full((2, 1 + j), 10 * RANK + j, numpy.int64) for j in range(SIZE)]
    got = comm.alltoall(sent)
    for j in range(SIZE):
        numpy.testing.assert_array_equal(got[j], numpy.full((2, 1 + RANK), 10 * j + RANK))
    # A ring of sends.
    nxt, prv = (RANK + 1) % SIZE, (RANK - 1) % SIZE
    if RANK % 2 == 0:
        comm.send((mine, mine.astype(numpy.float16)), nxt, 5)
        got = comm.recv(prv, 5)
    else:
        got = comm.recv(prv, 5)
        comm.send((mine, mine.astype(numpy.float16)), nxt, 5)
    numpy.testing.assert_array_equal(got[0], every[prv])
    assert got[1].dtype == numpy.float16
    assert comm.allreduce_obj(RANK + 1) == SIZE * (SIZE + 1) // 2
    assert comm.bcast_obj({'r': RANK} if RANK == 0 else None) == {'r': 0}
    assert comm.gather_obj(RANK) == (list(range(SIZE)) if RANK == 0 else None)
    sub = comm.split(RANK % 2, RANK)
    assert sub.size == len(range(RANK % 2, SIZE, 2)) and sub.rank == RANK // 2
    comm.finalize()
    with pytest.raises(RuntimeError, match='finalized'):
        comm.allreduce(mine)


@collective
def test_errors_on_every_rank():
    with pytest.raises(ValueError, match='same shape'):
        COMM.allreduce(numpy.ones(2 + RANK, numpy.float32))
    with pytest.raises(ValueError, match='alltoall'):
        COMM.alltoall([numpy.ones(1)] * (SIZE - (RANK == 0)))
    with pytest.raises(chainermn.DataSizeError):
        chainermn.scatter_dataset(list(range(SIZE - 1)), COMM)


class MLP(chainer.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(4, 5)
            self.l2 = L.Linear(5, 3)

    def forward(self, x):
        return self.l2(F.tanh(self.l1(x)))


@pytest.mark.parametrize('name', ['naive', 'flat'])
@pytest.mark.parametrize('optimizer', ['SGD', 'MomentumSGD', 'Adam'])
@collective
def test_data_parallel_equals_one_process(name, optimizer):
    comm = chainermn.create_communicator(name)
    b = 4
    x = data((b * SIZE, 4), 1)
    t = numpy.random.RandomState(2).randint(0, 3, b * SIZE).astype(numpy.int32)
    numpy.random.seed(RANK)  # different initial weights: rank 0's are broadcast
    model = MLP()
    opt = chainermn.create_multi_node_optimizer(getattr(chainer.optimizers, optimizer)(),
                                                comm).setup(model)
    numpy.random.seed(0)
    single = MLP()
    single_opt = getattr(chainer.optimizers, optimizer)().setup(single)
    mine = slice(RANK * b, (RANK + 1) * b)
    opt.update(lambda: F.softmax_cross_entropy(model(x[mine]), t[mine]))  # broadcasts
    for _ in range(3):
        opt.update(lambda: F.softmax_cross_entropy(model(x[mine]), t[mine]))
        single_opt.update(lambda: F.softmax_cross_entropy(single(x), t))
    for (n1, p1), (n2, p2) in zip(sorted(model.namedparams()), sorted(single.namedparams())):
        numpy.testing.assert_allclose(p1.array, p2.array, rtol=1e-5, atol=1e-6, err_msg=n1)
    assert opt.t == single_opt.t == 3


@collective
def test_mean_grad_zero_fill_and_debug():
    model = MLP()
    model.cleargrads()
    for _, p in model.namedparams():
        p.grad = numpy.full_like(p.array, RANK)
    model.l2.b.grad = None if RANK % 2 else numpy.full(3, RANK + 1., numpy.float32)
    COMM.multi_node_mean_grad(model, zero_fill=True)
    numpy.testing.assert_allclose(model.l1.W.grad, (SIZE - 1) / 2)
    numpy.testing.assert_allclose(model.l2.b.grad,
                                  sum(r + 1 for r in range(0, SIZE, 2)) / SIZE)
    model.l1.W.grad[0, 0] = numpy.nan
    with chainer.using_config('debug', True), pytest.raises(ValueError, match='diverged'):
        COMM.multi_node_mean_grad(model)


@collective
def test_send_recv_gradient_check():
    other = SIZE - 1 - RANK if RANK in (0, SIZE - 1) else None

    def f(x):
        # x goes to the other rank, which squares it and sends it back.
        d1 = chainermn.functions.send(x, COMM, other)
        x2 = chainermn.functions.recv(COMM, other, delegate_variable=d1)
        d2 = chainermn.functions.send(x2 * x2, COMM, other)
        return chainermn.functions.recv(COMM, other, delegate_variable=d2)

    if other is None:
        return
    x = data((3, 2), RANK, numpy.float64)
    gy = data((3, 2), 10 + RANK, numpy.float64)
    gradient_check.check_backward(f, x, gy, dtype=numpy.float64, atol=1e-6, rtol=1e-5)


@collective
def test_collective_functions_gradient_check():
    x = data((2, 3), RANK, numpy.float64)
    gy = data((2, 3), 20 + RANK, numpy.float64)
    fn = chainermn.functions
    # Each output depends on this rank's input only, so the numerical
    # gradient sees what backward computes.
    gradient_check.check_backward(lambda v: fn.allgather(COMM, v)[RANK] ** 2, x, gy,
                                  dtype=numpy.float64)
    # gather then scatter: each rank gets its own x back; the gradient of
    # sum(y * w) comes back to each rank's x as w.
    v = chainer.Variable(x)
    d = fn.gather(COMM, v, 0)
    y = fn.scatter(COMM, d if RANK == 0 else None, 0)
    numpy.testing.assert_array_equal(y.array, x)
    F.sum(y * gy).backward()
    if RANK != 0:
        d.backward()
    numpy.testing.assert_array_equal(v.grad, gy)
    xs = tuple(data((2,), 30 + RANK * SIZE + j, numpy.float64) for j in range(SIZE))
    gys = tuple(data((2,), 40 + RANK * SIZE + j, numpy.float64) for j in range(SIZE))
    gradient_check.check_backward(
        lambda *vs: tuple(z * z for z in fn.alltoall(COMM, fn.alltoall(COMM, vs))),
        xs, gys, dtype=numpy.float64)
    # bcast: the root's gradient is the sum of every rank's.
    v = chainer.Variable(x)
    y = fn.bcast(COMM, v if RANK == 0 else None, 0)
    numpy.testing.assert_array_equal(y.array, data((2, 3), 0, numpy.float64))
    F.sum(y * (RANK + 1)).backward()
    if RANK == 0:
        numpy.testing.assert_allclose(v.grad, numpy.full((2, 3), SIZE * (SIZE + 1) / 2))


@collective
def test_multi_node_batch_normalization_equals_full_batch():
    b = 3
    x_all = data((b * SIZE, 4, 2), 5) * 3 + 1
    w_all = data((b * SIZE, 4, 2), 6)
    mine = slice(RANK * b, (RANK + 1) * b)
    bn = L.BatchNormalization(4)
    mnbn = chainermn.links.MultiNodeBatchNormalization(4, COMM)
    xf, x = chainer.Variable(x_all), chainer.Variable(x_all[mine].copy())
    yf = bn(xf)
    F.sum(yf * w_all).backward()
    y = mnbn(x)
    F.sum(y * w_all[mine]).backward()
    numpy.testing.assert_allclose(y.array, yf.array[mine], rtol=1e-4, atol=1e-5)
    numpy.testing.assert_allclose(x.grad, xf.grad[mine], rtol=1e-4, atol=1e-5)
    numpy.testing.assert_allclose(COMM.allreduce(mnbn.gamma.grad), bn.gamma.grad, rtol=1e-4)
    numpy.testing.assert_allclose(COMM.allreduce(mnbn.beta.grad), bn.beta.grad, rtol=1e-4)
    numpy.testing.assert_allclose(mnbn.avg_mean, bn.avg_mean, rtol=1e-5)
    numpy.testing.assert_allclose(mnbn.avg_var, bn.avg_var, rtol=1e-4)
    chain = chainer.Chain()
    with chain.init_scope():
        chain.fc, chain.bn = L.Linear(3, 4), bn
    model = chainermn.links.create_mnbn_model(chain, COMM)
    assert isinstance(model.bn, chainermn.links.MultiNodeBatchNormalization)
    assert not isinstance(chain.bn, chainermn.links.MultiNodeBatchNormalization)
    numpy.testing.assert_array_equal(model.bn.avg_mean, bn.avg_mean)


@collective
def test_multi_node_chain_list_equals_one_model():
    numpy.random.seed(0)
    first, second = L.Linear(3, 4), L.Linear(4, 2)
    x = data((5, 3), 7)
    y_ref = second(F.relu(first(x)))
    last = SIZE - 1
    model = chainermn.MultiNodeChainList(COMM)
    if RANK == 0:
        model.add_link(chainer.Sequential(first, F.relu), rank_in=None, rank_out=last)
    elif RANK == last:
        model.add_link(second, rank_in=0, rank_out=None)
    else:
        return
    out = model(chainer.Variable(x)) if RANK == 0 else model()
    if RANK == last:
        numpy.testing.assert_allclose(out.array, y_ref.array, rtol=1e-5)
        F.sum(out).backward()
    else:
        out.backward()
    F.sum(y_ref).backward()
    link = first if RANK == 0 else second
    mine = model[0][0] if RANK == 0 else model[0]
    numpy.testing.assert_allclose(mine.W.grad, link.W.grad / 2, rtol=1e-5)


@collective
def test_scatter_dataset_and_iterators():
    dataset = list(range(10 * SIZE + 1))
    share = chainermn.scatter_dataset(dataset if RANK == 0 else None, COMM, shuffle=True,
                                      seed=3)
    every = COMM.gather_obj(list(share))
    if RANK == 0:
        order = numpy.random.RandomState(3).permutation(len(dataset))
        for r, part in enumerate(every):
            b, e = chainermn.datasets.scatter._scatter_index(len(dataset), SIZE, r)
            assert part == [int(i) for i in order[b:e]]
    it = chainermn.iterators.create_multi_node_iterator(
        chainer.iterators.SerialIterator(list(range(7)), 3, repeat=False, shuffle=True)
        if RANK == 0 else None, COMM)
    batches = list(it)
    assert COMM.bcast_obj(batches if RANK == 0 else None) == batches
    assert sorted(sum(batches, [])) == list(range(7))
    it = chainermn.iterators.create_synchronized_iterator(
        chainer.iterators.SerialIterator(list(range(12)), 4, shuffle=True), COMM)
    mine = [next(it) for _ in range(5)]
    assert COMM.bcast_obj(mine if RANK == 0 else None) == mine


def _trainer(out, comm, extension_list=()):
    numpy.random.seed(0)
    model = L.Classifier(MLP())
    opt = chainermn.create_multi_node_optimizer(chainer.optimizers.Adam(), comm).setup(model)
    x = data((12 * comm.size, 4), 8)
    t = (numpy.arange(len(x)) % 3).astype(numpy.int32)
    train = chainermn.scatter_dataset(chainer.datasets.TupleDataset(x, t), comm, shuffle=True,
                                      seed=1)
    it = chainer.iterators.SerialIterator(train, 4, shuffle=True)
    updater = chainer.training.StandardUpdater(it, opt)
    trainer = chainer.training.Trainer(updater, (4, 'epoch'), out=out)
    for e in extension_list:
        trainer.extend(e)
    return trainer, model, train


@collective
def test_checkpoint_resumes_bit_for_bit(tmp_path_factory):
    out = COMM.bcast_obj(str(tmp_path_factory.mktemp('cp')) if RANK == 0 else None)
    cp = chainermn.create_multi_node_checkpointer('t', COMM, cp_interval=2, gc_interval=1)
    trainer, model, _ = _trainer(out, COMM, [cp])
    trainer.run()
    assert len([f for f in os.listdir(out) if f.startswith('cp-t-{}-'.format(RANK))]) == 2
    cp2 = chainermn.create_multi_node_checkpointer('t', COMM)
    trainer2, model2, _ = _trainer(out, COMM)
    cp2.maybe_load(trainer2)
    assert trainer2.updater.iteration == trainer.updater.iteration == 12
    for (n, p), (_, q) in zip(sorted(model.namedparams()), sorted(model2.namedparams())):
        numpy.testing.assert_array_equal(p.array, q.array, err_msg=n)
    s1 = trainer.updater.get_optimizer('main').actual_optimizer
    s2 = trainer2.updater.get_optimizer('main').actual_optimizer
    assert s1.t == s2.t
    numpy.testing.assert_array_equal(s1.target.predictor.l1.W.update_rule.state['m'],
                                     s2.target.predictor.l1.W.update_rule.state['m'])
    # Parameters agree across ranks.
    numpy.testing.assert_array_equal(COMM.bcast(model.predictor.l1.W.array),
                                     model.predictor.l1.W.array)


@collective
def test_evaluator_aggregator_and_early_stopping():
    x = data((4 * SIZE, 4), 9)
    t = (numpy.arange(len(x)) % 3).astype(numpy.int32)
    numpy.random.seed(0)
    model = L.Classifier(MLP())
    valid = chainermn.scatter_dataset(chainer.datasets.TupleDataset(x, t), COMM)
    ev = chainermn.create_multi_node_evaluator(extensions.Evaluator(
        chainer.iterators.SerialIterator(valid, 4, repeat=False, shuffle=False), model), COMM)
    reporter = chainer.Reporter()
    reporter.add_observer('main', model)
    with reporter:
        result = ev.evaluate()
    with chainer.using_config('train', False):
        want = float(model(x, t).array)
    testing.assert_allclose(float(result['main/loss']), want, rtol=1e-5)

    class Obs:
        observation = {'loss': float(RANK)}
    agg = chainermn.extensions.ObservationAggregator(COMM, 'loss', 'mean_loss')
    trainer = Obs()
    trainer.updater = type('U', (), {'iteration': 1, 'epoch': 0, 'epoch_detail': 0.1,
                                     'is_new_epoch': False, 'previous_epoch_detail': 0.})()
    agg(trainer)
    assert trainer.observation['mean_loss'] == (SIZE - 1) / 2
    persistent = chainermn.links.MultiNodeBatchNormalization(2, COMM)
    persistent.avg_mean[...] = RANK
    chainermn.extensions.AllreducePersistent(persistent, COMM)()
    numpy.testing.assert_allclose(persistent.avg_mean, (SIZE - 1) / 2)
