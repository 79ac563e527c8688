"""The serializer protocol: how objects are saved and loaded.

An object that can be saved implements ``serialize(serializer)``, calling
``value = serializer(key, value)`` for each of its values and
``child.serialize(serializer[name])`` for each of its children. A
:class:`Serializer` records the values and returns them unchanged; a
:class:`Deserializer` returns the loaded values, and copies arrays in place.
"""


class AbstractSerializer:
    """The base of serializers and deserializers."""

    def __getitem__(self, key):
        """Returns the child serializer for ``key`` (a sub-hierarchy)."""
        raise NotImplementedError

    def __call__(self, key, value):
        """Serializes (saves) or deserializes (loads) one value.

        Args:
            key (str): The name of the value.
            value: A scalar, an array, or None. A deserializer copies into an
                array in place, and returns the loaded value for the others.

        Returns:
            The value (loaded, for a deserializer).
        """
        raise NotImplementedError


class Serializer(AbstractSerializer):
    """The base of serializers (which save)."""

    def save(self, obj):
        """Saves ``obj`` (calls ``obj.serialize(self)``)."""
        obj.serialize(self)


class Deserializer(AbstractSerializer):
    """The base of deserializers (which load).

    Attributes:
        dry_run (bool): True during the first, validating pass of a staged
            load (see :class:`chainer.serializers.NpzDeserializer`): the
            deserializer reads and checks every value and returns what a
            real load returns, but copies nothing into the arrays it is
            given. A ``serialize`` method that must leave its object
            untouched by a failed load skips its own assignments while
            ``dry_run`` is set (as :meth:`chainer.Link.serialize` does); the
            second pass, with ``dry_run`` False, does the real load.
    """

    dry_run = False

    def load(self, obj):
        """Loads ``obj`` (calls ``obj.serialize(self)``)."""
        obj.serialize(self)


def _none_refused(key, value):
    """The ValueError for a stored None (an empty value) loaded at ``key``
    (its full path) where ``value`` cannot become None: state that must
    stay an array (an optimizer's moment, a persistent statistic) or a
    scalar."""
    from chainer import backend, variable
    if isinstance(value, variable.Variable):
        value = value.array
    if isinstance(value, backend._get_array_types()):
        target = 'an array of shape {} and dtype {}'.format(value.shape,
                                                            value.dtype)
    else:
        target = 'a value of type {} ({!r})'.format(type(value).__name__,
                                                    value)
    return ValueError(
        'cannot load {!r}: the file holds None (an empty value) where the '
        'target is {}'.format(key, target))
