from chainermn.links.batch_normalization import MultiNodeBatchNormalization  # NOQA
from chainermn.links.create_mnbn_model import create_mnbn_model  # NOQA
from chainermn.links.multi_node_chain_list import MultiNodeChainList  # NOQA
from chainermn.links.n_step_rnn import create_multi_node_n_step_rnn  # NOQA
