"""Caffe's messages under the name of ``protoc``'s module, for programs
that import ``chainer.links.caffe.protobuf3.caffe_pb2``.

Nothing here is generated: the names are those of
:mod:`chainer.links.caffe._caffe_pb` (the subset of Caffe's schema that
:class:`~chainer.links.caffe.CaffeFunction` reads and the Caffe exporter
writes), plus what a generated module has at its top level: ``DESCRIPTOR``
(the file) and the enum ``Phase`` with its values.

>>> from chainer.links.caffe.protobuf3 import caffe_pb2
>>> net = caffe_pb2.NetParameter(name='net')
>>> layer = net.layer.add(name='pool', type='Pooling')
>>> layer.pooling_param.pool = caffe_pb2.PoolingParameter.AVE
>>> caffe_pb2.NetParameter.FromString(net.SerializeToString()).layer[0].name
'pool'
"""

from google.protobuf.internal.enum_type_wrapper import EnumTypeWrapper

from chainer.links.caffe import _caffe_pb

_MESSAGES = [d.name for d in
             _caffe_pb.NetParameter.DESCRIPTOR.file.message_types_by_name
             .values()]
globals().update((name, getattr(_caffe_pb, name)) for name in _MESSAGES)

DESCRIPTOR = _caffe_pb.NetParameter.DESCRIPTOR.file
Phase = EnumTypeWrapper(DESCRIPTOR.enum_types_by_name['Phase'])
TRAIN = Phase.Value('TRAIN')
TEST = Phase.Value('TEST')

__all__ = _MESSAGES + ['DESCRIPTOR', 'Phase', 'TRAIN', 'TEST']
