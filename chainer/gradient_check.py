"""Checks of analytic gradients against numerical ones.

:func:`check_backward` compares the gradient that backward computes with a
central difference taken along one random direction of all inputs at once:
two extra forward passes, whatever the size of the inputs.
"""

import warnings

import numpy

import chainer
from chainer import backend
from chainer.testing import array as _testing_array
from chainer.variable import Variable


def assert_allclose(x, y, atol=1e-5, rtol=1e-4, verbose=True):
    """Deprecated alias of :func:`chainer.testing.assert_allclose`."""
    warnings.warn('chainer.gradient_check.assert_allclose is deprecated. '
                  'Use chainer.testing.assert_allclose instead.',
                  DeprecationWarning)
    _testing_array.assert_allclose(x, y, atol, rtol, verbose)


class NondifferentiableError(Exception):
    """The function is not differentiable at the point given."""


def _as_tuple(x):
    if x is None:
        return ()
    if isinstance(x, tuple):
        return x
    if isinstance(x, list):
        return tuple(x)
    return (x,)


def _to_float64(a):
    xp = backend.get_array_module(a)
    return xp.asarray(a, dtype=numpy.float64)


# A quadratic fits five equally spaced samples exactly unless they have a
# cubic or quartic component; these are the discrete orthogonal polynomials
# of degree 3 and 4 on five points (t = -2..2), so the squared residual of
# the least-squares quadratic fit is the sum of the squared projections.
_CUBIC = numpy.array([-1., 2., 0., -2., 1.]) / numpy.sqrt(10.)
_QUARTIC = numpy.array([1., -4., 6., -4., 1.]) / numpy.sqrt(70.)


def _check_differentiable(yss, i_in, index, eps, diff_atol, diff_rtol):
    """Raises NondifferentiableError when the outputs sampled at x - eps,
    x - eps/2, x, x + eps/2, x + eps (``yss``) show a kink, as Chainer: the
    finite entries change, or a quadratic fits an entry with an RMS error
    above ``diff_atol + diff_rtol * (its range)``."""
    outs = [[ys[k] for ys in yss] for k in range(len(yss[0]))
            if yss[0][k] is not None]
    if all(samples[0].size == 0 for samples in outs):
        return
    stacks = []
    for k, samples in enumerate(outs):
        xp = backend.get_array_module(samples[0])
        stack = xp.stack(samples)
        finite = xp.isfinite(stack)
        if bool((finite != finite[:1]).any()):
            _raise_nondifferentiable(i_in, k, index, eps, samples,
                                     'the finite outputs change')
        stacks.append((stack, bool(finite.all())))
    if not all(all_finite for _, all_finite in stacks):
        return
    for k, (stack, _) in enumerate(stacks):
        xp = backend.get_array_module(stack)
        flat = stack.reshape(5, -1)
        residual = xp.sqrt(
            (xp.tensordot(xp.asarray(_CUBIC), flat, 1) ** 2
             + xp.tensordot(xp.asarray(_QUARTIC), flat, 1) ** 2) / 5)
        spread = flat.max(axis=0) - flat.min(axis=0)
        kink = (diff_atol + diff_rtol * spread < residual) & (spread != 0)
        if bool(kink.any()):
            _raise_nondifferentiable(
                i_in, k, index, eps, list(stack),
                'a quadratic fits with RMS error {} (diff_atol {}, diff_rtol '
                '{})'.format(residual.reshape(stack.shape[1:]), diff_atol,
                             diff_rtol))


def _raise_nondifferentiable(i_in, i_out, index, eps, samples, why):
    lines = ['Tried to compute the numeric gradient on a non-differentiable '
             'point: {}.'.format(why),
             'i_in: {}, i_out: {}, index on x: {}, eps: {}'.format(
                 i_in, i_out, index, eps)]
    for label, y in zip(('x-eps  ', 'x-eps/2', 'x      ', 'x+eps/2',
                         'x+eps  '), samples):
        lines.append('y[{}]: {}'.format(label, y))
    raise NondifferentiableError('\n'.join(lines))


