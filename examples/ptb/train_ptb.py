#!/usr/bin/env python
"""Train a recurrent neural network language model (RNNLM).

    python examples/ptb/train_ptb.py                # the small corpus in data/
    python examples/ptb/train_ptb.py --dataset ptb  # Penn Tree Bank (downloads)

An embedding, two LSTM layers and a linear layer predict each next word. The
word stream is cut into ``--batchsize`` parallel streams that are read side
by side; the loss is accumulated over ``--bproplen`` steps, backpropagated,
and the graph behind it is cut with ``unchain_backward`` (truncated
backpropagation through time). The log reports the perplexity.

The default corpus, ``data/corpus.txt``, is a few kilobytes of plain text
written for this example, one sentence per line, so the example runs offline.
"""

import argparse
import os

import numpy

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import training
from chainer.training import extensions

CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'data', 'corpus.txt')


class RNNLM(chainer.Chain):
    """Embedding, two stacked LSTMs with dropout, and an output layer."""

    def __init__(self, n_vocab, n_units, dropout=0.5):
        super().__init__()
        with self.init_scope():
            self.embed = L.EmbedID(n_vocab, n_units)
            self.l1 = L.LSTM(n_units, n_units)
            self.l2 = L.LSTM(n_units, n_units)
            self.l3 = L.Linear(n_units, n_vocab)
        self.dropout = dropout
        for param in self.params():
            param.array[...] = numpy.random.uniform(-0.1, 0.1, param.shape)

    def reset_state(self):
        self.l1.reset_state()
        self.l2.reset_state()

    def forward(self, x):
        h = self.embed(x)
        h = self.l1(F.dropout(h, self.dropout))
        h = self.l2(F.dropout(h, self.dropout))
        return self.l3(F.dropout(h, self.dropout))


def load_corpus(path=CORPUS, valid_lines=8, test_lines=8):
    """Word ids of a plain-text file, split into train, validation and test.

    Words are separated by white space; every line ends with ``<eos>``. The
    last ``test_lines`` lines are the test set and the ``valid_lines`` before
    them the validation set. Returns the three int32 arrays and the
    vocabulary, a dict from word to id.
    """
    with open(path, encoding='utf-8') as f:
        lines = [line.split() + ['<eos>'] for line in f if line.strip()]
    vocab = {}
    for line in lines:
        for word in line:
            vocab.setdefault(word, len(vocab))

    def ids(part):
        return numpy.array([vocab[w] for line in part for w in line], numpy.int32)

    n_train = len(lines) - valid_lines - test_lines
    return (ids(lines[:n_train]), ids(lines[n_train:n_train + valid_lines]),
            ids(lines[n_train + valid_lines:]), vocab)


