"""Formatting of array properties in error messages."""


def _format_array_props(arrays):
    """``'(2, 3):float32, ():int32'``: the shapes and dtypes of arrays
    (None entries print as ``None``)."""
    return ', '.join(
        'None' if a is None else '{}:{}'.format(a.shape, a.dtype)
        for a in arrays)
