"""with_converter(): the same data with another convert()."""

from chainer.dataset.tabular import _view


class _WithConverter(_view._View):

    def __init__(self, dataset, converter):
        super().__init__(dataset)
        self._converter = converter

    def convert(self, data):
        if isinstance(data, tuple):
            return self._converter(*data)
        if isinstance(data, dict):
            return self._converter(**data)
        return self._converter(data)
