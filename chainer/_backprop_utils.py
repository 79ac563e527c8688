"""One backward step outside the engine, in the form Chainer's engine had:
``backprop_step`` and the gradient lists it fills. chainer-ng's engine
(``chainer._backprop``) runs the same step inline; this is for code that
drives backward by hand."""

import chainer
from chainer import _backprop
from chainer.variable import Variable


def _reduce(grad_list):
    """The sum of the gradients in ``grad_list`` (None when it is empty);
    the list is left holding that sum alone."""
    if not grad_list:
        return None
    if len(grad_list) > 1:
        grad_list[:] = [_as_variable(_backprop._sum(grad_list))]
    return grad_list[0]


def _as_variable(g):
    if g is None or isinstance(g, Variable):
        return g
    return Variable(g, requires_grad=False)


def backprop_step(func, target_input_indexes, grad_outputs, grad_inputs,
                  is_debug):
    """Runs ``func``'s backward and collects the input gradients.

    Args:
        func (FunctionNode): The function, with its ``inputs`` set.
        target_input_indexes (tuple of int): The inputs that want gradients.
        grad_outputs (tuple): The gradients of the outputs (arrays,
            Variables or None).
        grad_inputs (dict): Maps each input node to the list of the
            gradients collected for it so far; the step adds its gradient to
            that list (and sums the list at once unless
            ``config.lazy_grad_sum``).
        is_debug (bool): Checks the gradients for NaN.
    """
    target = tuple(target_input_indexes)
    gys = tuple([_as_variable(g) for g in grad_outputs])
    inputs = func.inputs
    if func._overrides_accumulate:
        g_inputs = tuple([_reduce(grad_inputs[inputs[i]]) for i in target])
        gxs = func.backward_accumulate(target, gys, g_inputs)
    else:
        gxs = func.backward(target, gys)
        if len(gxs) != len(target):
            if len(gxs) != len(inputs):
                raise ValueError(
                    '{}.backward returned {} gradients; expected {} (one per '
                    'input) or {} (one per target index)'.format(
                        func.label, len(gxs), len(inputs), len(target)))
            gxs = [gxs[i] for i in target]
    if is_debug:
        func._check_nan(gxs, 'backward')

    lazy = chainer.config.lazy_grad_sum
    for i, gx in zip(target, gxs):
        grad_list = grad_inputs[inputs[i]]
        if func._overrides_accumulate:
            # backward_accumulate returned the sums themselves
            grad_list[:] = [] if gx is None else [gx]
            continue
        if gx is None:
            continue
        node = inputs[i]
        if not isinstance(gx, Variable) or \
                gx.shape != node.shape or gx.dtype != node.dtype:
            gx = _backprop._fit(func, i, node, gx)
        grad_list.append(gx)
        if not lazy:
            _reduce(grad_list)
