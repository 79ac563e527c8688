"""SpectralNormalization: divides a link's weight by its largest singular
value (Miyato et al., 2018)."""

import numpy

import chainer
import chainer.functions as F
from chainer import backend
from chainer import link_hook


def l2normalize(xp, v, eps):
    """``v / (||v|| + eps)`` for a raw array ``v``."""
    return v / (xp.linalg.norm(v) + eps)


_l2normalize = l2normalize


def update_approximate_vectors(weight_matrix, u, n_power_iteration, eps):
    """Power iteration on a 2-D weight Variable.

    Returns new arrays ``(u, v)`` (``u`` is not modified in place), the
    approximate left and right singular vectors of the largest singular
    value.
    """
    w = weight_matrix.array
    xp = backend.get_array_module(w)
    for _ in range(n_power_iteration):
        v = l2normalize(xp, xp.dot(u, w), eps)
        u = l2normalize(xp, xp.dot(w, v), eps)
    return u, v


def calculate_max_singular_value(weight_matrix, u, v):
    """``u^T W v`` as a Variable, differentiable with respect to ``W``."""
    return F.matmul(F.matmul(u, weight_matrix), v)


def _is_deconvolution(link):
    import chainer.links as L
    classes = tuple(
        getattr(L, n) for n in ('Deconvolution1D', 'Deconvolution2D',
                                'Deconvolution3D', 'DeconvolutionND')
        if hasattr(L, n))
    return bool(classes) and isinstance(link, classes)


