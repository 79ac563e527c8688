"""``chainer.links`` (L): layers with parameters, as Links.

Every name of Chainer's L, with the module that defines it (the family
folders mirror Chainer's, so ``chainer.links.connection.linear.Linear``
keeps its path).  A module not written yet is skipped, so its names are
missing from L rather than half there.
"""

import importlib as _importlib
import importlib.util as _importlib_util

_NAMES = {
    # activation
    'Maxout': 'activation.maxout',
    'PReLU': 'activation.prelu',
    'SimplifiedDropconnect': 'activation.simplified_dropconnect',
    'Swish': 'activation.swish',
    # connection
    'Bias': 'connection.bias',
    'Bilinear': 'connection.bilinear',
    'Convolution1D': 'connection.convolution_nd',
    'Convolution2D': 'connection.convolution_2d',
    'Convolution3D': 'connection.convolution_nd',
    'ConvolutionND': 'connection.convolution_nd',
    'Deconvolution1D': 'connection.deconvolution_nd',
    'Deconvolution2D': 'connection.deconvolution_2d',
    'Deconvolution3D': 'connection.deconvolution_nd',
    'DeconvolutionND': 'connection.deconvolution_nd',
    'DeformableConvolution2D': 'connection.deformable_convolution_2d',
    'DepthwiseConvolution2D': 'connection.depthwise_convolution_2d',
    'DilatedConvolution2D': 'connection.dilated_convolution_2d',
    'EmbedID': 'connection.embed_id',
    'Highway': 'connection.highway',
    'Inception': 'connection.inception',
    'InceptionBN': 'connection.inceptionbn',
    'Linear': 'connection.linear',
    'LocalConvolution2D': 'connection.local_convolution_2d',
    'MLPConvolution2D': 'connection.mlp_convolution_2d',
    'Parameter': 'connection.parameter',
    'Scale': 'connection.scale',
    # loss
    'BinaryHierarchicalSoftmax': 'loss.hierarchical_softmax',
    'BlackOut': 'loss.black_out',
    'CRF1d': 'loss.crf1d',
    'NegativeSampling': 'loss.negative_sampling',
    # model
    'Classifier': 'model.classifier',
    'GoogLeNet': 'model.vision.googlenet',
    'ResNet101Layers': 'model.vision.resnet',
    'ResNet152Layers': 'model.vision.resnet',
    'ResNet50Layers': 'model.vision.resnet',
    'VGG16Layers': 'model.vision.vgg',
    'VGG19Layers': 'model.vision.vgg',
    # normalization
    'BatchNormalization': 'normalization.batch_normalization',
    'BatchRenormalization': 'normalization.batch_renormalization',
    'DecorrelatedBatchNormalization': 'normalization.decorrelated_batch_normalization',
    'GroupNormalization': 'normalization.group_normalization',
    'LayerNormalization': 'normalization.layer_normalization',
    # rnn
    'ChildSumTreeLSTM': 'rnn.tree_lstm',
    'GRU': 'rnn.gru',
    'LSTM': 'rnn.lstm',
    'NStepBiGRU': 'rnn.n_step_gru',
    'NStepBiLSTM': 'rnn.n_step_lstm',
    'NStepBiRNNReLU': 'rnn.n_step_rnn',
    'NStepBiRNNTanh': 'rnn.n_step_rnn',
    'NStepGRU': 'rnn.n_step_gru',
    'NStepLSTM': 'rnn.n_step_lstm',
    'NStepRNNReLU': 'rnn.n_step_rnn',
    'NStepRNNTanh': 'rnn.n_step_rnn',
    'NaryTreeLSTM': 'rnn.tree_lstm',
    'StatefulGRU': 'rnn.gru',
    'StatefulMGU': 'rnn.mgu',
    'StatefulPeepholeLSTM': 'rnn.peephole',
    'StatefulZoneoutLSTM': 'rnn.zoneoutlstm',
    'StatelessGRU': 'rnn.gru',
    'StatelessLSTM': 'rnn.lstm',
    'StatelessMGU': 'rnn.mgu',
    # theano
    'TheanoFunction': 'theano.theano_function',
}


def _load():
    modules = {}
    for name, path in _NAMES.items():
        module = modules.get(path)
        if module is None:
            full = 'chainer.links.' + path
            if _importlib_util.find_spec(full) is None:
                continue
            module = modules[path] = _importlib.import_module(full)
        globals()[name] = getattr(module, name)


_load()
