"""Bad input to every public function of ``chainer.functions``: each bad
call made from the table in ``bad_input_cases`` (lists, None, strings,
Python scalars, complex and integer arrays where floats are expected, the
wrong rank, empty and 0-d arrays, NaN, labels out of range, bad
ksize/stride/pad/dilate/eps/ratio/delta) either gives a result (where the
table allows one) or raises InvalidType, TypeError, ValueError or
IndexError naming the function; never a bare AttributeError,
ZeroDivisionError or AssertionError, never a silent result where an error
is due."""

import re
import warnings

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType

import bad_input_cases as cases

# Still accepted, and not yet refused: each entry is a defect to fix, kept
# here so that the test fails once it is fixed (then remove the entry).
KNOWN_GAPS = set()

# Accepted as Chainer 7.8.1 accepts them outside debug mode.
CHAINER_ACCEPTS = {
    ('select_item', '1:label_neg'),  # wraps round, as NumPy's indexing
    # F.add(x, c) is x + c in Chainer: a scalar is a constant, an array of
    # another dtype is cast to the first input's
    ('add', '1:scalar'), ('add', '1:int'), ('add', '1:complex'),
    ('add', '0:int'), ('add', '0:complex'),
}

# Functions whose errors keep Chainer 7.8.1's own text word for word (users'
# programs print it), though it does not name the function: the exception
# types allowed so.
CHAINER_WORDING = {
    # Chainer's type check raises this RuntimeError for every bad input.
    'softmax_cross_entropy': (RuntimeError, IndexError),
    # a chained comparison over an Expr: the same RuntimeError
    'softmax': (RuntimeError,),
    'log_softmax': (RuntimeError,),
    'gumbel_softmax': (RuntimeError,),  # F.softmax's
}


def _key(text):
    return re.sub(r'[^a-z0-9]', '', text.lower())


def _outcome(name, call, expect):
    """'ok', or what went wrong."""
    try:
        with warnings.catch_warnings(), numpy.errstate(all='ignore'):
            warnings.simplefilter('ignore')
            call()
    except InvalidType:
        return 'ok'  # names the node: "Invalid operation is performed in"
    except CHAINER_WORDING.get(name, ()) + getattr(
            getattr(F, name), 'chainer_text', ()):
        return 'ok'  # Chainer's words (see names_bad_arguments' keep)
    except (TypeError, ValueError, IndexError) as e:
        if getattr(e, 'chainer_text', False):
            return 'ok'  # made by _errors.chainer_text
        msg = str(e)
        names = {_key(name), _key(getattr(F, name).__name__)}
        if any(n in _key(msg) for n in names) or \
                msg.startswith('incompatible array types are mixed in '
                               'the forward input ('):  # names the node
            return 'ok'
        return 'unnamed {}: {}'.format(type(e).__name__, msg[:200])
    except Exception as e:
        return 'bare {}: {}'.format(type(e).__name__, str(e)[:200])
    return 'ok' if expect == 'either' else 'silent'


def test_the_table_covers_every_public_function():
    public = {n for n in dir(F) if not n.startswith('_') and
              n[0].islower() and callable(getattr(F, n))}
    assert public <= set(cases.CASES)


@pytest.mark.parametrize('name', sorted(cases.CASES))
def test_bad_input(name):
    call, args, _ = cases.CASES[name]
    call(*args)  # the table's call itself is valid
    wrong, fixed = [], []
    for vid, bad_call, expect in cases.variants(name):
        outcome = _outcome(name, bad_call, expect)
        if (name, vid) in KNOWN_GAPS:
            if outcome != 'silent':
                fixed.append(vid)
        elif outcome != 'ok' and not (
                outcome == 'silent' and (name, vid) in CHAINER_ACCEPTS):
            wrong.append('{}: {}'.format(vid, outcome))
    assert not wrong, '{}:\n'.format(name) + '\n'.join(wrong)
    assert not fixed, 'fixed, remove from KNOWN_GAPS: {} {}'.format(
        name, fixed)


def test_known_gaps_name_real_variants():
    ids = {(n, vid) for n in cases.CASES for vid, _, _ in cases.variants(n)}
    assert KNOWN_GAPS <= ids


@pytest.mark.parametrize('ratio', [-0.1, 1.0, 2.0])
def test_n_step_rnn_dropout_ratio(ratio):
    ws, bs = cases._lstm_ws(1, 1, 8, 3, 2)
    h = numpy.zeros((1, 1, 2), numpy.float32)
    with pytest.raises(ValueError, match='n_step_lstm: dropout_ratio'):
        F.n_step_lstm(1, ratio, h, h, ws, bs,
                      [numpy.ones((1, 3), numpy.float32)])