class SpectralNormalization(link_hook.LinkHook):
    """Spectral normalization of a link's weight.

    While the link runs forward, its weight ``W`` is replaced by
    ``W / sigma(W)``, where ``sigma`` is the largest singular value of ``W``
    seen as a matrix ``(W.shape[axis], -1)`` (``axis`` is 1 for
    deconvolutions, else 0). ``sigma`` is estimated by power iteration on a
    persistent vector ``u`` that the link keeps (as ``<weight_name>_u``);
    ``u`` is updated only in training mode. The gradient flows through
    ``sigma``.

    Args:
        n_power_iteration (int): Power iterations per forward (>= 1).
        eps (float): Added to norms to avoid division by zero.
        use_gamma (bool): Multiply by a learnable scale ``gamma`` (a link
            parameter), initialized to ``sigma(W)``.
        factor (float): Multiply the normalized weight by this constant.
        weight_name (str): The parameter to normalize.
        name (str): The name of the hook (``'SpectralNormalization'``).

    It works only through :meth:`chainer.Link.add_hook`, not as a context
    manager.

    >>> import chainer.links as L
    >>> from chainer.link_hooks import SpectralNormalization
    >>> layer = L.Linear(3, 4).add_hook(SpectralNormalization())
    """

    name = 'SpectralNormalization'

    def __init__(self, n_power_iteration=1, eps=1e-6, use_gamma=False,
                 factor=None, weight_name='W', name=None):
        if not (isinstance(n_power_iteration, (int, numpy.integer)) and
                n_power_iteration > 0):
            raise ValueError('SpectralNormalization: n_power_iteration must '
                             'be a positive int, got {!r}'.format(
                                 n_power_iteration))
        self.n_power_iteration = n_power_iteration
        self.eps = eps
        self.use_gamma = use_gamma
        self.factor = factor
        self.weight_name = weight_name
        self.vector_name = weight_name + '_u'
        self._initialized = False
        self.axis = 0
        if name is not None:
            self.name = name

    def __enter__(self):
        raise NotImplementedError(
            'This hook is not supposed to be used as context manager.')

    def __exit__(self, *args):
        raise NotImplementedError

    def added(self, link):
        if not hasattr(link, self.weight_name):
            raise ValueError(
                "Weight '{}' does not exist!".format(self.weight_name))
        if _is_deconvolution(link):
            self.axis = 1
        if getattr(link, self.weight_name).array is not None:
            self._prepare_parameters(link)

    def deleted(self, link):
        if hasattr(link, self.vector_name):
            delattr(link, self.vector_name)
        if self.use_gamma and hasattr(link, 'gamma'):
            delattr(link, 'gamma')

    def _matrix_shape(self, shape):
        return shape[self.axis], int(numpy.prod(shape)) // shape[self.axis]

    def _as_matrix_array(self, w):
        shape = self._matrix_shape(w.shape)
        if self.axis:
            xp = backend.get_array_module(w)
            w = xp.moveaxis(w, self.axis, 0)
        return w.reshape(shape)

    def reshape_W(self, W):
        """``W`` (a Variable) seen as the matrix ``(W.shape[axis], -1)``."""
        if self.axis:
            W = F.moveaxis(W, self.axis, 0)
        return F.reshape(W, (W.shape[0], -1))

    def _initialize_lazy(self, link, args):
        """Initializes an uninitialized weight from the first input."""
        x = args.args[0] if args.args else None
        if x is None:
            raise RuntimeError('SpectralNormalization: the weight {!r} is '
                               'not initialized'.format(self.weight_name))
        import chainer.links as L
        shape = x.shape
        if isinstance(link, L.Linear):
            link._initialize_params(int(numpy.prod(shape)) // shape[0])
        else:
            link._initialize_params(shape[1])

    def _prepare_parameters(self, link):
        w = getattr(link, self.weight_name).array
        xp = backend.get_array_module(w)
        n = w.shape[self.axis]
        if n == 0:
            raise ValueError('Expect {}.shape[{}] > 0'.format(
                self.weight_name, self.axis))
        if not hasattr(link, self.vector_name):
            # As Chainer: u starts as a plain normal draw (the first power
            # iteration normalizes it).
            u = xp.random.normal(size=(n,)).astype(w.dtype)
            link.add_persistent(self.vector_name, u)
        if self.use_gamma and not hasattr(link, 'gamma'):
            # The largest singular value in the weight's own precision (as
            # Chainer; LAPACK has no float16, which goes through float32).
            w_mat = self._as_matrix_array(w)
            if w_mat.dtype == numpy.float16:
                w_mat = w_mat.astype(numpy.float32)
            _, s, _ = xp.linalg.svd(w_mat)
            with link.init_scope():
                link.gamma = chainer.Parameter(
                    xp.asarray(s[0], dtype=w.dtype))
        self._initialized = True

    def forward_preprocess(self, args):
        link = args.link
        weight = getattr(link, self.weight_name)
        if weight.array is None:
            self._initialize_lazy(link, args)
        if not hasattr(link, self.vector_name) or \
                (self.use_gamma and not hasattr(link, 'gamma')):
            self._prepare_parameters(link)
        self.original_weight = weight
        setattr(link, self.weight_name, self.normalize_weight(link))

    def forward_postprocess(self, args):
        setattr(args.link, self.weight_name, self.original_weight)

    def normalize_weight(self, link):
        """The normalized weight (a Variable) of ``link``; in training mode
        it also updates the vector ``u``."""
        weight = getattr(link, self.weight_name)
        u = getattr(link, self.vector_name)
        w_mat = self._as_matrix_array(weight.array)
        if chainer.config.in_recomputing:
            # Recomputing a forward (F.forget): the vectors of the first
            # pass, so that the output is the same.
            v = self.v
        else:
            u, v = update_approximate_vectors(
                chainer.Variable(w_mat), u, self.n_power_iteration, self.eps)
            self.v = v
            if chainer.config.train:
                getattr(link, self.vector_name)[...] = u
        # sigma = (u^T W) v, differentiable with respect to W (u, v fixed);
        # the products in this order and the factor dividing sigma, as
        # Chainer rounds them.
        w_var = weight
        if self.axis:
            w_var = F.moveaxis(w_var, self.axis, 0)
        w_var = F.reshape(w_var, self._matrix_shape(weight.shape))
        sigma = calculate_max_singular_value(
            w_var, u, v.astype(w_mat.dtype, copy=False))
        if self.factor is not None:
            sigma = sigma / self.factor
        if self.use_gamma:
            return link.gamma * weight / sigma
        return weight / sigma
