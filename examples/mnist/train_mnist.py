#!/usr/bin/env python
"""Train a multi-layer perceptron to classify handwritten digits.

    python examples/mnist/train_mnist.py                  # 8x8 digits, offline
    python examples/mnist/train_mnist.py --dataset mnist  # 28x28 MNIST (downloads)

The default data set is scikit-learn's bundled 8x8 digits (1797 images), so
the demo runs without a network connection; ``--dataset mnist`` trains on the
real MNIST through :func:`chainer.datasets.get_mnist` instead. The training
loop is the standard one: an iterator feeds a StandardUpdater driven by a
Trainer, and extensions evaluate, log, plot and snapshot as it goes. The log,
``loss.png``, ``accuracy.png`` and the snapshots land in ``--out``.
"""

import argparse
import sys

import numpy

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import training
from chainer.training import extensions


class MLP(chainer.Chain):
    """Three fully connected layers with ReLU between them."""

    def __init__(self, n_units, n_out):
        super().__init__()
        with self.init_scope():
            # The input size is inferred on the first forward pass.
            self.l1 = L.Linear(None, n_units)
            self.l2 = L.Linear(None, n_units)
            self.l3 = L.Linear(None, n_out)

    def forward(self, x):
        h1 = F.relu(self.l1(x))
        h2 = F.relu(self.l2(h1))
        return self.l3(h2)


def get_digits(ndim=1, validation_ratio=0.2, seed=0):
    """scikit-learn's 8x8 digits as a (train, validation) pair of datasets.

    Pixels are scaled from 0..16 to [0, 1] float32 and labels are int32, as
    :func:`chainer.datasets.get_mnist` gives them. ``ndim=3`` shapes each image
    as ``(1, 8, 8)`` for convolutions. The split is random with a fixed seed.
    """
    try:
        from sklearn.datasets import load_digits
    except ImportError:
        sys.exit('The digits data set needs scikit-learn: pip install scikit-learn '
                 "(or pip install -e '.[examples]')")
    images, labels = load_digits(return_X_y=True)
    x = (images / 16.).astype(numpy.float32)
    if ndim == 3:
        x = x.reshape(-1, 1, 8, 8)
    dataset = chainer.datasets.TupleDataset(x, labels.astype(numpy.int32))
    n_train = len(dataset) - int(len(dataset) * validation_ratio)
    return chainer.datasets.split_dataset_random(dataset, n_train, seed=seed)


def get_dataset(name, ndim=1):
    if name == 'digits':
        return get_digits(ndim=ndim)
    if name == 'mnist':
        return chainer.datasets.get_mnist(ndim=ndim)
    raise ValueError('unknown dataset: {}'.format(name))


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description='chainer-ng example: MNIST')
    parser.add_argument('--batchsize', '-b', type=int, default=100,
                        help='number of images in each mini-batch')
    parser.add_argument('--epoch', '-e', type=int, default=20,
                        help='number of sweeps over the data set to train')
    parser.add_argument('--frequency', '-f', type=int, default=-1,
                        help='snapshot every this many epochs (-1: once, at the end)')
    parser.add_argument('--device', '-d', type=str, default='-1',
                        help='device specifier: -1 or @numpy for the CPU, '
                             '@cupy:0 (or 0) for the first GPU')
    parser.add_argument('--out', '-o', default='result',
                        help='directory for the log, plots and snapshots')
    parser.add_argument('--resume', '-r', type=str,
                        help='snapshot to resume the training from')
    parser.add_argument('--autoload', action='store_true',
                        help='resume from the latest snapshot found in --out')
    parser.add_argument('--unit', '-u', type=int, default=1000,
                        help='number of units in each hidden layer')
    parser.add_argument('--dataset', choices=('digits', 'mnist'), default='digits',
                        help='digits: 8x8 digits bundled with scikit-learn '
                             '(offline); mnist: 28x28 MNIST (downloaded once)')
    parser.add_argument('--noplot', dest='plot', action='store_false',
                        help='do not write the loss and accuracy plots')
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)

    device = chainer.get_device(args.device)
    print('Device: {}'.format(device))
    print('# unit: {}'.format(args.unit))
    print('# Minibatch-size: {}'.format(args.batchsize))
    print('# epoch: {}'.format(args.epoch))
    print('# dataset: {}'.format(args.dataset))
    print('')

    # L.Classifier computes softmax cross entropy and reports the loss and
    # the accuracy under 'main/loss' and 'main/accuracy'.
    model = L.Classifier(MLP(args.unit, 10))
    model.to_device(device)
    device.use()

    optimizer = chainer.optimizers.Adam()
    optimizer.setup(model)

    train, test = get_dataset(args.dataset)
    train_iter = chainer.iterators.SerialIterator(train, args.batchsize)
    test_iter = chainer.iterators.SerialIterator(test, args.batchsize,
                                                 repeat=False, shuffle=False)

    updater = training.updaters.StandardUpdater(train_iter, optimizer, device=device)
    trainer = training.Trainer(updater, (args.epoch, 'epoch'), out=args.out)

    # Evaluate on the validation set at the end of every epoch.
    trainer.extend(extensions.Evaluator(test_iter, model, device=device))
    trainer.extend(extensions.DumpGraph('main/loss'))

    # Snapshot the whole trainer; keep only the latest one. With --autoload
    # the trainer resumes from it when the run starts.
    snapshot_every = args.frequency if args.frequency > 0 else args.epoch
    trainer.extend(extensions.snapshot(n_retains=1, autoload=args.autoload),
                   trigger=(snapshot_every, 'epoch'))

    trainer.extend(extensions.LogReport())
    if args.plot and extensions.PlotReport.available():
        trainer.extend(extensions.PlotReport(
            ['main/loss', 'validation/main/loss'], 'epoch', filename='loss.png'))
        trainer.extend(extensions.PlotReport(
            ['main/accuracy', 'validation/main/accuracy'], 'epoch',
            filename='accuracy.png'))
    trainer.extend(extensions.PrintReport(
        ['epoch', 'main/loss', 'validation/main/loss',
         'main/accuracy', 'validation/main/accuracy', 'elapsed_time']))
    trainer.extend(extensions.ProgressBar())

    if args.resume is not None:
        chainer.serializers.load_npz(args.resume, trainer)

    trainer.run()
    return trainer


if __name__ == '__main__':
    main()
