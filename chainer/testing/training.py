"""A trainer whose updater is a mock, to test extensions and triggers."""


def get_trainer_with_mock_updater(
        stop_trigger=(10, 'iteration'), iter_per_epoch=10, extensions=None):
    """Returns a :class:`~chainer.training.Trainer` with a mock updater.

    The updater's ``update()`` advances ``iteration``, ``epoch``,
    ``epoch_detail``, ``previous_epoch_detail`` and ``is_new_epoch`` as a
    real updater would, with ``iter_per_epoch`` iterations per epoch; it has
    no optimizers.

    Args:
        stop_trigger: The stop trigger of the trainer.
        iter_per_epoch (int): Iterations per epoch.
        extensions (list): Extensions registered to the trainer.

    Returns:
        chainer.training.Trainer: The trainer.
    """
    from unittest import mock

    from chainer import training

    if extensions is None:
        extensions = []
    updater = mock.Mock()
    updater.get_all_optimizers.return_value = {}
    updater.iteration = 0
    updater.epoch = 0
    updater.epoch_detail = 0
    updater.is_new_epoch = True
    updater.previous_epoch_detail = None

    def update():
        updater.update_core()
        updater.iteration += 1
        updater.epoch = updater.iteration // iter_per_epoch
        updater.epoch_detail = updater.iteration / iter_per_epoch
        updater.is_new_epoch = (updater.iteration - 1) // \
            iter_per_epoch != updater.epoch
        updater.previous_epoch_detail = \
            (updater.iteration - 1) / iter_per_epoch

    updater.update = update
    trainer = training.Trainer(updater, stop_trigger)
    for ext in extensions:
        trainer.extend(ext)
    return trainer