def numerical_grad(f, inputs, grad_outputs, eps=1e-3,
                   detect_nondifferentiable=False, diff_atol=0,
                   diff_rtol=1e-2, center_outputs=None):
    """Computes numerical gradients by central differences.

    Without detection it takes ``(f(x + eps) - f(x - eps)) / (2 eps)`` per
    input element; with ``detect_nondifferentiable`` it samples
    ``x - eps, x - eps/2, x, x + eps/2, x + eps``, checks them for a kink,
    and uses the fourth-order difference of the four off-center samples.

    Args:
        f: A function of no arguments returning a tuple of output arrays;
            it reads ``inputs``, which are perturbed in place.
        inputs (tuple of arrays): The float inputs to differentiate against.
        grad_outputs (tuple of arrays): The gradients of the outputs (None
            entries stand for zeros).
        eps (float or tuple): The step, positive (one per input, or one for
            all).
        detect_nondifferentiable (bool): Raise
            :class:`NondifferentiableError` where the function is not
            differentiable within ``eps`` of a point.
        diff_atol, diff_rtol (float): Tolerances of that detection.
        center_outputs: Accepted for compatibility; the outputs at the
            unperturbed inputs are always recomputed, as in Chainer.

    Returns:
        A list of gradient arrays, one per input, in the inputs' dtypes.
    """
    inputs = tuple(inputs)
    grad_outputs = tuple(grad_outputs)
    if numpy.isscalar(eps):
        eps = (eps,) * len(inputs)
    elif len(eps) != len(inputs):
        raise ValueError('numerical_grad: eps must be a scalar or have one '
                         'entry per input')
    if not all(e > 0 for e in eps):
        raise AssertionError(
            'numerical_grad: eps must be positive, got {}'.format(eps))
    for x in inputs:
        if x.dtype.kind != 'f':
            raise RuntimeError(
                'The dtype of input arrays must be kind of float')
    gys = tuple(None if gy is None else _to_float64(gy)
                for gy in grad_outputs)

    def evaluate():
        # as Chainer: the numerical evaluations run without type checks
        # (inputs cast to float64 meet parameters kept in their dtype)
        with chainer.using_config('type_check', False):
            ys = f()
        if not isinstance(ys, (tuple, list)):
            ys = (ys,)
        out = []
        for y in ys:
            y = getattr(y, 'array', y)
            out.append(None if y is None else _to_float64(y).copy())
        return out

    def project(ys, weights):
        # sum over outputs of <sum_k w_k y_k, gy>
        total = 0.
        for k, gy in enumerate(gys):
            if gy is None or ys[0][k] is None:
                continue
            diff = sum(w * y[k] for w, y in zip(weights, ys))
            total = total + float((diff * gy).sum())
        return total

    center = evaluate() if detect_nondifferentiable else None
    grads = []
    for i_in, (x, e) in enumerate(zip(inputs, eps)):
        xp = backend.get_array_module(x)
        gx = numpy.zeros(x.shape, dtype=numpy.float64)
        for i in numpy.ndindex(x.shape):
            orig = x[i].copy()
            steps = (-1., -.5, .5, 1.) if detect_nondifferentiable \
                else (-1., 1.)
            yss = []
            for k in steps:
                x[i] = orig + k * e
                yss.append(evaluate())
            x[i] = orig
            if detect_nondifferentiable:
                _check_differentiable(
                    yss[:2] + [center] + yss[2:], i_in, i, e, diff_atol,
                    diff_rtol)
                gx[i] = project(yss, (1., -8., 8., -1.)) / (6 * e)
            else:
                gx[i] = project(yss, (-1., 1.)) / (2 * e)
        grads.append(xp.asarray(gx).astype(x.dtype, copy=False))
    return grads


