#!/usr/bin/env python
"""Train a small convolutional network on handwritten digits.

    python examples/mnist/train_cnn.py                  # 8x8 digits, offline
    python examples/mnist/train_cnn.py --dataset mnist  # 28x28 MNIST (downloads)

Two 3x3 convolutions, each followed by ReLU and 2x2 max pooling, then a
linear classifier. The data, the training loop and the outputs are those of
``train_mnist.py`` in this folder.
"""

import argparse

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import training
from chainer.training import extensions

from train_mnist import get_dataset


class CNN(chainer.Chain):
    """conv-relu-pool twice, then a fully connected layer to the classes."""

    def __init__(self, n_channels=16, n_out=10):
        super().__init__()
        with self.init_scope():
            self.conv1 = L.Convolution2D(None, n_channels, ksize=3, pad=1)
            self.conv2 = L.Convolution2D(n_channels, 2 * n_channels, ksize=3, pad=1)
            self.fc = L.Linear(None, n_out)

    def forward(self, x):
        h = F.max_pooling_2d(F.relu(self.conv1(x)), 2)
        h = F.max_pooling_2d(F.relu(self.conv2(h)), 2)
        return self.fc(h)


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description='chainer-ng example: CNN on digits')
    parser.add_argument('--batchsize', '-b', type=int, default=50,
                        help='number of images in each mini-batch')
    parser.add_argument('--epoch', '-e', type=int, default=10,
                        help='number of sweeps over the data set to train')
    parser.add_argument('--frequency', '-f', type=int, default=-1,
                        help='snapshot every this many epochs (-1: once, at the end)')
    parser.add_argument('--device', '-d', type=str, default='-1',
                        help='device specifier: -1 or @numpy for the CPU, '
                             '@cupy:0 (or 0) for the first GPU')
    parser.add_argument('--out', '-o', default='result_cnn',
                        help='directory for the log, plots and snapshots')
    parser.add_argument('--resume', '-r', type=str,
                        help='snapshot to resume the training from')
    parser.add_argument('--autoload', action='store_true',
                        help='resume from the latest snapshot found in --out')
    parser.add_argument('--channels', '-c', type=int, default=16,
                        help='number of channels of the first convolution')
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
    print('# channels: {}'.format(args.channels))
    print('# Minibatch-size: {}'.format(args.batchsize))
    print('# epoch: {}'.format(args.epoch))
    print('# dataset: {}'.format(args.dataset))
    print('')

    model = L.Classifier(CNN(args.channels, 10))
    model.to_device(device)
    device.use()

    optimizer = chainer.optimizers.Adam()
    optimizer.setup(model)

    # Images as (channels, height, width) for the convolutions.
    train, test = get_dataset(args.dataset, ndim=3)
    train_iter = chainer.iterators.SerialIterator(train, args.batchsize)
    test_iter = chainer.iterators.SerialIterator(test, args.batchsize,
                                                 repeat=False, shuffle=False)

    updater = training.updaters.StandardUpdater(train_iter, optimizer, device=device)
    trainer = training.Trainer(updater, (args.epoch, 'epoch'), out=args.out)

    trainer.extend(extensions.Evaluator(test_iter, model, device=device))
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