def test_messages_name_the_argument():
    x = numpy.ones((2, 3), numpy.float32)
    with pytest.raises(TypeError, match="linear: argument 'x' must be a "
                       "Variable or a numpy/cupy array, but got list"):
        F.linear([[1.0]], x)
    with pytest.raises(TypeError, match=r"crf1d: argument 'xs\[1\]' must "
                       'be a Variable'):
        F.crf1d(numpy.zeros((3, 3), numpy.float32), [x, None],
                [numpy.zeros(2, numpy.int32)] * 2)
    with pytest.raises(ValueError, match='max_pooling_2d: .*stride must be '
                       r'positive integers, got \(0, 0\)'):
        F.max_pooling_2d(numpy.ones((1, 1, 4, 4), numpy.float32), 2,
                         stride=0)
    with pytest.raises(ValueError, match='arctan2: operands could not be '
                       'broadcast'):
        F.arctan2(x, numpy.ones((0, 3), numpy.float32))
    with pytest.raises(IndexError, match=r'Accuracy: label 10 at t\[0\] is '
                       r'out of range: labels must be in \[0, 3\)'):
        F.accuracy(x, numpy.array([10, 0], numpy.int32))
    # ignored labels stay ignored
    acc = F.accuracy(x, numpy.array([-1, 0], numpy.int32), ignore_label=-1)
    assert acc.array == 1.0
    with pytest.raises(IndexError, match='upsampling_2d: indexes must lie '
                       r'in \[0, 4\)'):
        F.upsampling_2d(numpy.ones((1, 1, 2, 2), numpy.float32),
                        numpy.full((1, 1, 2, 2), 7, numpy.int32), 2)


def test_nan_coordinates_give_nan_not_an_index_error():
    x = numpy.arange(16, dtype=numpy.float32).reshape(1, 1, 4, 4)
    grid = numpy.zeros((1, 2, 3, 3), numpy.float32)
    grid[0, 0, 0, 0] = numpy.nan
    y = F.spatial_transformer_sampler(x, grid).array
    assert numpy.isnan(y[0, 0, 0, 0])
    assert numpy.isfinite(y[0, 0, 1:]).all()
    offset = numpy.zeros((1, 8, 3, 3), numpy.float32)
    offset[0, 0, 0, 0] = numpy.nan
    W = numpy.ones((1, 1, 2, 2), numpy.float32)
    y = F.deformable_convolution_2d_sampler(x, offset, W).array
    assert numpy.isnan(y[0, 0, 0, 0])
    numpy.testing.assert_array_equal(
        y[0, 0, 1:], F.convolution_2d(x, W).array[0, 0, 1:])


@pytest.mark.parametrize('func,x_shape,w_shape,y_shape', [
    (F.convolution_1d, (1, 1, 4), (0, 1, 2), (1, 0, 3)),
    (F.convolution_2d, (1, 1, 4, 4), (0, 1, 2, 2), (1, 0, 3, 3)),
    (F.convolution_3d, (1, 1, 3, 3, 3), (0, 1, 2, 2, 2), (1, 0, 2, 2, 2)),
    (F.convolution_nd, (1, 1, 4), (0, 1, 2), (1, 0, 3)),
    (F.depthwise_convolution_2d, (1, 1, 4, 4), (0, 1, 2, 2), (1, 0, 3, 3)),
    (F.local_convolution_2d, (1, 1, 3, 3), (0, 2, 2, 1, 2, 2),
     (1, 0, 2, 2)),
])
def test_no_filters_give_an_empty_output(func, x_shape, w_shape, y_shape):
    import chainer
    x = chainer.Variable(numpy.ones(x_shape, numpy.float32))
    W = chainer.Variable(numpy.ones(w_shape, numpy.float32))
    y = func(x, W)
    assert y.shape == y_shape and y.dtype == numpy.float32
    F.sum(y).backward()
    numpy.testing.assert_array_equal(x.grad, numpy.zeros(x_shape))
    assert W.grad.shape == w_shape


def test_permutate_and_reshape_arguments():
    x = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    with pytest.raises(ValueError, match='permutate: indices has 3 '
                       r'entries, but x.shape\[0\] is 2'):
        F.permutate(x, numpy.array([1, 0, 1], numpy.int32))
    with chainer.using_config('debug', True):  # Chainer checks only then
        with pytest.raises(ValueError, match='^indices contains duplicate '
                           'value: 1$'):
            F.permutate(x, numpy.array([1, 1], numpy.int32))
    with pytest.raises(IndexError) as e:  # NumPy's indexing, as Chainer's
        F.permutate(x, numpy.array([1, 2], numpy.int32))
    assert str(e.value) == 'index 2 is out of bounds for axis 0 with size 2'
    numpy.testing.assert_array_equal(
        F.permutate(x, numpy.array([1, 0], numpy.int32)).array, x[::-1])
    with pytest.raises(AssertionError, match='reshape: only one dimension '
                       r'of the new shape can be -1, got \(-1, -1\)'):
        F.reshape(x, (-1, -1))
