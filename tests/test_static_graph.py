import numpy

import chainer
import chainer.functions as F


class Model(chainer.Chain):

    @chainer.static_graph
    def forward(self, x):
        return F.sum(x * 2)


class Model2(chainer.Chain):

    @chainer.static_graph(minimize_cache_size=True, verbosity_level=0)
    def forward(self, x):
        return F.sum(x * 3)


def test_static_graph_runs_define_by_run():
    x = chainer.Variable(numpy.ones(3, numpy.float32))
    y = Model()(x)
    y.backward()
    assert y.array.item() == 6.
    numpy.testing.assert_array_equal(x.grad, [2., 2., 2.])
    assert Model2()(x).array.item() == 9.
    assert issubclass(chainer.warnings.PerformanceWarning, RuntimeWarning)
