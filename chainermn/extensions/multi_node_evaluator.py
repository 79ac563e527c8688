"""Evaluation over the shares of all ranks."""

import copy

import chainer
from chainer.dataset import convert
from chainer.training import extension
from chainer.training.updaters import standard_updater
from chainer.utils import argument
from chainermn.extensions._util import to_host_value

# Batches each rank evaluates between two gathers of the results.
_ROUND = 8


class GenericMultiNodeEvaluator(extension.Extension):
    """Evaluates on every rank's own share of the data and aggregates the
    results on ``root``, for metrics that are not a mean of means.

    Calling it (``trainer`` may be None) runs ``iterator`` (which must not
    repeat; it is reset first) on every rank: each batch goes through
    ``converter`` (to ``device``) and :meth:`calc_local`. The results of all
    ranks are gathered to ``root`` in the order batch 0 of rank 0, batch 0 of
    rank 1, ..., batch 1 of rank 0, ... (ranks with fewer batches drop out of
    the rotation), and ``root`` returns :meth:`aggregate` of that list; the
    other ranks return None. Every rank must call it together. The keyword
    ``progress_hook`` is called with each batch evaluated on ``root``.

    Override :meth:`calc_local` and :meth:`aggregate` for a metric of your
    own; report from :meth:`aggregate` (or set up a reporter in
    ``initialize``), as no reporting is done otherwise.
    """

    trigger = 1, 'epoch'
    default_name = 'validation'
    priority = extension.PRIORITY_WRITER
    name = None

    def __init__(self, comm, iterator, target, device=None,
                 converter=convert.concat_examples, root=0, **kwargs):
        progress_hook, = argument.parse_kwargs(kwargs, ('progress_hook', None))
        self.comm, self.iterator, self.target = comm, iterator, target
        self.device = device if device is None else chainer.get_device(device)
        self.converter, self.root = converter, root
        self._progress_hook = progress_hook

    def calc_local(self, *args, **kwargs):
        """What one batch gives (anything but None): by default the target
        called with the converted batch."""
        return self.target(*args, **kwargs)

    def aggregate(self, results):
        """What the evaluation gives on ``root``, from the list of every
        rank's :meth:`calc_local` results: by default the list itself."""
        return results

    def _calc(self, batch):
        in_arrays = standard_updater._call_converter(self.converter, batch, self.device)
        if isinstance(in_arrays, tuple):
            return self.calc_local(*in_arrays)
        if isinstance(in_arrays, dict):
            return self.calc_local(**in_arrays)
        return self.calc_local(in_arrays)

    def __call__(self, trainer=None):
        comm, root = self.comm, self.root
        it = self.iterator
        if hasattr(it, 'reset'):
            it.reset()
        else:
            it = copy.copy(it)
        batches = iter(it)
        results, done = [], False
        with chainer.using_config('train', False), chainer.no_backprop_mode():
            while True:
                mine = []
                while not done and len(mine) < _ROUND:
                    batch = next(batches, None)
                    if batch is None:
                        done = True
                        break
                    mine.append(self._calc(batch))
                    if comm.rank == root and self._progress_hook is not None:
                        self._progress_hook(batch)
                every = comm.gather_obj((mine, done), root=root)
                if comm.rank == root:
                    for i in range(max(len(m) for m, _ in every)):
                        results.extend(m[i] for m, _ in every if i < len(m))
                if comm.bcast_obj(every is not None and all(d for _, d in every), root=root):
                    break
        return self.aggregate(results) if comm.rank == root else None


def create_multi_node_evaluator(actual_evaluator, communicator):
    """Makes ``actual_evaluator`` (a :class:`chainer.training.extensions.
    Evaluator`, or anything with ``evaluate()`` returning a dict) report the
    mean over the ranks of what it computes on each rank's own share of the
    validation data.

    ``actual_evaluator`` itself is returned, its ``evaluate`` replaced (the
    original is kept as ``_mn_original_evaluate``, the communicator as
    ``_mn_communicator``): every rank computes its local means, and each
    value is averaged over the ranks. Every rank must evaluate together; ranks
    that report different keys raise the same :class:`ValueError`.
    """
    actual_evaluator._mn_original_evaluate = actual_evaluator.evaluate
    actual_evaluator._mn_communicator = communicator

    def evaluate(self):
        comm = self._mn_communicator
        local = {k: to_host_value(v) for k, v in self._mn_original_evaluate().items()}
        every = comm.gather_obj(local)
        result = None
        if comm.rank == 0:
            keys = [sorted(d) for d in every]
            if any(k != keys[0] for k in keys):
                result = 'the ranks reported different keys: ' + '; '.join(
                    'rank {}: {}'.format(r, k) for r, k in enumerate(keys))
            else:
                result = {k: sum(d[k] for d in every) / comm.size for k in keys[0]}
        result = comm.bcast_obj(result)
        if isinstance(result, str):
            raise ValueError('multi-node evaluator: ' + result)
        return result

    actual_evaluator.evaluate = evaluate.__get__(actual_evaluator)
    return actual_evaluator
