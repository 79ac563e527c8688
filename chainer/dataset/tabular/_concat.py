"""concat(): datasets with the same keys, one after another."""

import bisect
import itertools

from chainer.dataset.tabular import _slice
from chainer.dataset.tabular import tabular_dataset


class _Concat(tabular_dataset.TabularDataset):

    def __init__(self, *datasets):
        for dataset in datasets[1:]:
            if dataset.keys != datasets[0].keys:
                raise ValueError('All datasets must have the same keys')
        self._datasets = datasets

    def __len__(self):
        return sum(len(dataset) for dataset in self._datasets)

    @property
    def keys(self):
        return self._datasets[0].keys

    @property
    def mode(self):
        return self._datasets[0].mode

    def convert(self, data):
        return self._datasets[0].convert(data)

    def get_examples(self, indices, key_indices):
        n_columns = len(self.keys if key_indices is None else key_indices)
        if indices is None:
            parts = [(d, None) for d in self._datasets if len(d)]
        elif isinstance(indices, slice):
            parts = self._split_slice(indices)
        else:
            return self._take(indices, key_indices, n_columns)
        outputs = [d.get_examples(sub, key_indices) for d, sub in parts]
        if len(outputs) == 1:
            return outputs[0]
        return tuple([value for output in outputs for value in output[c]]
                     for c in range(n_columns))

    def _split_slice(self, indices):
        """The datasets that the slice reaches, in the order it reaches
        them, each with the slice of its own rows."""
        start, stop, step = indices.indices(len(self))
        parts = []
        offset = 0
        for dataset in self._datasets:
            n = len(dataset)
            if step > 0:
                # rows in [lo, hi), from the first one on the slice's step
                lo, hi = max(start, offset), min(stop, offset + n)
                first = lo + (start - lo) % step
                if first < hi:
                    parts.append((dataset, slice(
                        first - offset, hi - offset, step)))
            else:
                # rows in (lo, hi], going down
                lo, hi = max(stop, offset - 1), min(start, offset + n - 1)
                first = hi - (hi - start) % -step
                if first > lo:
                    sub_stop = lo - offset if lo >= offset else None
                    parts.append((dataset, slice(
                        first - offset, sub_stop, step)))
            offset += n
        return parts if step > 0 else parts[::-1]

    def _take(self, indices, key_indices, n_columns):
        rows = _slice._as_rows(indices, len(self))
        offsets = list(itertools.accumulate(
            [0] + [len(d) for d in self._datasets]))
        subs = {}  # dataset number -> its own rows
        places = []  # for each row: (dataset number, place among its rows)
        for row in rows:
            k = bisect.bisect_right(offsets, row) - 1
            sub = subs.setdefault(k, [])
            places.append((k, len(sub)))
            sub.append(row - offsets[k])
        outputs = {k: self._datasets[k].get_examples(sub, key_indices)
                   for k, sub in sorted(subs.items())}
        if len(outputs) == 1:
            return outputs.popitem()[1]
        return tuple([outputs[k][c][p] for k, p in places]
                     for c in range(n_columns))
