"""Chainer's import path of Caffe's messages: ``from
chainer.links.caffe.protobuf3 import caffe_pb2``."""
