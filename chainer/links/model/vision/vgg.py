"""VGG networks (Simonyan and Zisserman, 2014) with 16 and 19 layers, laid
out as the VGG team's Caffe models (so their converted weights load)."""

import collections

from chainer.functions.activation.relu import relu
from chainer.functions.activation.softmax import softmax
from chainer.functions.noise.dropout import dropout
from chainer.initializers import constant
from chainer.initializers import normal
from chainer.links.model.vision import _common
from chainer.links.model.vision._common import available  # NOQA

import chainer.functions as F


_MEAN_BGR = (103.939, 116.779, 123.68)


def prepare(image, size=(224, 224)):
    """Converts an image to the input of the VGG models.

    The image is converted to RGB, resized to ``size`` (``(width,
    height)``; None keeps the size), its channels flipped to BGR, the mean
    pixel of the training images (B, G, R = 103.939, 116.779, 123.68)
    subtracted, and transposed to ``(3, height, width)`` of
    ``chainer.config.dtype``. Needs Pillow.

    Args:
        image (PIL.Image.Image or numpy.ndarray): The image: a Pillow image
            or an array ``(H, W)``, ``(1, H, W)``, ``(3, H, W)`` or
            ``(H, W, C)`` of values 0-255.
        size (tuple of ints): The target ``(width, height)``.

    Returns:
        numpy.ndarray: The converted image.
    """
    return _common.prepare(image, size, _MEAN_BGR)


def _max_pooling_2d(x):
    return F.max_pooling_2d(x, ksize=2)


class VGGLayers(_common.PretrainedCNN):
    """A VGG network with 16 or 19 layers (the base of
    :class:`VGG16Layers` and :class:`VGG19Layers`).

    The convolutions ``conv{1..5}_{k}`` (3x3, padding 1, each followed by
    ReLU; five blocks separated by 2x2 max pooling) and the fully connected
    ``fc6`` (``512 * 7 * 7 -> 4096``), ``fc7`` and ``fc8`` (1000 classes).

    Args:
        pretrained_model (str): The path of an ``.npz`` file of weights (as
            converted from the VGG team's caffemodel), ``'auto'`` for the
            converted file in the model cache (``$CHAINER_DATASET_ROOT/
            pfnet/chainer/models/``; nothing is downloaded), or None for
            random weights (normal with standard deviation 0.01, zero
            biases).
        n_layers (int): 16 or 19.

    Attributes:
        available_layers (list of str): The names of the layers whose
            outputs :meth:`forward` can return.
    """

    _prepare = staticmethod(prepare)
    _extract_layer = 'fc7'

    def __init__(self, pretrained_model='auto', n_layers=16):
        super().__init__()
        if n_layers == 16:
            blocks = (2, 2, 3, 3, 3)
        elif n_layers == 19:
            blocks = (2, 2, 4, 4, 4)
        else:
            raise ValueError('The n_layers argument should be either 16 or '
                             '19, but {} was given.'.format(n_layers))
        self._blocks = blocks
        if pretrained_model:
            # the weights get replaced: skip the costly random draw
            kwargs = {'initialW': constant.Zero(),
                      'initial_bias': constant.Zero()}
        else:
            kwargs = {'initialW': normal.Normal(0.01),
                      'initial_bias': constant.Zero()}
        from chainer.links.connection.convolution_2d import Convolution2D
        from chainer.links.connection.linear import Linear
        channels = (3, 64, 128, 256, 512, 512)
        # Made in Chainer's order, so that seeded random weights are its:
        # the 16-layer net's convolutions and fully connected layers first,
        # then the 19-layer net's fourth convolutions of blocks 3 to 5.
        first = (2, 2, 3, 3, 3)
        convs = [(b, k) for b in range(5) for k in range(first[b])] + \
            [(b, k) for b in range(5) for k in range(first[b], blocks[b])]
        with self.init_scope():
            for b, k in convs[:sum(first)]:
                self._add_conv(b, k, channels, Convolution2D, kwargs)
            self.fc6 = Linear(512 * 7 * 7, 4096, **kwargs)
            self.fc7 = Linear(4096, 4096, **kwargs)
            self.fc8 = Linear(4096, 1000, **kwargs)
            for b, k in convs[sum(first):]:
                self._add_conv(b, k, channels, Convolution2D, kwargs)
        _common.load_pretrained(
            self, pretrained_model,
            'VGG_ILSVRC_{}_layers.npz'.format(n_layers),
            'VGG_ILSVRC_{}_layers.caffemodel'.format(n_layers))

    def _add_conv(self, b, k, channels, conv, kwargs):
        in_ch = channels[b] if k == 0 else channels[b + 1]
        setattr(self, 'conv{}_{}'.format(b + 1, k + 1),
                conv(in_ch, channels[b + 1], 3, 1, 1, **kwargs))

    @property
    def functions(self):
        """An OrderedDict ``layer name -> list of callables``, in order."""
        fs = collections.OrderedDict()
        for b, n_conv in enumerate(self._blocks):
            for k in range(n_conv):
                name = 'conv{}_{}'.format(b + 1, k + 1)
                fs[name] = [getattr(self, name), relu]
            fs['pool{}'.format(b + 1)] = [_max_pooling_2d]
        fs['fc6'] = [self.fc6, relu, dropout]
        fs['fc7'] = [self.fc7, relu, dropout]
        fs['fc8'] = [self.fc8]
        fs['prob'] = [softmax]
        return fs

    @classmethod
    def convert_caffemodel_to_npz(cls, path_caffemodel, path_npz):
        """Converts the VGG team's caffemodel to an ``.npz`` file that
        ``pretrained_model`` accepts (needs
        :class:`chainer.links.caffe.CaffeFunction`)."""
        from chainer.serializers import npz
        caffemodel = _common.caffe_function(path_caffemodel)
        npz.save_npz(path_npz, caffemodel, compression=False)


class VGG16Layers(VGGLayers):
    """A pre-trained CNN model with 16 layers provided by VGG team.

    See :class:`VGGLayers` for the layers and the methods. Without network
    access, give ``pretrained_model`` the path of the converted ``.npz``
    file (or None for random weights).

    Args:
        pretrained_model (str): The path of an ``.npz`` file, ``'auto'`` (the
            model cache; nothing is downloaded) or None.

    >>> import chainer.links as L
    >>> model = L.VGG16Layers(pretrained_model=None)  # doctest: +SKIP
    >>> model.available_layers[:3]  # doctest: +SKIP
    ['conv1_1', 'conv1_2', 'pool1']
    """

    def __init__(self, pretrained_model='auto'):
        super().__init__(pretrained_model, 16)


class VGG19Layers(VGGLayers):
    """A pre-trained CNN model with 19 layers provided by VGG team.

    See :class:`VGGLayers` for the layers and the methods.

    Args:
        pretrained_model (str): The path of an ``.npz`` file, ``'auto'`` (the
            model cache; nothing is downloaded) or None.
    """

    def __init__(self, pretrained_model='auto'):
        super().__init__(pretrained_model, 19)
