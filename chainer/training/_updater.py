"""Updater: the interface of the objects that run one training step."""


class Updater:
    """The base class of updaters.

    An updater owns the iterators and optimizers; each :meth:`update` runs
    one iteration (read a minibatch, compute the loss, update the
    parameters). It also tells the trainer and the triggers where training
    stands: ``iteration``, ``epoch``, ``epoch_detail``, ``is_new_epoch``.
    """

    def connect_trainer(self, trainer):
        """Called by the trainer it is given to (nothing by default)."""
        pass

    def finalize(self):
        """Releases what the updater holds (iterators' workers, ...)."""
        raise NotImplementedError

    def get_optimizer(self, name):
        """Returns the optimizer called ``name``."""
        raise NotImplementedError

    def get_all_optimizers(self):
        """Returns a dict of all the optimizers."""
        raise NotImplementedError

    def update(self):
        """Runs one update step."""
        raise NotImplementedError

    def serialize(self, serializer):
        """Saves or loads the updater's state."""
        raise NotImplementedError
