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
        numpy.testing.assert_array_equal(comm.bcast(mine if RANK == root else None,
                                                    root=root),
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
    # To itself: kept here, not sent through MPI (which would block on a
    # large message).
    big = numpy.arange(10 ** 6, dtype=numpy.float64)
    comm.send(big, RANK, 3)
    comm.send_obj({'big': big}, RANK, tag=4)
    numpy.testing.assert_array_equal(comm.recv(RANK, 3), big)
    numpy.testing.assert_array_equal(comm.recv_obj(RANK)['big'], big)
    with pytest.raises(RuntimeError, match='not sent to itself'):
        comm.recv(RANK, 3)
    sub = comm.split(RANK % 2, RANK)
    assert sub.size == len(range(RANK % 2, SIZE, 2)) and sub.rank == RANK // 2
    comm.finalize()
    with pytest.raises(RuntimeError, match='finalized'):
        comm.allreduce(mine)


@collective
def test_config_settings():
    comm = chainermn.create_communicator('flat', batched_copy=False)
    assert comm.get_config() == {'batched_copy': False} and not comm.batched_copy
    comm.set_config('batched_copy')
    assert comm.batched_copy and comm.get_config('batched_copy')
    with pytest.raises(ValueError, match='Unknown config'):
        comm.set_config('foo', 1)
    with pytest.raises(KeyError):
        comm.get_config('foo')
    with comm.config_scope():
        assert comm.within_config_scope
        comm.foo = 3  # declares a setting
    assert not comm.within_config_scope and comm.get_config('foo') == 3
    comm.set_config('foo', 4)
    assert comm.foo == 4
    comm.bar = 5  # outside the scope: a plain attribute
    assert 'bar' not in comm.get_config()
    with pytest.raises(AttributeError):
        comm.baz


@collective
def test_errors_on_every_rank():
    # Bad input gives the same error on every rank, and no rank waits.
    with pytest.raises(ValueError, match='same shape'):
        COMM.allreduce(numpy.ones(2 + RANK, numpy.float32))
    with pytest.raises(ValueError, match='same shape'):
        COMM.allreduce(numpy.ones(2, numpy.float32 if RANK else numpy.float64))
    with pytest.raises(ValueError, match='alltoall'):
        COMM.alltoall([numpy.ones(1)] * (SIZE - (RANK == 0)))
    with pytest.raises(ValueError, match='scatter'):
        COMM.scatter([numpy.ones(1)] * (SIZE + 1) if RANK == 0 else None)
    # Models that differ: the gradients cannot be averaged, nor the
    # parameters broadcast.
    model = L.Linear(3, 2 + (RANK == SIZE - 1))
    model.cleargrads()
    F.sum(model(numpy.ones((1, 3), numpy.float32))).backward()
    for name in ('naive', 'flat'):
        comm = chainermn.create_communicator(name)
        with pytest.raises(ValueError, match='different parameters.*W'):
            comm.multi_node_mean_grad(model)
        with pytest.raises(ValueError, match='different parameters'):
            comm.bcast_data(model)
    # A gradient missing on one rank, without zero_fill.
    model = L.Linear(3, 2)
    model.cleargrads()
    model.W.grad = numpy.ones_like(model.W.array)
    if RANK == 0:
        model.b.grad = numpy.ones_like(model.b.array)
    with pytest.raises(ValueError, match=r"rank 0: \('/b', \(2,\).*rank 1: \(none\)"):
        COMM.multi_node_mean_grad(model, zero_fill=False)
    # A dataset smaller than the number of ranks: each rank gets it whole
    # with force_equal_length (Chainer's default and behaviour); without it
    # some ranks would get nothing, so every rank refuses.
    small = list(range(SIZE - 1))
    shares = COMM.gather_obj(list(chainermn.scatter_dataset(small if RANK == 0 else None,
                                                            COMM)))
    if RANK == 0:
        assert all(len(s) == 1 for s in shares) and set(sum(shares, [])) == set(small)
    assert list(chainermn.scatter_dataset([] if RANK == 0 else None, COMM)) == []
    with pytest.raises(chainermn.DataSizeError, match='force_equal_length'):
        chainermn.scatter_dataset(small if RANK == 0 else None, COMM, force_equal_length=False)
    with pytest.raises(chainermn.DataSizeError):
        chainermn.datasets.scatter_index(SIZE - 1, COMM, force_equal_length=False)
    # A finalized communicator refuses every use, on every rank.
    comm = chainermn.create_communicator('naive')
    comm.finalize()
    for use in (lambda: comm.bcast_obj(1), lambda: comm.send_obj(1, 0),
                lambda: comm.multi_node_mean_grad(model), lambda: comm.bcast_data(model),
                lambda: comm.gather(numpy.ones(1)), lambda: comm.split(0, RANK),
                lambda: chainermn.scatter_dataset([1] * SIZE, comm)):
        with pytest.raises(RuntimeError, match='finalized'):
            use()


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
def test_send_of_an_array_still_takes_its_gradient():
    # An array (no gradient wanted) sent from rank 0: the receiver still
    # sends a gradient back, which the sender's backward must take, or it
    # would meet the next message from that rank in its place.
    if RANK == 0:
        x = numpy.ones(3, numpy.float32)
        d = chainermn.functions.send(x, COMM, 1)
        y, = chainermn.functions.pseudo_connect(d, chainer.Variable(x))
        F.sum(y).backward()
        assert d.creator.inputs[0].requires_grad is False
        numpy.testing.assert_array_equal(COMM.recv(1, 0), [7, 7])
    elif RANK == 1:
        F.sum(chainermn.functions.recv(COMM, 0) * 2).backward()
        COMM.send(numpy.full(2, 7, numpy.float32), 0, 0)


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
        shares = chainermn.datasets.scatter._scatter_index(len(dataset), SIZE, True)
        for part, (r, b, e) in zip(every, shares):
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
    # Shuffled by a generator of its own, which snapshots keep.
    it = chainer.iterators.SerialIterator(train, 4, order_sampler=(
        chainer.iterators.ShuffleOrderSampler(numpy.random.RandomState(10 + comm.rank))))
    updater = chainer.training.StandardUpdater(it, opt)
    trainer = chainer.training.Trainer(updater, (4, 'epoch'), out=out)
    for e in extension_list:
        trainer.extend(e[0], trigger=e[1]) if isinstance(e, tuple) else trainer.extend(e)
    return trainer, model, train


class _Crash(Exception):
    pass


def _crash_at(iteration):
    def crash(trainer):
        if trainer.updater.iteration == iteration:
            raise _Crash
    return crash


@collective
def test_checkpoint_resumes_bit_for_bit(tmp_path_factory):
    out = COMM.bcast_obj(str(tmp_path_factory.mktemp('cp')) if RANK == 0 else None)
    mine = 'cp-t-{}-'.format(RANK)
    # The reference: 12 iterations in one go.
    whole, whole_model, _ = _trainer(os.path.join(out, 'whole'), COMM)
    whole.run()
    # Checkpoints every 2 iterations (the newest 2 kept); a crash after the
    # 7th: the checkpoints stay.
    cp = chainermn.create_multi_node_checkpointer('t', COMM, cp_interval=2, gc_interval=1)
    crashed, _, _ = _trainer(out, COMM, [(cp, (2, 'iteration')), _crash_at(7)])
    with pytest.raises(_Crash):
        crashed.run()
    assert sorted(f for f in os.listdir(out) if f.startswith(mine)) == [mine + '4', mine + '6']
    # A new run resumes from iteration 6 on every rank and ends as the
    # uninterrupted one, bit for bit.
    cp2 = chainermn.create_multi_node_checkpointer('t', COMM, cp_interval=2, gc_interval=1)
    resumed, model, _ = _trainer(out, COMM, [(cp2, (2, 'iteration'))])
    cp2.maybe_load(resumed, resumed.updater.get_optimizer('main'))
    assert resumed.updater.iteration == 6
    resumed.run()
    assert resumed.updater.iteration == whole.updater.iteration == 12
    for (n, p), (_, q) in zip(sorted(whole_model.namedparams()), sorted(model.namedparams())):
        numpy.testing.assert_array_equal(p.array, q.array, err_msg=n)
    s1 = whole.updater.get_optimizer('main').actual_optimizer
    s2 = resumed.updater.get_optimizer('main').actual_optimizer
    assert s1.t == s2.t == 11  # the first iteration broadcasts rank 0's parameters
    numpy.testing.assert_array_equal(s1.target.predictor.l1.W.update_rule.state['v'],
                                     s2.target.predictor.l1.W.update_rule.state['v'])
    # Parameters agree across ranks.
    numpy.testing.assert_array_equal(COMM.bcast(model.predictor.l1.W.array),
                                     model.predictor.l1.W.array)
    # A run that ends without an error removes its checkpoints.
    assert not [f for f in os.listdir(out) if f.startswith(mine)]


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


@pytest.mark.parametrize('name', ['naive', 'flat'])
@collective
def test_double_buffering_steps_with_the_previous_mean(name):
    # Each update steps with the mean gradient of the iteration before, so
    # one process reproduces it on the concatenated batch by keeping the
    # previous gradient.
    comm = chainermn.create_communicator(name)
    b = 3
    xs = [data((b * SIZE, 4), 20 + i) for i in range(4)]
    t = (numpy.arange(b * SIZE) % 3).astype(numpy.int32)
    mine = slice(RANK * b, (RANK + 1) * b)
    numpy.random.seed(RANK)
    model = MLP()
    opt = chainermn.create_multi_node_optimizer(chainer.optimizers.MomentumSGD(), comm,
                                                double_buffering=True).setup(model)
    numpy.random.seed(0)
    single = MLP()
    single_opt = chainer.optimizers.MomentumSGD().setup(single)
    opt.update(lambda: F.softmax_cross_entropy(model(xs[0][mine]), t[mine]))  # broadcasts
    previous = None
    for x in xs:
        opt.update(lambda: F.softmax_cross_entropy(model(x[mine]), t[mine]))
        single.cleargrads()
        F.softmax_cross_entropy(single(x), t).backward()
        grads = {n: p.grad.copy() for n, p in single.namedparams()}
        if previous is not None:
            for n, p in single.namedparams():
                p.grad[...] = previous[n]
            single_opt.update()
        previous = grads
    opt.wait()
    assert opt.t == single_opt.t == len(xs) - 1
    for (n, p), (_, q) in zip(sorted(model.namedparams()), sorted(single.namedparams())):
        numpy.testing.assert_allclose(p.array, q.array, rtol=1e-5, atol=1e-6, err_msg=n)


@collective
def test_memory_utility_packs_and_unpacks():
    from chainermn.communicators import _memory_utility as mu
    model = MLP()
    model.cleargrads()
    model.l1.W.grad = numpy.full_like(model.l1.W.array, 2.)
    params = mu.extract_params_set_grad(model, zero_fill=False)
    assert [p.name for p in params] == ['W']
    assert mu.count_grad_elements(mu.extract_params_set_data(model), zero_fill=True) == \
        sum(p.size for p in model.params())
    params = mu.extract_params_set_data(model)
    buf = mu.HostPinnedMemory()
    n = mu.count_grad_elements(params, zero_fill=True)
    buf.assign(n * 8)
    mu.pack_params(params, 'grad', buf, numpy.float64, zero_fill=True)
    flat = buf.array(n, dtype=numpy.float64)
    assert flat.sum() == 2 * model.l1.W.size  # the missing gradients packed as zeros
    flat += RANK
    COMM.mpi_comm.Allreduce(mu._util.get_mpi().IN_PLACE, mu.array_to_buffer_object(
        flat, mu._util.get_mpi().DOUBLE))
    mu.unpack_params(params, 'grad', buf, numpy.float64, zero_fill=True)
    want = SIZE * (SIZE - 1) / 2
    numpy.testing.assert_array_equal(model.l1.W.grad, 2 * SIZE + want)
    numpy.testing.assert_array_equal(model.l2.b.grad, want)
    assert model.l2.b.grad.dtype == numpy.float32
    with pytest.raises(RuntimeError, match='CuPy'):
        mu.DeviceMemory()


class _Twice(chainer.Chain):
    def __init__(self, n_in, n_out):
        super().__init__()
        with self.init_scope():
            self.l = L.Linear(n_in, n_out)

    def forward(self, *xs):
        return F.tanh(self.l(sum(xs[1:], xs[0])))


@collective
def test_multi_node_chain_list_branches_and_self_sends():
    # Rank 0 sends to itself and to every other rank, which send back; the
    # sum goes into the last layer: the same model in one process gives the
    # same output and gradients.
    numpy.random.seed(0)
    first, middle, last = L.Linear(3, 4), _Twice(4, 4), _Twice(4, 2)
    others = [_Twice(4, 4) for _ in range(1, SIZE)]
    x = data((5, 3), 30)
    h = F.tanh(first(x))
    y_ref = last(middle(h), *[o(h) for o in others])
    model = chainermn.MultiNodeChainList(COMM)
    if RANK == 0:
        ranks = list(range(SIZE))
        model.add_link(chainer.Sequential(first, F.tanh), rank_in=None, rank_out=ranks)
        model.add_link(middle, rank_in=0, rank_out=0)
        model.add_link(last, rank_in=ranks, rank_out=None)
        model.cleargrads()
        y = model(x)
        numpy.testing.assert_allclose(y.array, y_ref.array, rtol=1e-5)
        F.sum(y * y).backward()
        with pytest.raises(ValueError, match='only one component'):
            model.add_link(L.Linear(1, 1), rank_in=None, rank_out=None)
    else:
        model.add_link(others[RANK - 1], rank_in=0, rank_out=0)
        model.cleargrads()
        model().backward()
    grads = {n: p.grad.copy() for n, p in model.namedparams()}
    for link in [first, middle, last] + others:
        link.cleargrads()
    F.sum(y_ref * y_ref).backward()
    mine = [first, middle, last] if RANK == 0 else [others[RANK - 1]]
    for link, prefix in zip(mine, ('/0/0', '/1', '/2') if RANK == 0 else ('/0',)):
        for n, p in link.namedparams():
            numpy.testing.assert_allclose(grads[prefix + n], p.grad, rtol=1e-4, atol=1e-6)


@collective
def test_multi_node_iterator_state_and_types():
    it = chainermn.iterators.create_multi_node_iterator(
        chainer.iterators.SerialIterator(numpy.arange(6, dtype=numpy.float32), 2)
        if RANK == 0 else None, COMM)
    first = [next(it), next(it)]
    assert it.epoch_detail == pytest.approx(4 / 6) and not it.is_new_epoch
    saved = {}
    it.serialize(chainer.serializers.DictionarySerializer(saved))
    # Every rank's snapshot holds the master's position and order: a plain
    # iterator resumes from any of them.
    plain = chainer.iterators.SerialIterator(numpy.arange(6, dtype=numpy.float32), 2)
    plain.serialize(chainer.serializers.NpzDeserializer(saved))
    rest = plain.next()
    assert plain.is_new_epoch
    assert sorted(numpy.concatenate(first + [rest]).tolist()) == list(range(6))
    it = chainermn.iterators.create_multi_node_iterator(
        chainer.iterators.SerialIterator(['a', 'b'], 1) if RANK == 0 else None, COMM)
    with pytest.raises(TypeError, match='numeric'):
        next(it)


@collective
def test_generic_evaluator_against_numpy():
    class Squares(chainermn.extensions.GenericMultiNodeEvaluator):
        def calc_local(self, x):
            return float((x ** 2).sum()), len(x)

        def aggregate(self, results):
            return sum(s for s, _ in results) / sum(n for _, n in results)

    values = data(7 * SIZE + 1, 31)
    mine = values[RANK::SIZE]
    it = chainer.iterators.SerialIterator(mine, 2, repeat=False, shuffle=False)
    got = Squares(COMM, it, None, root=SIZE - 1)()
    if RANK == SIZE - 1:
        assert got == pytest.approx(float((values.astype(numpy.float64) ** 2).mean()), rel=1e-6)
    else:
        assert got is None
    # The default aggregate: every batch's result, batch by batch across ranks.
    hooked = []
    ev = chainermn.extensions.GenericMultiNodeEvaluator(
        COMM, it, lambda x: x * 2, progress_hook=hooked.append)
    got = ev(None)
    it.reset()
    lists = COMM.gather_obj([numpy.asarray(x) * 2 for x in it])
    if RANK == 0:
        want = [b for i in range(max(map(len, lists))) for b in
                (lst[i] for lst in lists if i < len(lst))]
        assert len(got) == len(want) and len(hooked) == len(lists[0])
        for g, w in zip(got, want):
            numpy.testing.assert_array_equal(g, w)


@collective
def test_mixed_dtypes_in_multi_node_batch_normalization():
    # float16 input with float32 parameters (mixed16), and float64 input
    # with float32 parameters: statistics in float32 at least, output in the
    # input's dtype, against one process on the whole batch.
    for dtype, rtol in ((numpy.float16, 1e-2), (numpy.float64, 1e-5)):
        b = 4
        x_all = (data((b * SIZE, 3), 40) * 2 + 1).astype(dtype)
        mine = slice(RANK * b, (RANK + 1) * b)
        bn = L.BatchNormalization(3, dtype=numpy.float32)
        mnbn = chainermn.links.MultiNodeBatchNormalization(3, COMM, dtype=numpy.float32)
        y_ref = bn(x_all.astype(numpy.float32))
        y = mnbn(x_all[mine])
        assert y.dtype == dtype and mnbn.gamma.dtype == numpy.float32
        numpy.testing.assert_allclose(y.array, y_ref.array[mine], rtol=rtol, atol=rtol)
        F.sum(y).backward()
        assert mnbn.gamma.grad.dtype == numpy.float32
    with pytest.raises(ValueError, match='pure_nccl'):
        chainermn.links.MultiNodeBatchNormalization(3, COMM, communication_backend='nccl')


@collective
def test_create_mnbn_model_everywhere():
    model = chainer.Sequential(L.Linear(2, 3), L.BatchNormalization(3), F.relu,
                               chainer.Sequential(L.BatchNormalization(3)))
    model[1].avg_mean[...] = 5
    mn = chainermn.links.create_mnbn_model(model, COMM)
    assert isinstance(mn[1], chainermn.links.MultiNodeBatchNormalization)
    assert isinstance(mn[3][0], chainermn.links.MultiNodeBatchNormalization)
    assert mn[2] is F.relu and not isinstance(model[1], chainermn.links.MultiNodeBatchNormalization)
    assert sorted(n for n, _ in mn.namedparams()) == sorted(n for n, _ in model.namedparams())
    assert (mn[1].avg_mean == 5).all() and mn[1].avg_mean is not model[1].avg_mean
    assert mn(numpy.ones((2, 2), numpy.float32)).shape == (2, 3)
    chain_list = chainermn.links.create_mnbn_model(
        chainer.ChainList(L.Linear(2, 3), L.BatchNormalization(3)), COMM)
    assert isinstance(chain_list[1], chainermn.links.MultiNodeBatchNormalization)
    assert chain_list[1].name == '1'


@collective
def test_observation_aggregator_keeps_the_kind():
    class Trainer:
        def __init__(self, value):
            self.observation = {'v': value}
            self.updater = type('U', (), {'iteration': 1, 'epoch': 0, 'epoch_detail': 0.1,
                                          'is_new_epoch': False,
                                          'previous_epoch_detail': 0.})()
    for value in (chainer.Variable(numpy.array(RANK, numpy.float32)),
                  numpy.array(RANK, numpy.float32),
                  float(RANK)):
        trainer = Trainer(value)
        chainermn.extensions.ObservationAggregator(COMM, 'v', 'mean')(trainer)
        mean = trainer.observation['mean']
        assert type(mean) is type(value)
        assert float(getattr(mean, 'array', mean)) == (SIZE - 1) / 2


@pytest.mark.parametrize('replica_sets', [[], [0]])
@collective
def test_multi_node_snapshot_autoloads_without_a_shared_folder(replica_sets, tmp_path_factory):
    # Each rank has an out folder of its own (as on hosts that share none):
    # only each set's master finds the file; the others get its content.
    out = COMM.bcast_obj(str(tmp_path_factory.mktemp('mns')) if RANK == 0 else None)
    trainer = type('T', (), {'out': os.path.join(out, str(RANK)),
                             'updater': type('U', (), {'iteration': 3})()})()
    os.makedirs(trainer.out)
    master = 0 if not replica_sets or RANK == 0 else 1

    def snapshot(link):
        return chainermn.extensions.multi_node_snapshot(
            COMM, extensions.snapshot_object(link, 'snap_{.updater.iteration}', autoload=True),
            replica_sets)

    saved = L.Linear(2, 3)
    saved.W.array[...] = RANK
    snapshot(saved)(trainer)
    assert os.listdir(trainer.out) == (['snap_3.{}'.format(RANK)] if RANK == master else [])
    loaded = L.Linear(2, 3)
    loaded.W.array[...] = -1
    snapshot(loaded).initialize(trainer)
    assert (loaded.W.array == master).all()
    # Nothing found: every rank keeps what it has.
    fresh = L.Linear(2, 3)
    before = fresh.W.array.copy()
    trainer.out = os.path.join(out, 'none{}'.format(RANK))
    snapshot(fresh).initialize(trainer)
    numpy.testing.assert_array_equal(fresh.W.array, before)
