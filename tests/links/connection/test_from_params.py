import numpy
import pytest

import chainer.links as L


@pytest.mark.parametrize('make', [
    lambda: L.Linear(5, 4),
    lambda: L.Convolution2D(3, 4, 3, stride=2),
    lambda: L.ConvolutionND(1, 3, 4, 2),
    lambda: L.EmbedID(5, 3),
])
def test_from_params_takes_parameters_and_copies(make):
    # Another link's Parameters work as from_params' W and b; the new link
    # gets copies, as in Chainer.
    link1 = make()
    args = [link1.W] + ([link1.b] if hasattr(link1, 'b') else [])
    link2 = type(link1).from_params(*args)
    for name, p1 in link1.namedparams():
        p2 = dict(link2.namedparams())[name]
        numpy.testing.assert_array_equal(p2.array, p1.array)
        assert not numpy.shares_memory(p2.array, p1.array)