class _CheckBackward:
    """Chainer's private home of check_backward's helpers."""

    @staticmethod
    def _sample_unit_vector(size, xp):
        """A random unit vector of ``size`` entries, each at least
        ``0.1 / sqrt(size)`` in magnitude, so that every input element takes
        part in the directional derivative."""
        d = xp.random.normal(size=(size,))
        if size == 0:
            return d
        sq = xp.square(d)
        # (0.99 / |d|^2) * d^2: Chainer's rounding, so that the directions
        # (and the numbers of a failure's report) are its to the last bit
        return xp.copysign(xp.sqrt((0.99 / sq.sum()) * sq + 0.01 / size), d)


def _filter_list(lst, ignore):
    return [x for x, skip in zip(lst, ignore) if not skip]


def _check_grad_outputs(ys, y_grad):
    """Each output gradient has its output's shape and dtype (None stands
    for any), and there is one per output: else Chainer's ValueError, which
    lists both sides."""
    def layout(arrays):
        return ', '.join('{}:{}'.format(a.shape, a.dtype.name)
                         for a in arrays if a is not None)
    if len(y_grad) != len(ys):
        problem = ('Output gradients must contain equally as many elements '
                   'as the number of output elements.')
    elif any(g is not None and (g.shape != y.shape or g.dtype != y.dtype)
             for y, g in zip(ys, y_grad)):
        problem = ('Shapes and/or dtypes of outputs and output gradients do '
                   'not match.')
    else:
        return
    raise ValueError(
        '{}\nOutput shapes and dtypes         : {}\n'
        'Output gradient shapes and dtypes: {}'.format(
            problem, layout([y.array for y in ys]), layout(y_grad)))


