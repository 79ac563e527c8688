import pytest

from chainer.utils import argument


def test_parse_kwargs_pops_and_returns_defaults():
    kwargs = {'a': 1}
    assert argument.parse_kwargs(kwargs, ('a', 0), ('b', 2)) == (1, 2)
    assert kwargs == {}
    assert argument.parse_kwargs({}, ('a', 0)) == (0,)
    assert argument.parse_kwargs({}) == ()


def test_parse_kwargs_unexpected_names_the_caller():
    def my_func(**kwargs):
        return argument.parse_kwargs(kwargs, ('a', 0))

    with pytest.raises(TypeError) as info:
        my_func(zz=1, yy=2)
    assert str(info.value) == \
        "my_func() got unexpected keyword argument(s) 'yy', 'zz'"


def test_parse_kwargs_removed_argument_message():
    with pytest.raises(ValueError, match='^train is gone$'):
        argument.parse_kwargs({'train': True}, ('a', 0),
                              train='train is gone')


def test_check_unexpected_kwargs():
    argument.check_unexpected_kwargs({'x': 1}, train='no')
    with pytest.raises(ValueError, match='^no$'):
        argument.check_unexpected_kwargs({'train': 1}, train='no')


def test_assert_kwargs_empty():
    argument.assert_kwargs_empty({})
    with pytest.raises(TypeError) as info:
        argument.assert_kwargs_empty({'y': 1, 'x': 2})
    assert str(info.value) == \
        "assert_kwargs_empty() got unexpected keyword argument(s) 'x', 'y'"


def _texts_cases():
    import numpy
    import chainer
    import chainer.functions as F
    import chainer.links as L
    from chainer import training
    from chainer.training import extensions
    it = chainer.iterators.SerialIterator([1, 2], 1)
    x = numpy.ones((2, 3), numpy.float32)
    return [
        (lambda: chainer.Variable(x, foo=1, bar=2), '__init__',
         "'bar', 'foo'"),
        (lambda: chainer.initializers.Normal(foo=1), '__init__', "'foo'"),
        (lambda: extensions.LogReport(foo=1), '__init__', "'foo'"),
        (lambda: extensions.Evaluator(it, L.Linear(1, 1), foo=1), '__init__',
         "'foo'"),
        (lambda: training.make_extension(foo=1), 'assert_kwargs_empty',
         "'foo'"),
        (lambda: L.NStepLSTM(1, 2, 2, 0.0, foo=1), 'assert_kwargs_empty',
         "'foo'"),
        (lambda: F.n_step_lstm(1, 0.0, None, None, None, None, [x], foo=1),
         'assert_kwargs_empty', "'foo'"),
    ]


def test_unexpected_kwargs_texts_are_chainers():
    # Chainer 7.8.1 names the function that called its parse_kwargs
    # (__init__) or assert_kwargs_empty, and lists the sorted keys' reprs.
    import chainer
    for call, caller, keys in _texts_cases():
        with pytest.raises(TypeError) as e:
            call()
        assert str(e.value) == (
            '{}() got unexpected keyword argument(s) {}'.format(caller, keys))
    with pytest.raises(TypeError) as e:
        chainer.Parameter(foo=1)
    assert str(e.value) == ("Parameter.__init__() got an unexpected keyword "
                            "argument 'foo'")
