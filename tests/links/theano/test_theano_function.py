import pytest

import chainer.links as L


def test_construction_raises_import_error():
    with pytest.raises(ImportError, match='Theano'):
        L.TheanoFunction(None, None)


def test_is_a_link():
    import chainer
    assert issubclass(L.TheanoFunction, chainer.Link)
