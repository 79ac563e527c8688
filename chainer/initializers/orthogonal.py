"""The orthogonal initializer (Saxe et al. 2014)."""

from chainer import backend
from chainer.initializer import Initializer
from chainer.initializers._common import check_dtype, pop_rng

_MODES = ('auto', 'projection', 'embedding', 'basis')


class Orthogonal(Initializer):
    """Fills a weight with ``scale`` times an orthonormal system.

    The array of shape ``(out, in_1, in_2, ...)`` is read as a matrix of
    ``out`` rows and ``in = in_1 * in_2 * ...`` columns (a 1-D array as one
    row). Its rows are orthonormal when ``out <= in`` (a *projection*), its
    columns when ``out >= in`` (an *embedding*), both when square (a
    *basis*). The system is the Q factor of a Gaussian matrix drawn from
    ``numpy.random`` (or ``rng``), with signs fixed so that R has a positive
    diagonal, which makes it uniformly distributed.

    Args:
        scale (float): The multiplier.
        dtype: The dtype of the arrays it fills.
        mode (str): ``'auto'``, or one of ``'projection'``, ``'embedding'``
            and ``'basis'`` to require that shape.
        rng: (keyword only) The random state to draw from.

    >>> import numpy as np
    >>> a = np.empty((2, 3))
    >>> Orthogonal(1.0)(a)
    >>> np.allclose(a @ a.T, np.eye(2))
    True
    """

    def __init__(self, scale=1.1, dtype=None, mode='auto', **kwargs):
        if mode not in _MODES:
            raise ValueError(
                "Invalid mode: {!r}. Choose from 'auto', 'projection', "
                "'embedding', 'basis'.".format(mode))
        self.scale = scale
        self.mode = mode
        self.rng = pop_rng('Orthogonal', kwargs)
        super().__init__(dtype)

    def __call__(self, array):
        check_dtype(self, array)
        xp = backend.get_array_module(array)
        rng = xp.random if self.rng is None else self.rng
        shape = array.shape
        if array.ndim == 0:
            # a random sign, drawn as Chainer draws it
            array[...] = self.scale * (2 * int(rng.randint(2)) - 1)
            return
        if array.size == 0:
            raise ValueError('Array to be initialized must be non-empty.')
        # As Chainer: the first axis is the output, the rest the input (a
        # vector is one column: a 1-dim input).
        n_out, n_in = shape[0], array.size // shape[0]
        self._check_mode(shape, n_in, n_out)
        a = xp.asarray(rng.normal(size=(n_out, n_in)))
        transpose = n_out < n_in
        if transpose:
            a = a.T
        q, r = xp.linalg.qr(a)
        q *= xp.copysign(self.scale, xp.diagonal(r))
        if transpose:
            q = q.T
        array[...] = q.reshape(shape)

    def _check_mode(self, shape, n_in, n_out):
        mode = self.mode
        ok = {'auto': True, 'projection': n_out <= n_in,
              'embedding': n_out >= n_in, 'basis': n_out == n_in}[mode]
        if not ok:
            raise ValueError(
                'Cannot make orthogonal {}. shape = {}, interpreted as '
                '{}-dim input and {}-dim output.'.format(
                    mode, shape, n_in, n_out))
