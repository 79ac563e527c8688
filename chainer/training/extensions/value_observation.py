"""Extensions that put a value (the learning rate...) into the
observation."""

from chainer.training import extension


def observe_value(observation_key, target_func):
    """Returns an extension that stores ``target_func(trainer)`` in the
    observation under ``observation_key`` (default trigger
    ``(1, 'epoch')``, priority ``PRIORITY_WRITER``).

    Args:
        observation_key (str): The key.
        target_func (callable): ``target_func(trainer)`` gives the value.
    """
    @extension.make_extension(trigger=(1, 'epoch'),
                              priority=extension.PRIORITY_WRITER)
    def _observe_value(trainer):
        trainer.observation[observation_key] = target_func(trainer)
    return _observe_value


def observe_lr(optimizer_name='main', observation_key='lr'):
    """Returns an extension that records the learning rate (``lr``) of the
    optimizer ``optimizer_name``."""
    return observe_value(
        observation_key,
        lambda trainer: trainer.updater.get_optimizer(optimizer_name).lr)
