from chainer.dataset import tabular

from tabular_recorder import Recorder


class Doubled(tabular.DelegateDataset):

    def get_example(self, i):
        return 2 * super().get_example(i)


def test_a_subclass_adds_behaviour_to_the_wrapped_dataset():
    inner = Recorder(n=3, keys=('a',), mode=None)
    d = Doubled(inner)
    assert d.dataset is inner and d.keys == ('a',) and d.mode is None
    assert len(d) == 3 and d[1] == 2 and list(d) == [0, 2, 4]
    assert d.slice[1:].fetch() == [1, 2] and inner.calls[-1] == (slice(1, None), None)
