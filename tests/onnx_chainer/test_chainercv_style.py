"""Models laid out as chainercv's (SSD's VGG16 extractor and multibox head,
ResNet50's Conv2DBNActiv bottlenecks, Faster R-CNN's RoI head), narrow and
built here from chainer.links, export and reproduce in onnxruntime."""

import numpy

import chainer
import chainer.functions as F
import chainer.links as L
from onnx_harness import check, rand


class Normalize(chainer.Link):
    """SSD's L2 normalization of each position, with a learnt scale."""

    def __init__(self, n_channel):
        super().__init__()
        with self.init_scope():
            self.scale = chainer.Parameter(
                numpy.random.uniform(10, 30, n_channel).astype('f'))

    def forward(self, x):
        x = F.normalize(x, eps=1e-5, axis=1)
        return x * F.broadcast_to(self.scale[None, :, None, None], x.shape)


class VGGExtractor(chainer.Chain):
    """SSD300's VGG16: conv blocks, conv4_3 L2-normalized, dilated conv6,
    extra layers; ``pick`` chooses the feature maps returned."""

    def __init__(self, pick=('conv4_3', 'conv7', 'conv8_2')):
        super().__init__()
        self.pick = pick
        with self.init_scope():
            self.conv1_1 = L.Convolution2D(3, 4, 3, pad=1)
            self.conv2_1 = L.Convolution2D(4, 8, 3, pad=1)
            self.conv4_3 = L.Convolution2D(8, 8, 3, pad=1)
            self.norm4 = Normalize(8)
            self.conv6 = L.DilatedConvolution2D(8, 16, 3, pad=2, dilate=2)
            self.conv7 = L.Convolution2D(16, 16, 1)
            self.conv8_1 = L.Convolution2D(16, 8, 1)
            self.conv8_2 = L.Convolution2D(8, 8, 3, stride=2, pad=1)

    def forward(self, x):
        out = {}
        h = F.relu(self.conv1_1(x))
        h = F.max_pooling_2d(h, 2)
        h = F.relu(self.conv2_1(h))
        h = F.max_pooling_2d(h, 2)
        h = F.relu(self.conv4_3(h))
        out['conv4_3'] = self.norm4(h)
        h = F.max_pooling_2d(h, 3, stride=1, pad=1)
        h = F.relu(self.conv6(h))
        h = out['conv7'] = F.relu(self.conv7(h))
        h = F.relu(self.conv8_1(h))
        out['conv8_2'] = F.relu(self.conv8_2(h))
        return tuple(out[name] for name in self.pick)


class Multibox(chainer.Chain):
    """SSD's head: per feature map, a location and a class convolution,
    flattened to (batch, boxes, 4) and (batch, boxes, classes)."""

    def __init__(self, n_class=5, aspect_ratios=(2, 3, 2)):
        super().__init__()
        self.n_class = n_class
        with self.init_scope():
            self.loc = chainer.ChainList()
            self.conf = chainer.ChainList()
        for ar, n_in in zip(aspect_ratios, (8, 16, 8)):
            n = 2 + 2 * ar
            self.loc.add_link(L.Convolution2D(n_in, n * 4, 3, pad=1))
            self.conf.add_link(L.Convolution2D(n_in, n * n_class, 3, pad=1))

    def forward(self, xs):
        locs, confs = [], []
        for i, x in enumerate(xs):
            loc = F.transpose(self.loc[i](x), (0, 2, 3, 1))
            locs.append(F.reshape(loc, (loc.shape[0], -1, 4)))
            conf = F.transpose(self.conf[i](x), (0, 2, 3, 1))
            confs.append(F.reshape(conf, (conf.shape[0], -1, self.n_class)))
        return F.concat(locs, axis=1), F.concat(confs, axis=1)


