"""Stacked RNNs over batches of variable-length sequences: the base class
:class:`NStepRNNBase` and the Elman RNNs ``NStep(Bi)RNN(Tanh|ReLU)``.

The links take a list of sequences (each ``(length, in_size)``, in any
order), sort them by length, run the ``F.n_step_*`` function on the
time-major transposition, and give the outputs back in the input order.
Each layer and direction is a child Link holding ``w0 .. w{n-1}`` and
``b0 .. b{n-1}`` (the first half act on the layer input, the second half on
the hidden state), named as in Chainer so saved models load.
"""

import numpy

import chainer
from chainer import link
from chainer import variable
from chainer.functions.array.permutate import permutate
from chainer.functions.array.transpose_sequence import transpose_sequence
from chainer.functions.rnn import n_step_rnn as rnn
from chainer.initializers import normal
from chainer.utils import argument


def argsort_list_descent(lst):
    """The indices that sort the sequences ``lst`` by length, longest
    first (stable)."""
    return numpy.argsort([-len(x) for x in lst], kind='stable').astype('i')


def permutate_list(lst, indices, inv):
    """``lst`` reordered by ``indices`` (``inv``: by its inverse)."""
    ret = [None] * len(lst)
    if inv:
        for i, ind in enumerate(indices):
            ret[ind] = lst[i]
    else:
        for i, ind in enumerate(indices):
            ret[i] = lst[ind]
    return ret


def _reject_kwargs(name, kwargs, removed):
    for key, msg in removed:
        if key in kwargs:
            raise ValueError(msg)
    if kwargs:  # Chainer's text
        raise argument.unexpected_error('assert_kwargs_empty', kwargs)


class NStepRNNBase(link.ChainList):
    """Base link class for stacked RNNs over sequences.

    Subclasses set ``n_weights`` (weight matrices per layer and direction),
    ``use_bi_direction``, ``rnn`` (the function it calls) and ``n_cells``
    (the number of state arrays: 1, or 2 for LSTMs).

    Args:
        n_layers (int): The number of layers.
        in_size (int): The input size.
        out_size (int): The hidden state size (per direction).
        dropout (float): The dropout ratio between layers.
        initialW: Initializer of the weights (default: normal with standard
            deviation ``sqrt(1 / fan_in)``).
        initial_bias: Initializer of the biases (default 0).

    Attributes:
        ws (list of lists of ~chainer.Parameter): ``ws[k][j]`` is weight
            ``w{j}`` of child ``k`` (layer ``k // direction``).
        bs (list of lists of ~chainer.Parameter): The biases alike.
    """

    n_weights = None
    use_bi_direction = None

    def __init__(self, n_layers, in_size, out_size, dropout, *,
                 initialW=None, initial_bias=None, **kwargs):
        _reject_kwargs(type(self).__name__, kwargs, (
            ('use_cudnn', 'use_cudnn argument is not supported anymore. '
                          'Use chainer.using_config'),
            ('use_bi_direction', 'use_bi_direction is not supported '
                                 'anymore'),
            ('activation', 'activation is not supported anymore')))
        direction = 2 if self.use_bi_direction else 1
        half = self.n_weights // 2
        layers = []
        for i in range(n_layers):
            for _ in range(direction):
                weight = link.Link()
                with weight.init_scope():
                    for j in range(self.n_weights):
                        if j >= half:
                            w_in = out_size
                        elif i == 0:
                            w_in = in_size
                        else:
                            w_in = out_size * direction
                        w_init = normal.Normal(numpy.sqrt(1. / w_in)) \
                            if initialW is None else initialW
                        b_init = 0 if initial_bias is None else initial_bias
                        setattr(weight, 'w{}'.format(j), variable.Parameter(
                            w_init, (out_size, w_in)))
                        setattr(weight, 'b{}'.format(j), variable.Parameter(
                            b_init, (out_size,)))
                layers.append(weight)
        super().__init__(*layers)
        self.n_layers = n_layers
        self.dropout = dropout
        self.out_size = out_size
        self.direction = direction
        self._collect_weights()

    def _collect_weights(self):
        self.ws = [[getattr(layer, 'w{}'.format(j))
                    for j in range(self.n_weights)] for layer in self]
        self.bs = [[getattr(layer, 'b{}'.format(j))
                    for j in range(self.n_weights)] for layer in self]

    @property
    def n_cells(self):
        """The number of state arrays (1; 2 for LSTMs: ``h`` and ``c``)."""
        return 1

    def rnn(self, *args):
        """Calls the ``F.n_step_*`` function of this link."""
        raise NotImplementedError

    def copy(self, mode='share'):
        ret = super().copy(mode)
        ret._collect_weights()
        return ret

    def init_hx(self, xs):
        """Zero initial states for the batch of sequences ``xs``:
        ``(n_layers * direction, len(xs), out_size)``."""
        shape = (self.n_layers * self.direction, len(xs), self.out_size)
        with chainer.using_device(self.device):
            return variable.Variable(self.xp.zeros(shape, dtype=xs[0].dtype))

    def _call(self, hs, xs, **kwargs):
        """Runs the RNN on the sequences ``xs`` from the initial states
        ``hs`` (each None or ``(n_layers * direction, len(xs),
        out_size)``), returning ``(final states, ys)``."""
        if 'train' in kwargs:
            raise ValueError('train argument is not supported anymore. Use '
                             'chainer.using_config')
        if kwargs:  # Chainer's text
            raise argument.unexpected_error('assert_kwargs_empty', kwargs)
        if not isinstance(xs, (list, tuple)):
            raise AssertionError()  # Chainer's assert
        indices = argsort_list_descent(xs)
        xs = permutate_list(xs, indices, inv=False)
        hxs = []
        for hx in hs:
            if hx is None:
                hx = self.init_hx(xs)
            else:
                hx = permutate(hx, indices, axis=1, inv=False)
            hxs.append(hx)
        trans_x = transpose_sequence(xs)
        result = self.rnn(self.n_layers, self.dropout, *hxs, self.ws,
                          self.bs, trans_x)
        hys = [permutate(h, indices, axis=1, inv=True) for h in result[:-1]]
        ys = transpose_sequence(result[-1])
        ys = permutate_list(ys, indices, inv=True)
        return hys, ys

    def forward(self, hx, xs, **kwargs):
        """Runs the RNN.

        Args:
            hx (~chainer.Variable or None): The initial hidden states
                ``(n_layers * direction, len(xs), out_size)`` (None:
                zeros).
            xs (list of ~chainer.Variable): The sequences, each
                ``(length, in_size)``.

        Returns:
            tuple: ``(hy, ys)``: the final hidden states (as ``hx``) and
            the list of outputs, each ``(length, direction * out_size)``.
        """
        (hy,), ys = self._call([hx], xs, **kwargs)
        return hy, ys


