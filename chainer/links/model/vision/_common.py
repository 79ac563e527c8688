"""What the pre-trained vision models share: loading weights, preparing
images (with Pillow), running a prefix of the layers, and the methods
``forward``, ``extract`` and ``predict`` (:class:`PretrainedCNN`)."""

import importlib.util
import os

import numpy

import chainer
from chainer import link
from chainer import variable
from chainer.functions.array.reshape import reshape
from chainer.functions.math.sum import sum as _sum


def _models_dir():
    from chainer.dataset import download
    return download.get_dataset_directory('pfnet/chainer/models/',
                                          create_directory=False)


def load_pretrained(model, pretrained_model, npz_name, caffemodel_name):
    """Fills ``model`` from ``pretrained_model``: a path of an ``.npz``
    file (as written by :func:`chainer.serializers.save_npz`), or
    ``'auto'``: the converted file in the model cache (no download here).
    None or a false value leaves the random initialization."""
    if not pretrained_model:
        return
    from chainer.serializers import npz
    if pretrained_model == 'auto':
        root = _models_dir()
        path = os.path.join(root, npz_name)
        if not os.path.exists(path):
            caffemodel = os.path.join(root, caffemodel_name)
            if not os.path.exists(caffemodel):
                raise FileNotFoundError(
                    "{}(pretrained_model='auto') would download the "
                    "pre-trained weights, but chainer-ng does not download "
                    "models. Pass the path of a local .npz file instead "
                    "(pretrained_model='path/to/{}', e.g. converted with "
                    "{}.convert_caffemodel_to_npz), or None for random "
                    "initialization. (No {} nor {} in the model cache {}.)"
                    .format(type(model).__name__, npz_name,
                            type(model).__name__, npz_name, caffemodel_name,
                            root))
            type(model).convert_caffemodel_to_npz(caffemodel, path)
        pretrained_model = path
    npz.load_npz(pretrained_model, model)


def caffe_function(path_caffemodel):
    """Loads a Caffe model with :class:`chainer.links.caffe.CaffeFunction`
    (which needs protobuf)."""
    try:
        from chainer.links.caffe import CaffeFunction
    except ImportError as e:
        raise ImportError(
            'Converting a .caffemodel needs chainer.links.caffe.CaffeFunction '
            '(and protobuf), which could not be imported: {}'.format(e))
    return CaffeFunction(path_caffemodel)


def caffe_layer(caffemodel, name):
    """The link of the Caffe layer ``name`` (CaffeFunction may store ``/``
    in layer names as ``_``)."""
    for key in (name, name.replace('/', '_')):
        layer = getattr(caffemodel, key, None)
        if layer is not None:
            return layer
    raise KeyError('layer {} not found in the Caffe model'.format(name))


def copy_params(dst, src):
    """Copies ``W`` (and ``b`` when both have one) of the link ``src``."""
    dst.W.array[...] = src.W.array
    if getattr(dst, 'b', None) is not None and \
            getattr(src, 'b', None) is not None:
        dst.b.array[...] = src.b.array


# Whether Pillow, which prepare() needs, is installed (Chainer's
# ``available`` flag of its vision model modules).
available = importlib.util.find_spec('PIL') is not None


def _pillow():
    try:
        from PIL import Image
    except ImportError as e:
        raise ImportError(
            'prepare() needs Pillow to read and resize images; install it '
            'with `pip install Pillow`. ({})'.format(e))
    return Image


def prepare(image, size, mean_bgr):
    """An image as a CNN input: RGB, resized to ``size`` (``(width,
    height)``, as Pillow; None keeps it), channels flipped to BGR, the mean
    ``mean_bgr`` subtracted, and transposed to ``(3, height, width)`` of
    ``chainer.config.dtype``.

    ``image`` is a :class:`PIL.Image.Image` or an array: ``(H, W)``,
    ``(1, H, W)``, ``(3, H, W)`` or ``(H, W, C)`` (values 0-255).
    """
    Image = _pillow()
    dtype = chainer.get_dtype()
    if isinstance(image, numpy.ndarray):
        if image.ndim == 3:
            if image.shape[0] == 1:
                image = image[0]
            elif image.shape[0] == 3:
                image = image.transpose(1, 2, 0)
        image = Image.fromarray(image.astype(numpy.uint8))
    image = image.convert('RGB')
    if size:
        image = image.resize(size)
    image = numpy.asarray(image, dtype=dtype)[:, :, ::-1]
    image -= numpy.array(mean_bgr, dtype=dtype)
    # a view, as Chainer's (strides (-4, 12 W, 12) for float32): NumPy's
    # sums of it then round as they do there
    return image.transpose(2, 0, 1)


