"""An uncaught exception on one rank aborts every rank.

Otherwise the other ranks wait forever in their next collective. The hook
prints the traceback with the rank, then calls ``MPI_Abort`` on
``COMM_WORLD``. :func:`add_hook` installs it; importing chainermn installs it
when ``CHAINERMN_FORCE_ABORT_ON_EXCEPTION`` is set.
"""

import os
import sys
import traceback


def _global_except_hook(exctype, value, tb):
    try:
        from mpi4py import MPI
        rank = MPI.COMM_WORLD.rank
        sys.stderr.write('\n*** chainermn: uncaught exception on rank {} of {}; '
                         'aborting all ranks\n'.format(rank, MPI.COMM_WORLD.size))
        traceback.print_exception(exctype, value, tb)
        sys.stderr.flush()
    finally:
        try:
            MPI.COMM_WORLD.Abort(1)
        except Exception:
            os._exit(1)


def add_hook():
    """Makes an uncaught exception on this rank abort all ranks."""
    sys.excepthook = _global_except_hook


def _add_hook_if_enabled():
    if os.environ.get('CHAINERMN_FORCE_ABORT_ON_EXCEPTION'):
        add_hook()
