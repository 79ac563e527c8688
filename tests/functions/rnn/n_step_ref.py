"""Shared inputs and the NumPy reference loop of the n-step RNN tests."""

import numpy


def params(rng, dirs, n_w, n_layers=2, in_size=2, out=2):
    ws, bs = [], []
    for layer in range(n_layers):
        for _ in range(dirs):
            n_in = in_size if layer == 0 else out * dirs
            ws.append([rng.randn(out, n_in if k < n_w // 2 else out)
                       for k in range(n_w)])
            bs.append([rng.randn(out) for _ in range(n_w)])
    return ws, bs


def reference_inputs(dirs, n_w):
    # The inputs the reference values were computed with.
    rng = numpy.random.RandomState(4)
    xs = [rng.randn(2, 2), rng.randn(1, 2)]
    ws, bs = params(rng, dirs, n_w)
    hx = rng.randn(2 * dirs, 2, 2)
    cx = rng.randn(2 * dirs, 2, 2)
    return hx, cx, ws, bs, xs


def numpy_n_step(cell, n_layers, hx, cx, ws, bs, xs, dirs):
    """A plain NumPy stacked (bi)directional loop, time-major."""
    hy, cy = [], []
    inputs = xs
    for layer in range(n_layers):
        outs = []
        for d in range(dirs):
            k = layer * dirs + d
            h, c = hx[k].copy(), None if cx is None else cx[k].copy()
            ys = [None] * len(inputs)
            times = range(len(inputs))
            for t in (reversed(times) if d else times):
                b = len(inputs[t])
                h_new, c_new = cell(inputs[t], h[:b],
                                    None if c is None else c[:b], ws[k], bs[k])
                h[:b] = h_new
                if c is not None:
                    c[:b] = c_new
                ys[t] = h_new
            hy.append(h)
            cy.append(c)
            outs.append(ys)
        inputs = [numpy.concatenate(o, axis=1) for o in zip(*outs)]
    return hy, cy, inputs


def sigmoid(x):
    return 1 / (1 + numpy.exp(-x))
