"""Evaluator: computes the mean of the reported values over a validation
set."""

import copy
import warnings

import chainer
from chainer import backend
from chainer import configuration
from chainer import link as link_module
from chainer import reporter as reporter_module
from chainer.dataset import convert
from chainer.training import extension
from chainer.training.extensions import util
from chainer.utils import argument
from chainer.training.updaters import standard_updater


class Evaluator(extension.Extension):
    """Runs the target over the whole validation iterator (in test mode,
    without backprop) and reports the means of what it reported, prefixed
    with the extension's name (``'validation/main/loss'``).

    Args:
        iterator: The validation iterator (``repeat=False``), or a dict of
            them (``'main'`` is used).
        target: The link to evaluate, or a dict of links (``'main'``).
        converter: Turns a list of examples into arrays.
        device: Where the converter sends the arrays.
        eval_hook (callable): Called as ``eval_hook(evaluator)`` before
            each evaluation.
        eval_func (callable): Called on each batch instead of the target.
        progress_bar (bool): Show a progress bar of the evaluation.
    """

    trigger = 1, 'epoch'
    default_name = 'validation'
    priority = extension.PRIORITY_WRITER
    name = None

    def __init__(self, iterator, target, converter=convert.concat_examples,
                 device=None, eval_hook=None, eval_func=None, **kwargs):
        progress_bar = kwargs.pop('progress_bar', False)
        if kwargs:
            # Chainer's text (its parse_kwargs names __init__)
            raise argument.unexpected_error('__init__', kwargs)
        if device is not None:
            device = backend.get_device(device)
        if not isinstance(iterator, dict):
            iterator = {'main': iterator}
        if isinstance(target, link_module.Link):
            target = {'main': target}
        for key, it in iterator.items():
            if getattr(it, 'repeat', False):
                warnings.warn(
                    'The `repeat` property of the iterator {!r} is set to '
                    'True: the evaluator sweeps each iterator until it stops, '
                    'so this one might never stop and the evaluation could '
                    'loop forever. Use repeat=False.'.format(key))
        self._iterators = iterator
        self._targets = target
        self.converter = converter
        self.device = device
        self.eval_hook = eval_hook
        self.eval_func = eval_func
        self._progress_bar = progress_bar

    def get_iterator(self, name):
        """Returns the iterator called ``name``."""
        return self._iterators[name]

    def get_all_iterators(self):
        """Returns a dict of all the iterators."""
        return dict(self._iterators)

    def get_target(self, name):
        """Returns the target link called ``name``."""
        return self._targets[name]

    def get_all_targets(self):
        """Returns a dict of all the target links."""
        return dict(self._targets)

    def __call__(self, trainer=None):
        """Evaluates and reports the result (to the current reporter).

        Returns:
            dict: The means of the reported values.
        """
        reporter = reporter_module.Reporter()
        prefix = '' if self.name is None else self.name + '/'
        for name, target in self._targets.items():
            reporter.add_observer(prefix + name, target)
            reporter.add_observers(prefix + name,
                                   target.namedlinks(skipself=True))
        with reporter:
            with configuration.using_config('train', False):
                result = self.evaluate()
        reporter_module.report(result)
        return result

    def evaluate(self):
        """Runs the evaluation loop; returns the means of the values that
        were reported during it (with the current reporter's names)."""
        iterator = self._iterators['main']
        eval_func = self.eval_func or self._targets['main']
        if self.eval_hook:
            self.eval_hook(self)
        if hasattr(iterator, 'reset'):
            iterator.reset()
            it = iterator
        else:
            warnings.warn(
                'This iterator does not have the reset method. Evaluator '
                'copies the iterator instead of resetting. This behavior is '
                'deprecated. Please implement the reset method.',
                DeprecationWarning)
            it = copy.copy(iterator)
        summary = reporter_module.DictSummary()
        pbar = util.IteratorProgressBar(iterator=it) \
            if self._progress_bar else None
        for batch in it:
            observation = {}
            with reporter_module.report_scope(observation):
                in_arrays = standard_updater._call_converter(
                    self.converter, batch, self.device)
                with chainer.no_backprop_mode():
                    if isinstance(in_arrays, tuple):
                        eval_func(*in_arrays)
                    elif isinstance(in_arrays, dict):
                        eval_func(**in_arrays)
                    else:
                        eval_func(in_arrays)
            summary.add(observation)
            if pbar is not None:
                pbar.update()
        if pbar is not None:
            pbar.close()
        return summary.compute_mean()

    def finalize(self):
        """Finalizes the iterators."""
        for iterator in self._iterators.values():
            iterator.finalize()