class ParallelSequentialIterator(chainer.dataset.Iterator):
    """Reads a word sequence as ``batch_size`` streams side by side.

    Stream ``i`` starts at offset ``i * len(dataset) // batch_size``. Each
    batch is a list of ``(word, next word)`` pairs, one per stream. An epoch
    ends when as many words as the dataset holds have been read.
    """

    def __init__(self, dataset, batch_size, repeat=True):
        super().__init__()
        self.dataset = dataset
        self.batch_size = batch_size
        self.repeat = repeat
        self.offsets = [i * len(dataset) // batch_size for i in range(batch_size)]
        self.reset()

    def reset(self):
        self.epoch = 0
        self.iteration = 0
        self.is_new_epoch = False
        self._previous_epoch_detail = -1.

    def __next__(self):
        length = len(self.dataset)
        if not self.repeat and self.iteration * self.batch_size >= length:
            # One pass over the data set is enough for evaluation.
            raise StopIteration
        words = self._words(self.iteration)
        next_words = self._words(self.iteration + 1)
        self._previous_epoch_detail = self.epoch_detail
        self.iteration += 1
        epoch = self.iteration * self.batch_size // length
        self.is_new_epoch = self.epoch < epoch
        self.epoch = epoch
        return list(zip(words, next_words))

    @property
    def epoch_detail(self):
        return self.iteration * self.batch_size / len(self.dataset)

    @property
    def previous_epoch_detail(self):
        return None if self._previous_epoch_detail < 0 else self._previous_epoch_detail

    def _words(self, iteration):
        return [self.dataset[(offset + iteration) % len(self.dataset)]
                for offset in self.offsets]

    def serialize(self, serializer):
        self.iteration = serializer('iteration', self.iteration)
        self.epoch = serializer('epoch', self.epoch)
        self._previous_epoch_detail = serializer(
            'previous_epoch_detail', self._previous_epoch_detail)


class BPTTUpdater(training.updaters.StandardUpdater):
    """Truncated backpropagation through time, ``bprop_len`` steps at a time."""

    def __init__(self, train_iter, optimizer, bprop_len, device):
        super().__init__(train_iter, optimizer, device=device)
        self.bprop_len = bprop_len

    def update_core(self):
        train_iter = self.get_iterator('main')
        optimizer = self.get_optimizer('main')
        loss = 0
        for _ in range(self.bprop_len):
            batch = train_iter.__next__()
            x, t = self.converter(batch, self.device)
            loss += optimizer.target(x, t)
        optimizer.target.cleargrads()
        loss.backward()
        # Cut the graph here: the next steps start from the LSTM state but
        # do not backpropagate into the steps already learned from.
        loss.unchain_backward()
        optimizer.update()


def compute_perplexity(result):
    result['perplexity'] = numpy.exp(result['main/loss'])
    if 'validation/main/loss' in result:
        result['val_perplexity'] = numpy.exp(result['validation/main/loss'])


def evaluate_perplexity(model, dataset, device):
    """Perplexity of ``dataset`` under ``model``, one word at a time."""
    evaluator = model.copy()
    evaluator.predictor.reset_state()
    total = 0.
    with chainer.using_config('train', False), chainer.no_backprop_mode():
        for i in range(len(dataset) - 1):
            x = device.send(numpy.asarray(dataset[i:i + 1]))
            t = device.send(numpy.asarray(dataset[i + 1:i + 2]))
            total += float(evaluator(x, t).array)
    return float(numpy.exp(total / max(1, len(dataset) - 1)))


def generate(model, vocab, start, length, device, seed=0):
    """Sample ``length`` words from the model, starting with ``start``."""
    words = {i: w for w, i in vocab.items()}
    rnn = model.copy().predictor
    rnn.reset_state()
    rng = numpy.random.RandomState(seed)
    word = vocab[start]
    out = [start]
    with chainer.using_config('train', False), chainer.no_backprop_mode():
        for _ in range(length):
            y = F.softmax(rnn(device.send(numpy.array([word], numpy.int32))))
            p = chainer.backend.CpuDevice().send(y.array)[0].astype(numpy.float64)
            word = int(rng.choice(len(p), p=p / p.sum()))
            out.append(words[word])
    return ' '.join(out)


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description='chainer-ng example: RNNLM')
    parser.add_argument('--batchsize', '-b', type=int, default=10,
                        help='number of word streams read in parallel')
    parser.add_argument('--bproplen', '-l', type=int, default=20,
                        help='number of words in each truncated BPTT step')
    parser.add_argument('--epoch', '-e', type=int, default=20,
                        help='number of sweeps over the training words')
    parser.add_argument('--device', '-d', type=str, default='-1',
                        help='device specifier: -1 or @numpy for the CPU, '
                             '@cupy:0 (or 0) for the first GPU')
    parser.add_argument('--gradclip', '-c', type=float, default=5,
                        help='largest L2 norm of the gradient')
    parser.add_argument('--out', '-o', default='result_ptb',
                        help='directory for the log, plots and snapshots')
    parser.add_argument('--resume', '-r', type=str,
                        help='snapshot to resume the training from')
    parser.add_argument('--autoload', action='store_true',
                        help='resume from the latest snapshot found in --out')
    parser.add_argument('--unit', '-u', type=int, default=100,
                        help='number of units in the embedding and LSTM layers')
    parser.add_argument('--dataset', choices=('corpus', 'ptb'), default='corpus',
                        help='corpus: the small text in data/ (offline); '
                             'ptb: Penn Tree Bank (downloaded once)')
    parser.add_argument('--corpus', default=CORPUS,
                        help='plain-text file used by --dataset corpus')
    parser.add_argument('--noplot', dest='plot', action='store_false',
                        help='do not write the loss plot')
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)

    if args.dataset == 'ptb':
        train, val, test = chainer.datasets.get_ptb_words()
        vocab = chainer.datasets.get_ptb_words_vocabulary()
    else:
        train, val, test, vocab = load_corpus(args.corpus)
    n_vocab = len(vocab)

    device = chainer.get_device(args.device)
    print('Device: {}'.format(device))
    print('# vocabulary: {}'.format(n_vocab))
    print('# train / validation / test words: {} / {} / {}'.format(
        len(train), len(val), len(test)))
    print('# unit: {}'.format(args.unit))
    print('# epoch: {}'.format(args.epoch))
    print('')

    train_iter = ParallelSequentialIterator(train, args.batchsize)
    val_iter = ParallelSequentialIterator(val, 1, repeat=False)

    model = L.Classifier(RNNLM(n_vocab, args.unit))
    # The accuracy of the next word is not very telling; report the loss.
    model.compute_accuracy = False
    model.to_device(device)
    device.use()

    optimizer = chainer.optimizers.SGD(lr=1.0)
    optimizer.setup(model)
    optimizer.add_hook(chainer.optimizer_hooks.GradientClipping(args.gradclip))

    updater = BPTTUpdater(train_iter, optimizer, args.bproplen, device)
    trainer = training.Trainer(updater, (args.epoch, 'epoch'), out=args.out)

    # The evaluator runs a copy that shares the parameters but keeps its own
    # LSTM state, reset before every evaluation.
    eval_model = model.copy()
    eval_rnn = eval_model.predictor
    trainer.extend(extensions.Evaluator(
        val_iter, eval_model, device=device,
        eval_hook=lambda _: eval_rnn.reset_state()))

    interval = (max(1, args.epoch // 10), 'epoch')
    trainer.extend(extensions.LogReport(postprocess=compute_perplexity, trigger=interval))
    trainer.extend(extensions.PrintReport(
        ['epoch', 'iteration', 'perplexity', 'val_perplexity', 'elapsed_time']),
        trigger=interval)
    trainer.extend(extensions.ProgressBar(update_interval=10))
    if args.plot and extensions.PlotReport.available():
        # PlotReport sees the reported values, not LogReport's postprocessed
        # ones: plot the loss, the log of the perplexity.
        trainer.extend(extensions.PlotReport(
            ['main/loss', 'validation/main/loss'], 'epoch', trigger=interval,
            filename='loss.png'))
    trainer.extend(extensions.snapshot(n_retains=1, autoload=args.autoload),
                   trigger=(args.epoch, 'epoch'))
    trainer.extend(extensions.snapshot_object(model, 'model_epoch_{.updater.epoch}'),
                   trigger=(args.epoch, 'epoch'))

    if args.resume is not None:
        chainer.serializers.load_npz(args.resume, trainer)

    trainer.run()

    print('test perplexity: {:.2f}'.format(evaluate_perplexity(model, test, device)))
    if args.dataset == 'corpus':
        print('sample: ' + generate(model, vocab, 'the', 20, device))
    return trainer


if __name__ == '__main__':
    main()
