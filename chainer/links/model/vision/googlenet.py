"""GoogLeNet (Szegedy et al., 2014), laid out as BVLC's Caffe model (so its
converted weights load), with the two auxiliary classifiers."""

import collections

import chainer.functions as F
from chainer.functions.activation.relu import relu
from chainer.functions.activation.softmax import softmax
from chainer.initializers import constant
from chainer.initializers import uniform
from chainer.links.model.vision import _common
from chainer.links.model.vision._common import available  # NOQA


_MEAN_BGR = (104.0, 117.0, 123.0)

# (attribute, Caffe name) of the Inception modules and their arguments
_INCEPTIONS = (
    ('inc3a', 'inception_3a', (192, 64, 96, 128, 16, 32, 32)),
    ('inc3b', 'inception_3b', (256, 128, 128, 192, 32, 96, 64)),
    ('inc4a', 'inception_4a', (480, 192, 96, 208, 16, 48, 64)),
    ('inc4b', 'inception_4b', (512, 160, 112, 224, 24, 64, 64)),
    ('inc4c', 'inception_4c', (512, 128, 128, 256, 24, 64, 64)),
    ('inc4d', 'inception_4d', (512, 112, 144, 288, 32, 64, 64)),
    ('inc4e', 'inception_4e', (528, 256, 160, 320, 32, 128, 128)),
    ('inc5a', 'inception_5a', (832, 256, 160, 320, 32, 128, 128)),
    ('inc5b', 'inception_5b', (832, 384, 192, 384, 48, 128, 128)),
)


