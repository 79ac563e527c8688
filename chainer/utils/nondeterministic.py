"""Warning helper for nondeterministic computations."""

import warnings


def nondeterministic(f_name):
    """Warns (when ``config.warn_nondeterministic``) that ``f_name`` is
    nondeterministic."""
    import chainer
    if getattr(chainer.config, 'warn_nondeterministic', False):
        warnings.warn(
            'Potentially nondeterministic computation {}'.format(f_name),
            RuntimeWarning)
