"""astuple() and asdict(): the same data in another mode."""

from chainer.dataset.tabular import _view


class _Astuple(_view._View):

    @property
    def mode(self):
        return tuple


class _Asdict(_view._View):

    @property
    def mode(self):
        return dict
