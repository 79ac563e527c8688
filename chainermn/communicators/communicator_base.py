"""The interface every ChainerMN communicator offers."""

import abc
import contextlib
import warnings


class CommunicatorBase(metaclass=abc.ABCMeta):
    """The interface of ChainerMN's communicators.

    A communicator joins the processes of one training run: it knows this
    process's place among them (:attr:`rank` out of :attr:`size`, and on its
    node, :attr:`intra_rank` out of :attr:`intra_size`), moves arrays and
    picklable objects between them, and averages a model's gradients
    (:meth:`multi_node_mean_grad`). Every collective must be called by all
    processes, in the same order. Create one with
    :func:`chainermn.create_communicator`.
    """

    # Settings each communicator understands, and their defaults.
    _config_defaults = {'batched_copy': True}

    def __init__(self):
        self.__dict__['_configs'] = dict(self._config_defaults)
        self.__dict__['_within_config_scope'] = False

    def __deepcopy__(self, memo):
        # A communicator is a handle on a group of processes, not a value: a
        # deep copy of a model holding one (MultiNodeBatchNormalization)
        # shares it.
        return self

    def __getattr__(self, name):
        # Only reached when the usual lookup fails: settings read as
        # attributes (``comm.batched_copy``).
        configs = self.__dict__.get('_configs')
        if configs is not None and name in configs:
            return configs[name]
        raise AttributeError('{!r} object has no attribute {!r}'.format(
            type(self).__name__, name))

    def __setattr__(self, name, value):
        if self.__dict__.get('_within_config_scope'):
            self._configs[name] = value
        else:
            super().__setattr__(name, value)

    @property
    @abc.abstractmethod
    def rank(self):
        """This process's rank, ``0 <= rank < size``."""

    @property
    @abc.abstractmethod
    def size(self):
        """The number of processes."""

    @property
    @abc.abstractmethod
    def intra_rank(self):
        """This process's rank among the processes of its node."""

    @property
    @abc.abstractmethod
    def intra_size(self):
        """The number of processes on this node."""

    @property
    @abc.abstractmethod
    def inter_rank(self):
        """The rank of this process's node among the nodes."""

    @property
    @abc.abstractmethod
    def inter_size(self):
        """The number of nodes."""

    # Settings.
    def set_config(self, name, value=True, **kwargs):
        """Sets the setting ``name`` (``'batched_copy'``, or
        ``'allreduce_grad_dtype'`` where the communicator has it); an unknown
        name raises :class:`ValueError`."""
        if name not in self._configs:
            raise ValueError('Unknown config: {} (the settings of {}: {})'.format(
                name, type(self).__name__, ', '.join(sorted(self._configs))))
        self._configs[name] = value

    def get_config(self, name=None):
        """The value of the setting ``name`` (:class:`KeyError` for an unknown
        one), or a dict of all of them when ``name`` is None."""
        if name is None:
            return dict(self._configs)
        return self._configs[name]

    @property
    def within_config_scope(self):
        """Whether a :meth:`config_scope` block is running."""
        return self._within_config_scope

    @contextlib.contextmanager
    def config_scope(self):
        """Within the block, assigning an attribute of the communicator
        declares (or sets) the setting of that name, readable afterwards as
        the attribute and through :meth:`get_config`. This is how a
        communicator declares its settings."""
        self.__dict__['_within_config_scope'] = True
        try:
            yield
        finally:
            self.__dict__['_within_config_scope'] = False

    # Arrays.
    @abc.abstractmethod
    def split(self, color, key):
        """A communicator of the processes that pass the same ``color``,
        ranked by ``key`` (as ``MPI_Comm_split``)."""

    @abc.abstractmethod
    def alltoall(self, xs):
        """Sends ``xs[i]`` to rank ``i``; returns the tuple of the arrays
        received, ``ys[j]`` from rank ``j``."""

    @abc.abstractmethod
    def send(self, data, dest, tag):
        """Sends an array, or a tuple of arrays, to rank ``dest`` (this rank
        too: :meth:`recv` from itself then gets it)."""

    @abc.abstractmethod
    def recv(self, source, tag):
        """Receives what :meth:`send` sent from rank ``source``: an array or
        a tuple of arrays."""

    @abc.abstractmethod
    def bcast(self, data, max_buf_len=None, root=0):
        """The array ``data`` of rank ``root``, on every rank (the others
        may pass None)."""

    @abc.abstractmethod
    def gather(self, data, root=0):
        """On ``root``, the tuple of every rank's ``data`` by rank; ``None``
        elsewhere."""

    @abc.abstractmethod
    def allgather(self, x):
        """The tuple of every rank's ``x``, by rank, on every rank."""

    @abc.abstractmethod
    def allreduce(self, data):
        """The elementwise sum of every rank's ``data``, on every rank (of the
        same shape and dtype everywhere: every rank raises otherwise)."""

    @abc.abstractmethod
    def scatter(self, xs, root=0):
        """Rank ``i`` gets ``xs[i]`` of rank ``root`` (an array whose first
        axis has length ``size``, or a sequence of ``size`` arrays)."""

    # Objects.
    @abc.abstractmethod
    def send_obj(self, obj, dest, tag=0):
        """Sends a picklable object to rank ``dest``."""

    @abc.abstractmethod
    def recv_obj(self, source, status=None, tag=None):
        """Receives an object sent by :meth:`send_obj` from ``source``
        (with any tag when ``tag`` is None)."""

    @abc.abstractmethod
    def bcast_obj(self, obj, max_buf_len=None, root=0):
        """The object ``obj`` of rank ``root``, on every rank."""

    @abc.abstractmethod
    def gather_obj(self, obj, root=0):
        """On ``root``, the list of every rank's ``obj``; ``None`` elsewhere."""

    @abc.abstractmethod
    def allreduce_obj(self, obj):
        """The sum (``+``) of every rank's ``obj``, on every rank."""

    # Models.
    @abc.abstractmethod
    def bcast_data(self, model):
        """Copies the parameters (and persistent arrays) of ``model`` on rank
        0 into ``model`` on every rank."""

    def broadcast_data(self, model):
        """The old name of :meth:`bcast_data`."""
        self.bcast_data(model)

    @abc.abstractmethod
    def multi_node_mean_grad(self, model, zero_fill=False):
        """Replaces each parameter's gradient by its mean over the ranks.

        Parameters without a gradient take part as zeros when ``zero_fill``
        is true, and are left out (on every rank alike) otherwise.
        """

    def allreduce_grad(self, model, zero_fill=False):
        """The old name of :meth:`multi_node_mean_grad` (it averages, it
        does not sum)."""
        warnings.warn('allreduce_grad() is deprecated; use multi_node_mean_grad()',
                      DeprecationWarning)
        self.multi_node_mean_grad(model, zero_fill)

    def finalize(self):
        """Releases what the communicator holds; it cannot be used after."""
