"""What the digit examples share: their common command-line options, the
settings they print, and the standard Trainer setup (an iterator feeding a
StandardUpdater, with extensions that evaluate, snapshot, log, plot and print).

The scripts put this folder on ``sys.path`` to import it, so that each stays
runnable as ``python examples/<folder>/<script>.py``.
"""

import argparse

import chainer
from chainer import training
from chainer.training import extensions


def make_parser(description, batchsize, epoch, out,
                out_help='directory for the log, plots and snapshots'):
    """An argument parser with the options every example takes; a script adds
    its own, then calls :func:`add_data_options` last."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument('--batchsize', '-b', type=int, default=batchsize,
                        help='number of images in each mini-batch')
    parser.add_argument('--epoch', '-e', type=int, default=epoch,
                        help='number of sweeps over the data set to train')
    parser.add_argument('--device', '-d', type=str, default='-1',
                        help='device specifier: -1 or @numpy for the CPU, '
                             '@cupy:0 (or 0) for the first GPU')
    parser.add_argument('--out', '-o', default=out, help=out_help)
    parser.add_argument('--resume', '-r', type=str,
                        help='snapshot to resume the training from')
    parser.add_argument('--autoload', action='store_true',
                        help='resume from the latest snapshot found in --out')
    return parser


def add_data_options(parser, plot_help='do not write the loss and accuracy plots'):
    parser.add_argument('--dataset', choices=('digits', 'mnist'), default='digits',
                        help='digits: 8x8 digits bundled with scikit-learn '
                             '(offline); mnist: 28x28 MNIST (downloaded once)')
    parser.add_argument('--noplot', dest='plot', action='store_false', help=plot_help)


def print_settings(device, args, model_setting):
    print('Device: {}'.format(device))
    print(model_setting)
    print('# Minibatch-size: {}'.format(args.batchsize))
    print('# epoch: {}'.format(args.epoch))
    print('# dataset: {}'.format(args.dataset))
    print('')


def make_trainer(args, model, train, test, device, report, plots,
                 snapshot_every=-1, graph=False):
    """A Trainer of ``model`` with Adam, evaluated on ``test`` every epoch.

    ``report`` lists the entries PrintReport shows; ``plots`` holds
    ``(keys, filename)`` pairs for PlotReport (written unless ``--noplot`` or
    without matplotlib). The whole trainer is snapshotted every
    ``snapshot_every`` epochs (once, at the end, if not positive), keeping the latest
    one only; ``--autoload`` resumes from it and ``--resume`` from a given one.
    ``graph`` also dumps the computational graph of the loss (``cg.dot``).
    """
    model.to_device(device)
    device.use()

    optimizer = chainer.optimizers.Adam()
    optimizer.setup(model)

    train_iter = chainer.iterators.SerialIterator(train, args.batchsize)
    test_iter = chainer.iterators.SerialIterator(test, args.batchsize,
                                                 repeat=False, shuffle=False)

    updater = training.updaters.StandardUpdater(train_iter, optimizer, device=device)
    trainer = training.Trainer(updater, (args.epoch, 'epoch'), out=args.out)

    trainer.extend(extensions.Evaluator(test_iter, model, device=device))
    if graph:
        trainer.extend(extensions.DumpGraph('main/loss'))
    if snapshot_every <= 0:
        snapshot_every = args.epoch
    trainer.extend(extensions.snapshot(n_retains=1, autoload=args.autoload),
                   trigger=(snapshot_every, 'epoch'))
    trainer.extend(extensions.LogReport())
    if args.plot and extensions.PlotReport.available():
        for keys, filename in plots:
            trainer.extend(extensions.PlotReport(keys, 'epoch', filename=filename))
    trainer.extend(extensions.PrintReport(report))
    trainer.extend(extensions.ProgressBar())

    if args.resume is not None:
        chainer.serializers.load_npz(args.resume, trainer)
    return trainer
