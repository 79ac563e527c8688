"""DaliIterator: minibatches from an NVIDIA DALI pipeline (experimental)."""

from chainer.dataset import iterator


class DaliIterator(iterator.Iterator):
    """Iterates over the outputs of a built-or-not NVIDIA DALI pipeline.

    Each batch is a list of tuples, one per example, of the pipeline's
    outputs (as NumPy arrays). Needs the ``nvidia.dali`` package; without
    it the constructor raises ImportError.

    Args:
        pipeline: A ``nvidia.dali.pipeline.Pipeline``.
        repeat (bool): Loop forever; otherwise stop after one epoch.
    """

    def __init__(self, pipeline, repeat=True):
        try:
            import nvidia.dali  # NOQA
        except ImportError as e:
            raise ImportError('DaliIterator needs NVIDIA DALI (the '
                              'nvidia.dali package)') from e
        self.pipeline = pipeline
        self._repeat = repeat
        pipeline.build()
        sizes = pipeline.epoch_size()
        self._epoch_size = (list(sizes.values())[0] if isinstance(sizes, dict)
                            else int(sizes))
        self.reset()

    @property
    def batch_size(self):
        return self.pipeline.batch_size

    def reset(self):
        self.current_position = 0
        self.epoch = 0
        self.is_new_epoch = False
        self._previous_epoch_detail = -1.

    @property
    def repeat(self):
        return self._repeat

    @property
    def epoch_detail(self):
        return self.epoch + self.current_position / self._epoch_size

    @property
    def previous_epoch_detail(self):
        p = self._previous_epoch_detail
        return None if p < 0 else p

    def __next__(self):
        if not self._repeat and self.epoch > 0:
            raise StopIteration
        self._previous_epoch_detail = self.epoch_detail
        outputs = []
        for out in self.pipeline.run():
            if hasattr(out, 'as_cpu'):
                out = out.as_cpu()
            outputs.append([out.at(i) for i in range(len(out))])
        batch = list(zip(*outputs))
        position = self.current_position + self.batch_size
        if position >= self._epoch_size:
            self.current_position = position - self._epoch_size
            self.epoch += 1
            self.is_new_epoch = True
        else:
            self.current_position = position
            self.is_new_epoch = False
        return batch

    next = __next__

    def serialize(self, serializer):
        self.current_position = serializer('current_position',
                                           self.current_position)
        self.epoch = serializer('epoch', self.epoch)
        self.is_new_epoch = serializer('is_new_epoch', self.is_new_epoch)
        self._previous_epoch_detail = serializer(
            'previous_epoch_detail', self._previous_epoch_detail)
