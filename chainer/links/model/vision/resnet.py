"""Residual networks (He et al., 2015) with 50, 101 and 152 layers, laid
out as MSRA's Caffe models (so their converted weights load)."""

import collections

import chainer.functions as F
from chainer import link
from chainer.functions.activation.relu import relu
from chainer.functions.activation.softmax import softmax
from chainer.initializers import constant
from chainer.initializers import normal
from chainer.links.model.vision import _common
from chainer.links.model.vision._common import available  # NOQA


_MEAN_BGR = (103.063, 115.903, 123.152)
_BLOCKS = {50: (3, 4, 6, 3), 101: (3, 4, 23, 3), 152: (3, 8, 36, 3)}


def prepare(image, size=(224, 224)):
    """Converts an image to the input of the ResNet models.

    The image is converted to RGB, resized to ``size`` (``(width,
    height)``; None keeps the size), its channels flipped to BGR, the mean
    pixel (B, G, R = 103.063, 115.903, 123.152) subtracted, and transposed
    to ``(3, height, width)`` of ``chainer.config.dtype``. Needs Pillow.

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
    return F.max_pooling_2d(x, ksize=3, stride=2)


def _global_average_pooling_2d(x):
    n, channels, rows, cols = x.shape
    h = F.average_pooling_2d(x, (rows, cols), stride=1)
    return F.reshape(h, (n, channels))


def _conv_bn(in_channels, out_channels, ksize, stride, pad, initialW):
    from chainer.links.connection.convolution_2d import Convolution2D
    from chainer.links.normalization.batch_normalization import \
        BatchNormalization
    return (Convolution2D(in_channels, out_channels, ksize, stride, pad,
                          initialW=initialW, nobias=True),
            BatchNormalization(out_channels))


class BottleneckA(link.Chain):
    """A bottleneck layer that changes the number of channels (and, with
    ``stride``, the resolution): ``relu(main(x) + shortcut(x))``.

    The main path is 1x1 ``conv1`` (``in -> mid``), 3x3 ``conv2`` and 1x1
    ``conv3`` (``mid -> out``), each followed by batch normalization
    ``bn1 .. bn3`` (ReLU after the first two); the shortcut is a 1x1
    ``conv4`` with ``bn4``. No convolution has a bias.

    Args:
        in_channels (int): The input channels.
        mid_channels (int): The channels of the bottleneck.
        out_channels (int): The output channels.
        stride (int or tuple of ints): The stride of the block.
        initialW: Initializer of the convolution weights.
        downsample_fb (bool): If True, the 3x3 convolution strides (as
            Facebook's ResNet); else the first 1x1 convolution (as MSRA's
            original).
    """

    def __init__(self, in_channels, mid_channels, out_channels, stride=2,
                 initialW=None, downsample_fb=False):
        super().__init__()
        stride_1x1, stride_3x3 = (1, stride) if downsample_fb else \
            (stride, 1)
        with self.init_scope():
            self.conv1, self.bn1 = _conv_bn(in_channels, mid_channels, 1,
                                            stride_1x1, 0, initialW)
            self.conv2, self.bn2 = _conv_bn(mid_channels, mid_channels, 3,
                                            stride_3x3, 1, initialW)
            self.conv3, self.bn3 = _conv_bn(mid_channels, out_channels, 1, 1,
                                            0, initialW)
            self.conv4, self.bn4 = _conv_bn(in_channels, out_channels, 1,
                                            stride, 0, initialW)

    def forward(self, x):
        h1 = relu(self.bn1(self.conv1(x)))
        h1 = relu(self.bn2(self.conv2(h1)))
        h1 = self.bn3(self.conv3(h1))
        h2 = self.bn4(self.conv4(x))
        return relu(h1 + h2)


class BottleneckB(link.Chain):
    """A bottleneck layer that keeps the shape: ``relu(main(x) + x)``, the
    main path as in :class:`BottleneckA` (``in -> mid -> in``).

    Args:
        in_channels (int): The input (and output) channels.
        mid_channels (int): The channels of the bottleneck.
        initialW: Initializer of the convolution weights.
    """

    def __init__(self, in_channels, mid_channels, initialW=None):
        super().__init__()
        with self.init_scope():
            self.conv1, self.bn1 = _conv_bn(in_channels, mid_channels, 1, 1,
                                            0, initialW)
            self.conv2, self.bn2 = _conv_bn(mid_channels, mid_channels, 3, 1,
                                            1, initialW)
            self.conv3, self.bn3 = _conv_bn(mid_channels, in_channels, 1, 1,
                                            0, initialW)

    def forward(self, x):
        h = relu(self.bn1(self.conv1(x)))
        h = relu(self.bn2(self.conv2(h)))
        h = self.bn3(self.conv3(h))
        return relu(h + x)


class BuildingBlock(link.Chain):
    """A stage of a ResNet: one :class:`BottleneckA` (``a``) then
    ``n_layer - 1`` :class:`BottleneckB` (``b1``, ``b2``, ...).

    Args:
        n_layers (int): The number of bottleneck layers (``n_layer`` is
            accepted as its old name).
        in_channels (int): The input channels.
        mid_channels (int): The channels of the bottlenecks.
        out_channels (int): The output channels.
        stride (int or tuple of ints): The stride of the first layer.
        initialW: Initializer of the convolution weights.
        downsample_fb (bool): Where the first layer strides (see
            :class:`BottleneckA`).
    """

    def __init__(self, n_layers=None, in_channels=None, mid_channels=None,
                 out_channels=None, stride=None, initialW=None,
                 downsample_fb=None, **kwargs):
        if 'n_layer' in kwargs:
            n_layers = kwargs.pop('n_layer')
        if kwargs:
            raise TypeError('BuildingBlock: unexpected keyword argument(s) '
                            '{}'.format(', '.join(sorted(kwargs))))
        required = dict(n_layers=n_layers, in_channels=in_channels,
                        mid_channels=mid_channels, out_channels=out_channels,
                        stride=stride)
        missing = [k for k, v in required.items() if v is None]
        if missing:
            raise TypeError('BuildingBlock: missing argument(s) {}'.format(
                ', '.join(missing)))
        downsample_fb = bool(downsample_fb)
        super().__init__()
        with self.init_scope():
            self.a = BottleneckA(in_channels, mid_channels, out_channels,
                                 stride, initialW, downsample_fb)
            self._forward = ['a']
            for i in range(1, n_layers):
                name = 'b{}'.format(i)
                setattr(self, name, BottleneckB(out_channels, mid_channels,
                                                initialW))
                self._forward.append(name)

    def forward(self, x):
        for name in self._forward:
            x = getattr(self, name)(x)
        return x


class ResNetLayers(_common.PretrainedCNN):
    """A residual network with 50, 101 or 152 layers (the base of
    :class:`ResNet50Layers`, :class:`ResNet101Layers` and
    :class:`ResNet152Layers`).

    ``conv1`` (7x7, stride 2, with bias) and ``bn1``, 3x3 max pooling, the
    stages ``res2`` .. ``res5`` (:class:`BuildingBlock`, 256 to 2048
    channels), global average pooling and ``fc6`` (1000 classes).

    Args:
        pretrained_model (str): The path of an ``.npz`` file of weights (as
            converted from MSRA's caffemodel), ``'auto'`` for the converted
            file in the model cache (``$CHAINER_DATASET_ROOT/pfnet/chainer/
            models/``; nothing is downloaded), or None for random weights
            (He normal convolutions).
        n_layers (int): 50, 101 or 152.
        downsample_fb (bool): Stride in the 3x3 convolutions (Facebook's
            variant) rather than the first 1x1 ones (MSRA's, which the
            pre-trained weights use).

    Attributes:
        available_layers (list of str): The names of the layers whose
            outputs :meth:`forward` can return.
    """

    _prepare = staticmethod(prepare)

    def __init__(self, pretrained_model, n_layers, downsample_fb=False):
        super().__init__()
        if n_layers not in _BLOCKS:
            raise ValueError(
                'The n_layers argument should be either 50, 101, or 152, '
                'but {} was given.'.format(n_layers))
        block = _BLOCKS[n_layers]
        if pretrained_model:
            # the weights get replaced: skip the costly random draw
            initialW = constant.Zero()
        else:
            initialW = normal.HeNormal(scale=1.0)
        from chainer.links.connection.convolution_2d import Convolution2D
        from chainer.links.connection.linear import Linear
        from chainer.links.normalization.batch_normalization import \
            BatchNormalization
        with self.init_scope():
            self.conv1 = Convolution2D(3, 64, 7, 2, 3, initialW=initialW)
            self.bn1 = BatchNormalization(64)
            self.res2 = BuildingBlock(block[0], 64, 64, 256, 1, initialW,
                                      downsample_fb)
            self.res3 = BuildingBlock(block[1], 256, 128, 512, 2, initialW,
                                      downsample_fb)
            self.res4 = BuildingBlock(block[2], 512, 256, 1024, 2, initialW,
                                      downsample_fb)
            self.res5 = BuildingBlock(block[3], 1024, 512, 2048, 2, initialW,
                                      downsample_fb)
            self.fc6 = Linear(2048, 1000)
        _common.load_pretrained(
            self, pretrained_model, 'ResNet-{}-model.npz'.format(n_layers),
            'ResNet-{}-model.caffemodel'.format(n_layers))

    @property
    def functions(self):
        """An OrderedDict ``layer name -> list of callables``, in order."""
        return collections.OrderedDict([
            ('conv1', [self.conv1, self.bn1, relu]),
            ('pool1', [_max_pooling_2d]),
            ('res2', [self.res2]),
            ('res3', [self.res3]),
            ('res4', [self.res4]),
            ('res5', [self.res5]),
            ('pool5', [_global_average_pooling_2d]),
            ('fc6', [self.fc6]),
            ('prob', [softmax]),
        ])

    @classmethod
    def convert_caffemodel_to_npz(cls, path_caffemodel, path_npz,
                                  n_layers=50):
        """Converts MSRA's ResNet caffemodel to an ``.npz`` file that
        ``pretrained_model`` accepts (needs
        :class:`chainer.links.caffe.CaffeFunction`)."""
        from chainer.serializers import npz
        caffemodel = _common.caffe_function(path_caffemodel)
        model = ResNetLayers(None, n_layers)
        _transfer_resnet(caffemodel, model, n_layers)
        npz.save_npz(path_npz, model, compression=False)


class ResNet50Layers(ResNetLayers):
    """A pre-trained CNN model with 50 layers provided by MSRA.

    See :class:`ResNetLayers` for the layers and the methods. Without
    network access, give ``pretrained_model`` the path of the converted
    ``.npz`` file (or None for random weights).

    Args:
        pretrained_model (str): The path of an ``.npz`` file, ``'auto'`` (the
            model cache; nothing is downloaded) or None.
        downsample_fb (bool): See :class:`ResNetLayers`.
    """

    def __init__(self, pretrained_model='auto', downsample_fb=False):
        super().__init__(pretrained_model, 50, downsample_fb)

    @classmethod
    def convert_caffemodel_to_npz(cls, path_caffemodel, path_npz, n_layers=None):
        # n_layers=None: this class's depth (Chainer's default, 50, would
        # mis-convert the deeper models).
        ResNetLayers.convert_caffemodel_to_npz(
            path_caffemodel, path_npz, 50 if n_layers is None else n_layers)


class ResNet101Layers(ResNetLayers):
    """A pre-trained CNN model with 101 layers provided by MSRA.

    See :class:`ResNetLayers`.

    Args:
        pretrained_model (str): The path of an ``.npz`` file, ``'auto'`` (the
            model cache; nothing is downloaded) or None.
        downsample_fb (bool): See :class:`ResNetLayers`.
    """

    def __init__(self, pretrained_model='auto', downsample_fb=False):
        super().__init__(pretrained_model, 101, downsample_fb)

    @classmethod
    def convert_caffemodel_to_npz(cls, path_caffemodel, path_npz, n_layers=None):
        # n_layers=None: this class's depth (Chainer's default, 50, would
        # mis-convert the deeper models).
        ResNetLayers.convert_caffemodel_to_npz(
            path_caffemodel, path_npz, 101 if n_layers is None else n_layers)


class ResNet152Layers(ResNetLayers):
    """A pre-trained CNN model with 152 layers provided by MSRA.

    See :class:`ResNetLayers`.

    Args:
        pretrained_model (str): The path of an ``.npz`` file, ``'auto'`` (the
            model cache; nothing is downloaded) or None.
        downsample_fb (bool): See :class:`ResNetLayers`.
    """

    def __init__(self, pretrained_model='auto', downsample_fb=False):
        super().__init__(pretrained_model, 152, downsample_fb)

    @classmethod
    def convert_caffemodel_to_npz(cls, path_caffemodel, path_npz, n_layers=None):
        # n_layers=None: this class's depth (Chainer's default, 50, would
        # mis-convert the deeper models).
        ResNetLayers.convert_caffemodel_to_npz(
            path_caffemodel, path_npz, 152 if n_layers is None else n_layers)


def _transfer_bn(caffemodel, bn, bn_name, scale_name):
    # Caffe splits batch normalization into BatchNorm (statistics) and
    # Scale (gamma and beta) layers
    src = _common.caffe_layer(caffemodel, bn_name)
    bn.avg_mean[...] = src.avg_mean
    bn.avg_var[...] = src.avg_var
    scale = _common.caffe_layer(caffemodel, scale_name)
    bn.gamma.array[...] = scale.W.array
    bn.beta.array[...] = scale.bias.b.array


def _transfer_bottleneck(caffemodel, block, name, with_shortcut):
    branches = ['branch2a', 'branch2b', 'branch2c']
    if with_shortcut:
        branches.append('branch1')
    for k, branch in enumerate(branches, 1):
        _common.copy_params(getattr(block, 'conv{}'.format(k)),
                            _common.caffe_layer(caffemodel, 'res{}_{}'.format(
                                name, branch)))
        _transfer_bn(caffemodel, getattr(block, 'bn{}'.format(k)),
                     'bn{}_{}'.format(name, branch),
                     'scale{}_{}'.format(name, branch))


def _transfer_resnet(caffemodel, model, n_layers):
    """Copies MSRA's Caffe layers (``conv1``, ``bn_conv1``, ``res2a_branch2a``
    ...) into ``model``. ResNet-50 names its blocks ``a, b, c, ...``, the
    deeper ones ``a, b1, b2, ...``."""
    _common.copy_params(model.conv1, _common.caffe_layer(caffemodel, 'conv1'))
    _transfer_bn(caffemodel, model.bn1, 'bn_conv1', 'scale_conv1')
    for stage, n_blocks in zip(range(2, 6), _BLOCKS[n_layers]):
        building = getattr(model, 'res{}'.format(stage))
        for i in range(n_blocks):
            if i == 0:
                suffix = 'a'
            elif n_layers == 50 or stage == 2 or stage == 5:
                suffix = chr(ord('a') + i)
            else:
                suffix = 'b{}'.format(i)
            block = building.a if i == 0 else getattr(building,
                                                      'b{}'.format(i))
            _transfer_bottleneck(caffemodel, block,
                                 '{}{}'.format(stage, suffix), i == 0)
    _common.copy_params(model.fc6, _common.caffe_layer(caffemodel, 'fc1000'))
