#!/usr/bin/env python
"""Train the digits classifier of examples/mnist on several processes.

    mpiexec -n 2 python examples/chainermn/mnist/train_mnist.py
    mpiexec -n 2 python examples/chainermn/mnist/train_mnist.py --dataset mnist

Data parallelism with ChainerMN: every process holds the whole model and
trains on its own share of the data (``scatter_dataset``); the multi-node
optimizer averages the gradients over the processes before each step, so
they all keep the same parameters, and the multi-node evaluator averages the
validation scores. The data, the model and the settings are those of
``examples/mnist/train_mnist.py`` (scikit-learn's bundled 8x8 digits by
default, offline), with ``--batchsize`` images a process, so that the
processes together see the whole data set once an epoch. Only rank 0 prints
and writes the log, the plots and the snapshot into ``--out`` (the ranks
hold the same state); ``--autoload`` resumes every rank from it.
"""

import importlib.util
import os
import sys

import chainer
import chainer.links as L
import chainermn
from chainer import training
from chainer.training import extensions

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(HERE, os.pardir, os.pardir)
sys.path.insert(0, EXAMPLES)
import _common  # noqa: E402  (examples/_common.py)


def _single_process_example():
    """examples/mnist/train_mnist.py as a module (its model and data)."""
    spec = importlib.util.spec_from_file_location(
        'mnist_example', os.path.join(EXAMPLES, 'mnist', 'train_mnist.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def parse_args(argv=None):
    parser = _common.make_parser('chainer-ng example: MNIST on several processes',
                                 batchsize=100, epoch=20, out='result')
    parser.add_argument('--communicator', type=str, default=None,
                        help="ChainerMN communicator: naive, flat (the CPU's default) "
                             'or pure_nccl (the GPU default)')
    parser.add_argument('--unit', '-u', type=int, default=1000,
                        help='number of units in each hidden layer')
    _common.add_data_options(parser)
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    device = chainer.get_device(args.device)
    name = args.communicator or ('flat' if device.xp is chainer.backend.numpy
                                 else 'pure_nccl')
    comm = chainermn.create_communicator(name)
    if device.xp is not chainer.backend.numpy:
        # One GPU a process: the rank on its node picks it.
        device = chainer.get_device('@cupy:{}'.format(comm.intra_rank))
    mnist = _single_process_example()
    if comm.rank == 0:
        _common.print_settings(device, args, '# unit: {}\n# processes: {} ({})'.format(
            args.unit, comm.size, name))

    model = L.Classifier(mnist.MLP(args.unit, 10))
    model.to_device(device)
    device.use()
    optimizer = chainermn.create_multi_node_optimizer(chainer.optimizers.Adam(), comm)
    optimizer.setup(model)

    # Rank 0 reads the data; every rank gets its own share of it.
    train, test = mnist.get_dataset(args.dataset) if comm.rank == 0 else (None, None)
    train = chainermn.scatter_dataset(train, comm, shuffle=True)
    test = chainermn.scatter_dataset(test, comm, shuffle=True)
    train_iter = chainer.iterators.SerialIterator(train, args.batchsize)
    test_iter = chainer.iterators.SerialIterator(test, args.batchsize,
                                                 repeat=False, shuffle=False)

    updater = training.updaters.StandardUpdater(train_iter, optimizer, device=device)
    trainer = training.Trainer(updater, (args.epoch, 'epoch'), out=args.out)
    evaluator = extensions.Evaluator(test_iter, model, device=device)
    trainer.extend(chainermn.create_multi_node_evaluator(evaluator, comm))
    # The ranks hold the same state: rank 0 writes it, every rank resumes from it.
    snapshot = extensions.snapshot(filename='snapshot_iter_{.updater.iteration}',
                                   n_retains=1, autoload=args.autoload)
    trainer.extend(chainermn.extensions.multi_node_snapshot(comm, snapshot, []),
                   trigger=(args.epoch, 'epoch'))
    if comm.rank == 0:
        trainer.extend(extensions.LogReport())
        if args.plot and extensions.PlotReport.available():
            for keys, filename in mnist.CLASSIFIER_PLOTS:
                trainer.extend(extensions.PlotReport(keys, 'epoch', filename=filename))
        trainer.extend(extensions.PrintReport(mnist.CLASSIFIER_REPORT))
    if args.resume is not None:
        chainer.serializers.load_npz(args.resume, trainer)
    trainer.run()
    return trainer


if __name__ == '__main__':
    main()
