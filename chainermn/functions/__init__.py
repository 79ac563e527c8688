"""Differentiable communication: gradients flow back along the messages."""

from chainermn.functions.batch_normalization import multi_node_batch_normalization  # NOQA
from chainermn.functions.collective_communication import allgather  # NOQA
from chainermn.functions.collective_communication import alltoall  # NOQA
from chainermn.functions.collective_communication import bcast  # NOQA
from chainermn.functions.collective_communication import gather  # NOQA
from chainermn.functions.collective_communication import scatter  # NOQA
from chainermn.functions.point_to_point_communication import recv  # NOQA
from chainermn.functions.point_to_point_communication import send  # NOQA
from chainermn.functions.pseudo_connect import pseudo_connect  # NOQA
