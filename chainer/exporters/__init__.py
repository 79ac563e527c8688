"""Exporting Chainer models to other frameworks (:mod:`.caffe`)."""

from chainer.exporters import caffe  # NOQA
