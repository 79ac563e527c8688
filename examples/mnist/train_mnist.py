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

import os
import sys

import numpy

import chainer
import chainer.functions as F
import chainer.links as L

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
import _common  # noqa: E402  (examples/_common.py)


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
    parser = _common.make_parser('chainer-ng example: MNIST', batchsize=100, epoch=20,
                                 out='result')
    parser.add_argument('--frequency', '-f', type=int, default=-1,
                        help='snapshot every this many epochs (-1: once, at the end)')
    parser.add_argument('--unit', '-u', type=int, default=1000,
                        help='number of units in each hidden layer')
    _common.add_data_options(parser)
    return parser.parse_args(argv)


# L.Classifier reports the loss and the accuracy as 'main/loss' and
# 'main/accuracy'; the Evaluator adds the 'validation/' ones.
CLASSIFIER_PLOTS = [(['main/loss', 'validation/main/loss'], 'loss.png'),
                    (['main/accuracy', 'validation/main/accuracy'], 'accuracy.png')]
CLASSIFIER_REPORT = ['epoch', 'main/loss', 'validation/main/loss',
                     'main/accuracy', 'validation/main/accuracy', 'elapsed_time']


def main(argv=None):
    args = parse_args(argv)
    device = chainer.get_device(args.device)
    _common.print_settings(device, args, '# unit: {}'.format(args.unit))

    # L.Classifier computes softmax cross entropy.
    model = L.Classifier(MLP(args.unit, 10))
    train, test = get_dataset(args.dataset)
    trainer = _common.make_trainer(
        args, model, train, test, device, CLASSIFIER_REPORT, CLASSIFIER_PLOTS,
        snapshot_every=args.frequency, graph=True)
    trainer.run()
    return trainer


if __name__ == '__main__':
    main()
