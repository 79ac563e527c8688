"""Warning helper for experimental APIs."""

import warnings


def experimental(api_name):
    """Warns that ``api_name`` is experimental."""
    import chainer
    if not getattr(chainer, 'disable_experimental_feature_warning', False):
        warnings.warn(
            '{} is experimental. The interface can change in the '
            'future.'.format(api_name), FutureWarning)