def oversample(images, crop_dims):
    """Ten crops of each image of the batch ``images`` ``(N, C, H, W)``:
    the four corners and the centre, and their mirror images, as
    ``(10 * N, C, h, w)`` (each image's ten crops together)."""
    n, c, src_h, src_w = images.shape
    h, w = crop_dims
    tops = (0, 0, src_h - h, src_h - h, int(src_h / 2.0 - h / 2.0))
    lefts = (0, src_w - w, 0, src_w - w, int(src_w / 2.0 - w / 2.0))
    crops = numpy.empty((10 * n, c, h, w), dtype=images.dtype)
    for k, img in enumerate(images):
        for j, (top, left) in enumerate(zip(tops, lefts)):
            crop = img[:, top:top + h, left:left + w]
            crops[10 * k + j] = crop
            crops[10 * k + 5 + j] = crop[:, :, ::-1]
    return crops


def check_forward_kwargs(kwargs):
    if 'test' in kwargs:
        raise ValueError('test argument is not supported anymore. Use '
                         'chainer.using_config')
    if 'volatile' in kwargs:
        raise ValueError('volatile argument is not supported anymore. Use '
                         'chainer.using_config')
    if kwargs:
        raise TypeError('got unexpected keyword argument(s) {}'.format(
            ', '.join(repr(k) for k in kwargs)))


def run_layers(functions, x, layers, caches=None):
    """Runs the ``functions`` (an OrderedDict ``name -> [callables]``) in
    order on ``x`` until all ``layers`` are computed; returns ``{name:
    output}``. ``caches`` maps a layer name to the layer whose output it
    starts from (a side branch)."""
    h = x
    targets = set(layers)
    keep = set(caches.values()) if caches else ()
    outputs = {}
    activations = {}
    for key, funcs in functions.items():
        if not targets:
            break
        if caches and key in caches:
            h = outputs[caches[key]]
        for func in funcs:
            h = func(h)
        if key in keep:
            outputs[key] = h
        if key in targets:
            activations[key] = h
            targets.remove(key)
    return activations


def predict(model, images, oversample_, prepare):
    x = numpy.stack([prepare(img, size=(256, 256)) for img in images])
    if oversample_:
        x = oversample(x, crop_dims=(224, 224))
    else:
        x = x[:, :, 16:240, 16:240]
    with chainer.no_backprop_mode(), chainer.using_config('train', False):
        with chainer.using_device(model.device):
            x = variable.Variable(model.xp.asarray(x))
        y = model(x, layers=['prob'])['prob']
        if oversample_:
            n = len(y) // 10
            y = _sum(reshape(y, (n, 10) + y.shape[1:]), axis=1) / 10
    return y


class PretrainedCNN(link.Chain):
    """The methods the image classifiers share (VGG, ResNet, GoogLeNet).

    A subclass defines :attr:`functions` (an OrderedDict ``layer name ->
    list of callables``, in order), ``_prepare`` (its module's ``prepare``),
    ``_extract_layer`` (the default layer of :meth:`extract`) and, for side
    branches, ``_caches`` (a layer name -> the layer whose output it starts
    from).
    """

    _prepare = None
    _extract_layer = 'pool5'
    _caches = None

    @property
    def available_layers(self):
        return list(self.functions.keys())

    def forward(self, x, layers=None, **kwargs):
        """Computes the outputs of the requested layers.

        Args:
            x (~chainer.Variable or array): A batch of images
                ``(N, 3, 224, 224)`` (see the module's ``prepare``).
            layers (list of str): Names from :attr:`available_layers`
                (default ``['prob']``). The network runs only as far as
                needed.

        Returns:
            dict: ``{layer name: ~chainer.Variable}``.
        """
        check_forward_kwargs(kwargs)
        if layers is None:
            layers = ['prob']
        return run_layers(self.functions, x, layers, self._caches)

    def extract(self, images, layers=None, size=(224, 224), **kwargs):
        """Extracts the outputs of ``layers`` (default ``['fc7']`` for VGG,
        ``['pool5']`` for the others) for a list of images (Pillow images or
        arrays, see the module's ``prepare``), resized to ``size``.

        It runs in the current mode: to extract features, wrap it in
        ``with chainer.using_config('train', False),
        chainer.no_backprop_mode():``.

        Returns:
            dict: ``{layer name: ~chainer.Variable}``.
        """
        check_forward_kwargs(kwargs)
        if layers is None:
            layers = [self._extract_layer]
        x = numpy.stack([self._prepare(img, size=size) for img in images])
        with chainer.using_device(self.device):
            x = variable.Variable(self.xp.asarray(x))
        return self(x, layers=layers)

    def predict(self, images, oversample=True):
        """Class probabilities ``(N, 1000)`` of a list of images.

        The images are resized to 256x256; with ``oversample`` the
        probabilities are averaged over ten 224x224 crops (corners, centre
        and their mirror images), otherwise the centre crop is used. Runs in
        test mode without backprop.
        """
        return predict(self, images, oversample, self._prepare)