def check_backward(func, x_data, y_grad, params=(), eps=1e-3, atol=1e-5,
                   rtol=1e-4, no_grads=None, dtype=None,
                   detect_nondifferentiable=False):
    """Tests the backward of ``func`` against numerical gradients.

    Args:
        func: A function taking Variables and returning a Variable or a
            tuple of Variables.
        x_data (array or tuple of arrays): The inputs.
        y_grad (array or tuple of arrays or None): The gradients of the
            outputs; None means the output is a scalar (gradient one).
        params (Variable or tuple of Variables): Parameters used by
            ``func`` whose gradients are checked too.
        eps (float): Step of the central difference.
        atol, rtol (float): Tolerances of the comparison.
        no_grads (list of bool): Inputs whose gradients are not checked
            (by default, the non-float ones).
        dtype: If given, the numerical gradient is computed with the inputs
            (and params) cast to this float dtype.
        detect_nondifferentiable (bool): Raise
            :class:`NondifferentiableError` near a kink.

    Raises:
        AssertionError: The gradients disagree.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.array([1., 2.], np.float64)
    >>> check_backward(F.exp, x, np.ones(2))
    """
    x_data = _as_tuple(x_data)
    params = _as_tuple(params)
    if dtype is not None and numpy.dtype(dtype).kind != 'f':
        raise ValueError('check_backward: dtype must be a float type, got '
                         '{}'.format(dtype))
    xs = []
    for x in x_data:
        if isinstance(x, Variable):
            x = x.array
        xs.append(Variable(x, requires_grad=x.dtype.kind == 'f'))
    if no_grads is None:
        no_grads = [x.dtype.kind != 'f' for x in xs]
    elif len(no_grads) != len(xs):
        raise ValueError(
            'check_backward: no_grads has {} entries but there are {} '
            'inputs'.format(len(no_grads), len(xs)))
    for x, skip in zip(xs, no_grads):
        if not skip and x.dtype.kind != 'f':
            raise ValueError('check_backward: a non-float input (dtype {}) '
                             'must be listed in no_grads'.format(x.dtype))
    # As Chainer, every float input requires grad, so that a gradient
    # computed for an input listed in no_grads is caught below.
    xs = tuple(Variable(x.array, requires_grad=x.dtype.kind == 'f')
               for x in xs)

    ys = _as_tuple(func(*xs))
    for y in ys:
        if not isinstance(y, Variable):
            raise TypeError('check_backward: func must return Variables, '
                            'got {}'.format(type(y).__name__))
    if y_grad is None:
        for y in ys:
            if y.size != 1:
                raise ValueError(
                    'check_backward: y_grad is None but an output has shape '
                    '{} (None is only for scalar outputs)'.format(y.shape))
        y_grad = tuple(y.xp.ones_like(y.array) for y in ys)
    else:
        y_grad = tuple(g if g is None or backend.is_gpu_array(g)
                       else numpy.asarray(g) for g in _as_tuple(y_grad))
        _check_grad_outputs(ys, y_grad)

    targets = list(_filter_list(xs, no_grads)) + list(params)
    skipped = [x for x, skip in zip(xs, no_grads)
               if skip and x.requires_grad]
    for p in params:
        p.cleargrad()
    outs = [(y, gy) for y, gy in zip(ys, y_grad) if gy is not None]
    if not targets and not skipped:
        return
    if outs:
        gxs = chainer.grad([y for y, _ in outs], targets + skipped,
                           grad_outputs=[Variable(gy) for _, gy in outs])
    else:
        gxs = [None] * (len(targets) + len(skipped))
    if any(g is not None for g in gxs[len(targets):]):
        raise RuntimeError('gradient of int variable must be None')
    gxs = gxs[:len(targets)]
    if not targets:
        return

    for t, g in zip(targets, gxs):
        if g is None:
            continue
        if g.shape != t.shape:
            raise AssertionError(
                'check_backward: the gradient has shape {} but its variable '
                'has shape {}'.format(g.shape, t.shape))
        if g.dtype != t.dtype:
            raise AssertionError(
                'check_backward: the gradient has dtype {} but its variable '
                'has dtype {}'.format(g.dtype, t.dtype))

    # One random direction for all targets, of unit norm.
    xp = backend.get_array_module(targets[0].array)
    sizes = [t.size for t in targets]
    if sum(sizes) == 0:
        return
    flat = _CheckBackward._sample_unit_vector(sum(sizes), numpy)
    offsets = numpy.cumsum([0] + sizes)
    directions = [xp.asarray(flat[a:b].reshape(t.shape))
                  for a, b, t in zip(offsets, offsets[1:], targets)]

    analytic = 0.
    for g, d in zip(gxs, directions):
        if g is not None:
            analytic += float((_to_float64(g.array) * d).sum())

    casted_x = [x.array if dtype is None or x.dtype.kind != 'f'
                else x.array.astype(dtype) for x in xs]
    base_params = [p.array for p in params]
    delta = xp.zeros((), dtype=numpy.float64)
    target_is_x = [not s for s in no_grads]

    def f():
        inputs = []
        k = 0
        for x, is_target in zip(casted_x, target_is_x):
            if is_target:
                x = xp.asarray(x + (delta * directions[k]).astype(x.dtype))
                k += 1
            inputs.append(Variable(x, requires_grad=is_target))
        for p, base in zip(params, base_params):
            step = (delta * directions[k]).astype(base.dtype)
            p.array = xp.asarray(
                (base.astype(dtype) if dtype is not None else base) +
                step.astype(dtype if dtype is not None else base.dtype))
            k += 1
        out = _as_tuple(func(*inputs))
        return tuple(y.array for y, gy in zip(out, y_grad)
                     if gy is not None)

    gys = tuple(gy for gy in y_grad if gy is not None)
    try:
        numerical, = numerical_grad(
            f, (delta,), gys, eps=eps,
            detect_nondifferentiable=detect_nondifferentiable)
    finally:
        for p, base in zip(params, base_params):
            p.array = base
    numerical = float(numerical)
    # Chainer's test: assert_allclose(numeric, backward), so the relative
    # tolerance scales with the analytic value, and two NaNs agree.
    if numpy.isclose(numerical, analytic, rtol=rtol, atol=atol,
                     equal_nan=True):
        return
    try:
        _testing_array.assert_allclose(
            numpy.float64(numerical), numpy.float64(analytic),
            atol=atol, rtol=rtol)
    except AssertionError as e:
        detail = str(e)
    lines = ['check_backward failed (eps={} atol={} rtol={})'.format(
        eps, atol, rtol)]
    for i, x in enumerate(x_data):
        lines += ['inputs[{}]:'.format(i), str(getattr(x, 'array', x))]
    for i, gy in enumerate(y_grad):
        lines += ['grad_outputs[{}]:'.format(i), str(gy)]
    for i, d in enumerate(directions):
        lines += ['directions[{}]:'.format(i), str(d)]
    lines += ['gradients (numeric):  {}'.format(numerical),
              'gradients (backward): {}'.format(analytic), '',
              'x: numeric gradient, y: backward gradient' + detail]
    raise AssertionError('\n'.join(lines))