class _NStepRNNActivation(NStepRNNBase):
    n_weights = 2
    _activation = None

    def rnn(self, *args):
        fn = rnn.n_step_birnn if self.use_bi_direction else rnn.n_step_rnn
        return fn(*args, activation=self._activation)


class NStepRNNTanh(_NStepRNNActivation):
    """Stacked Uni-directional RNN for sequences, with tanh:
    ``h_t = tanh(w0 x_t + b0 + w1 h_{t-1} + b1)``.

    Args:
        n_layers (int): The number of layers.
        in_size (int): The input size.
        out_size (int): The hidden state size.
        dropout (float): The dropout ratio between layers.
        initialW: Initializer of the weights.
        initial_bias: Initializer of the biases (default 0).

    >>> import numpy as np
    >>> import chainer.links as L
    >>> rnn = L.NStepRNNTanh(1, 3, 2, 0.)
    >>> xs = [np.ones((4, 3), np.float32), np.ones((2, 3), np.float32)]
    >>> hy, ys = rnn(None, xs)
    >>> hy.shape, [y.shape for y in ys]
    ((1, 2, 2), [(4, 2), (2, 2)])
    """
    use_bi_direction = False
    _activation = 'tanh'


class NStepRNNReLU(_NStepRNNActivation):
    """Stacked Uni-directional RNN for sequences, with ReLU:
    ``h_t = relu(w0 x_t + b0 + w1 h_{t-1} + b1)``.

    Arguments as :class:`NStepRNNTanh`.
    """
    use_bi_direction = False
    _activation = 'relu'


class NStepBiRNNTanh(_NStepRNNActivation):
    """Stacked Bi-directional RNN for sequences, with tanh: a forward and
    a backward RNN per layer, their outputs concatenated
    (``2 * out_size`` features).

    Arguments as :class:`NStepRNNTanh`; ``hx`` is
    ``(2 * n_layers, batch, out_size)``.
    """
    use_bi_direction = True
    _activation = 'tanh'


class NStepBiRNNReLU(_NStepRNNActivation):
    """Stacked Bi-directional RNN for sequences, with ReLU.

    Arguments as :class:`NStepRNNTanh`; ``hx`` is
    ``(2 * n_layers, batch, out_size)``.
    """
    use_bi_direction = True
    _activation = 'relu'
