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