def check_double_backward(func, x_data, y_grad, x_grad_grad, params=(),
                          params_grad_grad=(), eps=1e-3, atol=1e-4,
                          rtol=1e-3, no_grads=None, dtype=None,
                          detect_nondifferentiable=False):
    """Tests the second-order gradient of ``func`` numerically.

    It runs :func:`check_backward` on the function that maps the inputs
    (and the output gradients) to the first-order gradients, computed with
    ``enable_double_backprop``.

    Args:
        func: The function (as for :func:`check_backward`).
        x_data: The inputs.
        y_grad: The gradients of the outputs (None for a scalar output).
        x_grad_grad: The gradients of the first-order input gradients.
        params, params_grad_grad: Parameters and the gradients of their
            first-order gradients.
        Others: as for :func:`check_backward`.
    """
    x_data = _as_tuple(x_data)
    params = _as_tuple(params)
    x_grad_grad = _as_tuple(x_grad_grad)
    params_grad_grad = _as_tuple(params_grad_grad)
    n_x = len(x_data)
    scalar_output = y_grad is None
    y_grad = () if scalar_output else _as_tuple(y_grad)
    n_y = len(y_grad)

    if no_grads is None:
        no_grads = [getattr(x, 'dtype', numpy.dtype('f')).kind != 'f'
                    for x in x_data]
    y_grad_inputs = tuple(gy for gy in y_grad if gy is not None)
    first_no_grads = list(no_grads) + [False] * len(y_grad_inputs)

    def first_order_grad(*inputs):
        xs = inputs[:n_x]
        gys_in = list(inputs[n_x:])
        ys = _as_tuple(func(*xs))
        if scalar_output:
            gys = [Variable(y.xp.ones_like(y.array)) for y in ys]
        else:
            gys = []
            for gy in y_grad:
                gys.append(None if gy is None else gys_in.pop(0))
        targets = [x for x, skip in zip(xs, no_grads) if not skip] + \
            list(params)
        outs = [(y, gy) for y, gy in zip(ys, gys) if gy is not None]
        gxs = chainer.grad([y for y, _ in outs], targets,
                           grad_outputs=[gy for _, gy in outs],
                           enable_double_backprop=True)
        ret = []
        for t, g in zip(targets, gxs):
            if g is None:
                g = Variable(t.xp.zeros_like(t.array))
            ret.append(g)
        return tuple(ret)

    del n_y
    try:
        check_backward(first_order_grad, x_data + y_grad_inputs,
                       tuple(_filter_list(x_grad_grad, no_grads)
                             if len(x_grad_grad) == n_x else x_grad_grad) +
                       params_grad_grad,
                       params=params, eps=eps, atol=atol, rtol=rtol,
                       no_grads=first_no_grads, dtype=dtype,
                       detect_nondifferentiable=detect_nondifferentiable)
    except AssertionError as e:
        # Chainer's report: the arguments, then check_backward's report,
        # then that report again as the cause.
        lines = ['check_double_backward failed (eps={} atol={} rtol={})'
                 .format(eps, atol, rtol)]
        for label, arrays in (('input', x_data), ('grad_output', y_grad),
                              ('grad_grad_input', x_grad_grad),
                              ('grad_grad_param', params_grad_grad)):
            for i, a in enumerate(arrays):
                lines += ['{}[{}]:'.format(label, i),
                          str(getattr(a, 'array', a))]
        raise AssertionError(
            '\n'.join(lines) + '\n\n{}\n\n(caused by)\n{}: {}\n'.format(
                e, type(e).__name__, e)) from e


