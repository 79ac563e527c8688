"""A first look at chainer-ng: fit a cubic polynomial by gradient descent.

    python examples/quickstart.py

Builds the graph define-by-run, backpropagates, and updates the parameters
by hand, printing a progress bar of the loss.
"""

import sys

import numpy

import chainer
import chainer.functions as F


def main(steps=2000, lr=0.5):
    rng = numpy.random.RandomState(0)
    x = rng.uniform(-1, 1, (200, 1)).astype(numpy.float32)
    t = (x ** 3 - 0.5 * x + 0.1).astype(numpy.float32)
    t += rng.normal(0, 0.01, t.shape).astype(numpy.float32)
    feats = numpy.concatenate([x ** k for k in range(4)], axis=1)
    w = chainer.Parameter(numpy.zeros((4, 1), numpy.float32), name='w')
    width = 40
    for step in range(1, steps + 1):
        w.cleargrad()
        y = F.matmul(feats, w)
        loss = F.sum((y - t) ** 2) / len(x)
        loss.backward()
        w.array -= lr * w.grad
        if step % 50 == 0 or step == steps:
            done = width * step // steps
            sys.stdout.write('\r[{}{}] step {:4d}/{} loss {:.6f}'.format(
                '#' * done, '.' * (width - done), step, steps,
                loss.item()))
            sys.stdout.flush()
    print()
    print('learned coefficients (1, x, x^2, x^3):',
          numpy.round(w.array.ravel(), 2))
    return loss.item()


if __name__ == '__main__':
    main()