class SSDLike(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.extractor = VGGExtractor()
            self.multibox = Multibox()

    def forward(self, x):
        return self.multibox(self.extractor(x))


def test_ssd_like():
    onnx_model = check(SSDLike(), rand(2, 3, 32, 32), opsets=(7, 13, 18),
                       atol=1e-5)
    assert len(onnx_model.graph.output) == 2


def test_pick_several_feature_maps():
    # chainercv's extractors return the layers their pick names.
    model = VGGExtractor(pick=('conv7', 'conv4_3'))
    check(model, rand(1, 3, 16, 16), opsets=(7, 18), atol=1e-5)


class Conv2DBNActiv(chainer.Chain):
    """chainercv's block: convolution, batch normalization, activation."""

    def __init__(self, n_in, n_out, ksize, stride=1, pad=0, activ=F.relu):
        super().__init__()
        self.activ = activ
        with self.init_scope():
            self.conv = L.Convolution2D(n_in, n_out, ksize, stride, pad,
                                        nobias=True)
            self.bn = L.BatchNormalization(n_out)

    def forward(self, x):
        h = self.bn(self.conv(x))
        return h if self.activ is None else self.activ(h)


class Bottleneck(chainer.Chain):
    """ResNet50's bottleneck (stride on the 3x3 convolution, as the 'fb'
    arch), with a projection where the shape changes."""

    def __init__(self, n_in, n_mid, n_out, stride):
        super().__init__()
        with self.init_scope():
            self.conv1 = Conv2DBNActiv(n_in, n_mid, 1)
            self.conv2 = Conv2DBNActiv(n_mid, n_mid, 3, stride, 1)
            self.conv3 = Conv2DBNActiv(n_mid, n_out, 1, activ=None)
            if stride != 1 or n_in != n_out:
                self.residual = Conv2DBNActiv(n_in, n_out, 1, stride,
                                              activ=None)

    def forward(self, x):
        h = self.conv3(self.conv2(self.conv1(x)))
        shortcut = self.residual(x) if hasattr(self, 'residual') else x
        return F.relu(h + shortcut)


class ResNetLike(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.conv1 = Conv2DBNActiv(3, 8, 7, 2, 3)
            self.res2 = chainer.Sequential(Bottleneck(8, 4, 16, 1),
                                           Bottleneck(16, 4, 16, 1))
            self.res3 = Bottleneck(16, 8, 32, 2)
            self.fc6 = L.Linear(32, 10)

    def forward(self, x):
        h = F.max_pooling_2d(self.conv1(x), 3, stride=2)
        h = self.res3(self.res2(h))
        h = F.average(h, axis=(2, 3))
        return F.softmax(self.fc6(h))


def test_resnet_like():
    model = ResNetLike()
    for link in model.links():
        if isinstance(link, L.BatchNormalization):
            shape = link.avg_mean.shape
            link.avg_mean[:] = numpy.random.uniform(-0.5, 0.5, shape)
            link.avg_var[:] = numpy.random.uniform(0.5, 2, shape)
    check(model, rand(2, 3, 32, 32), opsets=(7, 13, 18), atol=1e-5)


class FasterRCNNLike(chainer.Chain):
    """An extractor, then per RoI a pooled window through two fully
    connected layers into box offsets and class scores (the RoIs, the
    proposals, come from NMS outside the graph: constants here)."""

    def __init__(self, rois, roi_indices, pool):
        super().__init__()
        self.rois, self.roi_indices, self.pool = rois, roi_indices, pool
        with self.init_scope():
            self.conv1 = L.Convolution2D(3, 8, 3, pad=1)
            self.conv2 = L.Convolution2D(8, 8, 3, pad=1)
            self.fc6 = L.Linear(8 * 4 * 4, 16)
            self.fc7 = L.Linear(16, 16)
            self.cls_loc = L.Linear(16, 4 * 3)
            self.score = L.Linear(16, 3)

    def forward(self, x):
        h = F.relu(self.conv1(x))
        h = F.max_pooling_2d(h, 2)
        h = F.relu(self.conv2(h))
        if self.pool == 'roi_pooling':
            # chainercv's VGG16RoIHead: (index, x_min, y_min, x_max, y_max)
            rois = numpy.concatenate(
                [self.roi_indices[:, None].astype(numpy.float32),
                 self.rois[:, [1, 0, 3, 2]]], axis=1)
            pool = F.roi_pooling_2d(h, rois, 4, 4, 0.5)
        else:
            pool = F.roi_average_align_2d(h, self.rois, self.roi_indices,
                                          4, 0.5, 2)
        h = F.relu(self.fc6(pool))
        h = F.relu(self.fc7(h))
        return self.cls_loc(h), self.score(h)


def test_faster_rcnn_like():
    # (no corner on .5 once scaled: MaxRoiPool rounds those otherwise)
    rois = numpy.array([[2, 4, 20, 26], [0, 0, 30, 30],
                        [10.6, 4.2, 17.2, 9.4]], numpy.float32)
    indices = numpy.array([0, 1, 1], numpy.int32)
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')  # MaxRoiPool's rounding note
        check(FasterRCNNLike(rois, indices, 'roi_pooling'),
              rand(2, 3, 32, 32), opsets=(7, 13, 21), atol=1e-5)
    # (onnxruntime 1.32 has no RoiAlign or MaxRoiPool of opset 22)
    check(FasterRCNNLike(rois, indices, 'roi_align'), rand(2, 3, 32, 32),
          opsets=(10, 16, 21), since=10, atol=1e-5)