def check_jvp(func, x_data, x_tangent, eps=1e-3, atol=1e-5, rtol=1e-4,
              dtype=None):
    """Tests the forward-mode derivative of ``func`` numerically.

    :func:`chainer.jvp` along ``x_tangent`` is compared with the central
    difference ``(func(x + eps t) - func(x - eps t)) / (2 eps)``, both with
    the native rules of the functions that have them and with every rule
    derived from backward (so a native rule is also checked against the
    function's own backward).

    Args:
        func: A function taking Variables and returning a Variable or a
            tuple of Variables.
        x_data (array or tuple of arrays): The inputs.
        x_tangent (array or tuple): One tangent per input (None for a zero
            tangent, and for every non-float input).
        eps (float): Step of the central difference.
        atol, rtol (float): Tolerances of the comparison.
        dtype: If given, the numerical derivative is taken with the inputs
            and tangents cast to this float dtype.

    Raises:
        AssertionError: The derivatives disagree.

    >>> import numpy as np
    >>> import chainer.functions as F
    >>> x = np.array([1., 2.], np.float64)
    >>> check_jvp(F.exp, x, np.array([1., -1.]))
    """
    from chainer import _forward_ad
    x_data = tuple(x.array if isinstance(x, Variable) else x
                   for x in _as_tuple(x_data))
    x_tangent = tuple(t.array if isinstance(t, Variable) else t
                      for t in _as_tuple(x_tangent))
    if len(x_tangent) != len(x_data):
        raise ValueError(
            'check_jvp: x_tangent has {} entries but there are {} inputs'
            .format(len(x_tangent), len(x_data)))
    if dtype is not None and numpy.dtype(dtype).kind != 'f':
        raise ValueError('check_jvp: dtype must be a float type, got '
                         '{}'.format(dtype))

    def outputs(xs):
        ys = _as_tuple(func(*xs))
        for y in ys:
            if not isinstance(y, Variable):
                raise TypeError('check_jvp: func must return Variables, '
                                'got {}'.format(type(y).__name__))
        return ys

    def analytic():
        xs = tuple(Variable(x, requires_grad=x.dtype.kind == 'f')
                   for x in x_data)
        ys = outputs(xs)
        return ys, chainer.jvp(ys, xs, x_tangent)

    ys, native = analytic()
    with _forward_ad._derived_rules_only():
        _, derived = analytic()

    def shifted(sign):
        xs = []
        for x, t in zip(x_data, x_tangent):
            if dtype is not None and x.dtype.kind == 'f':
                x = x.astype(dtype)
                t = None if t is None else t.astype(dtype)
            if t is not None:
                x = x + sign * eps * t
            xs.append(Variable(x, requires_grad=False))
        with chainer.no_backprop_mode():
            return [y.array for y in outputs(xs)]

    plus, minus = shifted(1), shifted(-1)
    for k, y in enumerate(ys):
        if native[k] is None:
            continue
        numerical = (_to_float64(plus[k]) - _to_float64(minus[k])) / (
            2 * eps)
        for kind, got in (('native', native[k]), ('derived', derived[k])):
            try:
                _testing_array.assert_allclose(
                    numerical, _to_float64(got.array), atol=atol, rtol=rtol)
            except AssertionError as e:
                raise AssertionError(
                    'check_jvp: the {} forward-mode derivative of output {} '
                    'disagrees with the numerical one\n{}'.format(
                        kind, k, e)) from None
