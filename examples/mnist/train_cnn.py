#!/usr/bin/env python
"""Train a small convolutional network on handwritten digits.

    python examples/mnist/train_cnn.py                  # 8x8 digits, offline
    python examples/mnist/train_cnn.py --dataset mnist  # 28x28 MNIST (downloads)

Two 3x3 convolutions, each followed by ReLU and 2x2 max pooling, then a
linear classifier. The data, the training loop and the outputs are those of
``train_mnist.py`` in this folder.
"""

import chainer
import chainer.functions as F
import chainer.links as L

from train_mnist import CLASSIFIER_PLOTS, CLASSIFIER_REPORT, _common, get_dataset


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
    parser = _common.make_parser('chainer-ng example: CNN on digits', batchsize=50,
                                 epoch=10, out='result_cnn')
    parser.add_argument('--frequency', '-f', type=int, default=-1,
                        help='snapshot every this many epochs (-1: once, at the end)')
    parser.add_argument('--channels', '-c', type=int, default=16,
                        help='number of channels of the first convolution')
    _common.add_data_options(parser)
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    device = chainer.get_device(args.device)
    _common.print_settings(device, args, '# channels: {}'.format(args.channels))

    model = L.Classifier(CNN(args.channels, 10))
    # Images as (channels, height, width) for the convolutions.
    train, test = get_dataset(args.dataset, ndim=3)
    trainer = _common.make_trainer(
        args, model, train, test, device, CLASSIFIER_REPORT, CLASSIFIER_PLOTS,
        snapshot_every=args.frequency)
    trainer.run()
    return trainer


if __name__ == '__main__':
    main()
