import types

from chainermn.extensions._util import to_host_value


def create_multi_node_evaluator(actual_evaluator, communicator):
    """Makes ``actual_evaluator`` report the mean over the ranks of what it
    computes on each rank's own share of the validation data.

    ``actual_evaluator`` itself is returned, its ``evaluate`` wrapped: every
    rank computes its local means, then each reported value is averaged over
    the ranks (every rank must evaluate together, and report the same keys).
    """
    local_evaluate = actual_evaluator.evaluate

    def evaluate(self):
        local = local_evaluate()
        return {name: communicator.allreduce_obj(to_host_value(value)) / communicator.size
                for name, value in sorted(local.items())}

    actual_evaluator.evaluate = types.MethodType(evaluate, actual_evaluator)
    return actual_evaluator