def prepare(image, size=(224, 224)):
    """Converts an image to the input of GoogLeNet.

    The image is converted to RGB, resized to ``size`` (``(width,
    height)``; None keeps the size), its channels flipped to BGR, the mean
    pixel (B, G, R = 104, 117, 123) subtracted, and transposed to
    ``(3, height, width)`` of ``chainer.config.dtype``. Needs Pillow.

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


def _local_response_normalization(x):
    return F.local_response_normalization(x, n=5, k=1, alpha=1e-4 / 5)


def _average_pooling_2d_k5(x):
    return F.average_pooling_2d(x, ksize=5, stride=3)


def _average_pooling_2d_k7(x):
    return F.average_pooling_2d(x, ksize=7, stride=1)


def _dropout(x):
    return F.dropout(x, ratio=0.4)


class GoogLeNet(_common.PretrainedCNN):
    """A pre-trained GoogLeNet model provided by BVLC.

    ``conv1`` (7x7, stride 2), ``conv2_reduce`` (1x1), ``conv2`` (3x3),
    the Inception modules ``inc3a`` .. ``inc5b``, and the classifier
    ``loss3_fc``; plus the auxiliary classifiers of training
    (``loss1_conv``, ``loss1_fc1``, ``loss1_fc2`` on the output of
    ``inception_4a``, and ``loss2_*`` on that of ``inception_4d``), whose
    layers ``loss1_fc2`` and ``loss2_fc2`` come last in
    :attr:`available_layers` so that the usual outputs skip them.

    Args:
        pretrained_model (str): The path of an ``.npz`` file of weights (as
            converted from BVLC's caffemodel), ``'auto'`` for the converted
            file in the model cache (``$CHAINER_DATASET_ROOT/pfnet/chainer/
            models/``; nothing is downloaded), or None for random weights
            (LeCun uniform, zero biases).

    Attributes:
        available_layers (list of str): The names of the layers whose
            outputs :meth:`forward` can return.
    """

    _prepare = staticmethod(prepare)
    _caches = {'loss1_fc2': 'inception_4a', 'loss2_fc2': 'inception_4d'}

    def __init__(self, pretrained_model='auto'):
        super().__init__()
        if pretrained_model:
            # the weights get replaced: skip the costly random draw
            kwargs = {'initialW': constant.Zero()}
        else:
            kwargs = {'initialW': uniform.LeCunUniform(scale=1.0)}
        from chainer.links.connection.convolution_2d import Convolution2D
        from chainer.links.connection.inception import Inception
        from chainer.links.connection.linear import Linear
        with self.init_scope():
            self.conv1 = Convolution2D(3, 64, 7, stride=2, pad=3, **kwargs)
            self.conv2_reduce = Convolution2D(64, 64, 1, **kwargs)
            self.conv2 = Convolution2D(64, 192, 3, stride=1, pad=1, **kwargs)
            for name, _, args in _INCEPTIONS:
                setattr(self, name, Inception(*args))
            self.loss3_fc = Linear(1024, 1000, **kwargs)
            self.loss1_conv = Convolution2D(512, 128, 1, **kwargs)
            self.loss1_fc1 = Linear(2048, 1024, **kwargs)
            self.loss1_fc2 = Linear(1024, 1000, **kwargs)
            self.loss2_conv = Convolution2D(528, 128, 1, **kwargs)
            self.loss2_fc1 = Linear(2048, 1024, **kwargs)
            self.loss2_fc2 = Linear(1024, 1000, **kwargs)
        _common.load_pretrained(self, pretrained_model, 'bvlc_googlenet.npz',
                                'bvlc_googlenet.caffemodel')

    @property
    def functions(self):
        """An OrderedDict ``layer name -> list of callables``, in order
        (``loss1_fc2`` starts from the output of ``inception_4a``,
        ``loss2_fc2`` from that of ``inception_4d``)."""
        return collections.OrderedDict([
            ('conv1', [self.conv1, relu]),
            ('pool1', [_max_pooling_2d, _local_response_normalization]),
            ('conv2_reduce', [self.conv2_reduce, relu]),
            ('conv2', [self.conv2, relu, _local_response_normalization]),
            ('pool2', [_max_pooling_2d]),
            ('inception_3a', [self.inc3a]),
            ('inception_3b', [self.inc3b]),
            ('pool3', [_max_pooling_2d]),
            ('inception_4a', [self.inc4a]),
            ('inception_4b', [self.inc4b]),
            ('inception_4c', [self.inc4c]),
            ('inception_4d', [self.inc4d]),
            ('inception_4e', [self.inc4e]),
            ('pool4', [_max_pooling_2d]),
            ('inception_5a', [self.inc5a]),
            ('inception_5b', [self.inc5b]),
            ('pool5', [_average_pooling_2d_k7]),
            ('loss3_fc', [_dropout, self.loss3_fc]),
            ('prob', [softmax]),
            # rarely used, so after 'prob': the usual outputs skip them
            ('loss1_fc2', [_average_pooling_2d_k5, self.loss1_conv, relu,
                           self.loss1_fc1, relu, self.loss1_fc2]),
            ('loss2_fc2', [_average_pooling_2d_k5, self.loss2_conv, relu,
                           self.loss2_fc1, relu, self.loss2_fc2]),
        ])

    @classmethod
    def convert_caffemodel_to_npz(cls, path_caffemodel, path_npz):
        """Converts BVLC's GoogLeNet caffemodel to an ``.npz`` file that
        ``pretrained_model`` accepts (needs
        :class:`chainer.links.caffe.CaffeFunction`)."""
        from chainer.serializers import npz
        caffemodel = _common.caffe_function(path_caffemodel)
        model = cls(pretrained_model=None)
        _transfer_googlenet(caffemodel, model)
        npz.save_npz(path_npz, model, compression=False)


def _transfer_googlenet(caffemodel, model):
    """Copies BVLC's Caffe layers (``conv1/7x7_s2``, ``inception_3a/1x1``,
    ...) into ``model``."""
    def copy(dst, name):
        _common.copy_params(dst, _common.caffe_layer(caffemodel, name))

    copy(model.conv1, 'conv1/7x7_s2')
    copy(model.conv2_reduce, 'conv2/3x3_reduce')
    copy(model.conv2, 'conv2/3x3')
    parts = (('conv1', '1x1'), ('proj3', '3x3_reduce'), ('conv3', '3x3'),
             ('proj5', '5x5_reduce'), ('conv5', '5x5'),
             ('projp', 'pool_proj'))
    for name, caffe_name, _ in _INCEPTIONS:
        inception = getattr(model, name)
        for attr, suffix in parts:
            copy(getattr(inception, attr), '{}/{}'.format(caffe_name, suffix))
    copy(model.loss3_fc, 'loss3/classifier')
    for k in (1, 2):
        copy(getattr(model, 'loss{}_conv'.format(k)), 'loss{}/conv'.format(k))
        copy(getattr(model, 'loss{}_fc1'.format(k)), 'loss{}/fc'.format(k))
        copy(getattr(model, 'loss{}_fc2'.format(k)),
             'loss{}/classifier'.format(k))
