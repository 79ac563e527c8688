"""A simple classifier model: a predictor plus a loss (and accuracy)."""

from chainer import link
from chainer.functions.evaluation import accuracy
from chainer.functions.loss import softmax_cross_entropy


def _report(values, observer):
    # chainer.reporter may not be importable in a stripped-down install;
    # then there is nobody to report to
    try:
        from chainer import reporter
    except ImportError:
        return
    reporter.report(values, observer)


class Classifier(link.Chain):
    """A simple classifier model.

    Calling it as ``model(*args, **kwargs)`` takes the label ``t`` out of
    the arguments (``args[label_key]`` for an int ``label_key``,
    ``kwargs[label_key]`` for a str), computes
    ``y = predictor(*rest)``, ``loss = lossfun(y, t)`` and, if
    ``compute_accuracy``, ``accuracy = accfun(y, t)``; it reports
    ``{'loss': loss, 'accuracy': accuracy}`` to the current
    :class:`~chainer.Reporter` (with this link as observer) and returns the
    loss.

    Args:
        predictor (~chainer.Link): The predictor network.
        lossfun (callable): The loss function (default
            :func:`F.softmax_cross_entropy`).
        accfun (callable): The accuracy function (default
            :func:`F.accuracy`).
        label_key (int or str): Where the label is among the arguments
            (default -1: the last positional one).

    Attributes:
        predictor (~chainer.Link): The predictor.
        lossfun (callable), accfun (callable), label_key (int or str):
            As given.
        y (~chainer.Variable): The last prediction (None before a call).
        loss (~chainer.Variable): The last loss.
        accuracy (~chainer.Variable): The last accuracy.
        compute_accuracy (bool): Whether to compute (and report) the
            accuracy (class attribute, True; set it on the instance).

    >>> import numpy as np
    >>> import chainer.links as L
    >>> model = L.Classifier(L.Linear(3, 2))
    >>> x = np.ones((4, 3), np.float32)
    >>> t = np.array([0, 1, 1, 0], np.int32)
    >>> model(x, t).shape
    ()
    >>> model.accuracy is not None
    True
    """

    compute_accuracy = True

    def __init__(self, predictor,
                 lossfun=softmax_cross_entropy.softmax_cross_entropy,
                 accfun=accuracy.accuracy, label_key=-1):
        if not isinstance(label_key, (int, str)):
            raise TypeError('label_key must be int or str, but is {}'.format(
                type(label_key)))
        super().__init__()
        self.lossfun = lossfun
        self.accfun = accfun
        self.y = None
        self.loss = None
        self.accuracy = None
        self.label_key = label_key
        with self.init_scope():
            self.predictor = predictor

    def forward(self, *args, **kwargs):
        """Computes the loss of the predictor on the arguments (the label
        taken out of them by ``label_key``) and returns it."""
        key = self.label_key
        if isinstance(key, int):
            if not -len(args) <= key < len(args):
                raise ValueError('Label key {} is out of bounds'.format(key))
            t = args[key]
            index = key % len(args)
            args = args[:index] + args[index + 1:]
        else:
            if key not in kwargs:
                raise ValueError('Label key "{}" is not found'.format(key))
            kwargs = dict(kwargs)
            t = kwargs.pop(key)
        self.y = None
        self.loss = None
        self.accuracy = None
        self.y = self.predictor(*args, **kwargs)
        self.loss = self.lossfun(self.y, t)
        _report({'loss': self.loss}, self)
        if self.compute_accuracy:
            self.accuracy = self.accfun(self.y, t)
            _report({'accuracy': self.accuracy}, self)
        return self.loss
