"""A small training run for test_resume.py (run as a subprocess).

usage: python resume_train.py OUT_DIR full|crash|resume

``crash`` pauses (prints READY, then sleeps) at iteration 10, after the
snapshot of iteration 8, so that the test can kill it; ``resume`` picks up
the latest snapshot in OUT_DIR (autoload) and finishes. Every mode saves the
final parameters to OUT_DIR/final.npz.
"""

import os
import sys
import time

import numpy

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import training
from chainer.training import extensions


class MLP(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(4, 8)
            self.l2 = L.Linear(8, 3)

    def forward(self, x):
        return self.l2(F.dropout(F.relu(self.l1(x)), 0.2))


class RandomState:
    """Keeps NumPy's global random state in the snapshots (the trainer does
    not, as Chainer's does not), so that the resumed run draws the same
    shuffles and dropout masks."""

    trigger = (1, 'iteration')

    def __call__(self, trainer):
        pass

    def serialize(self, serializer):
        if isinstance(serializer, chainer.serializer.Serializer):
            _, keys, pos, has_gauss, gauss = numpy.random.get_state()
            for name, v in (('keys', keys), ('pos', pos),
                            ('has_gauss', has_gauss), ('gauss', gauss)):
                serializer(name, v)
            return
        keys = serializer('keys', numpy.zeros(624, numpy.uint32))
        pos, has_gauss = (serializer(n, 0) for n in ('pos', 'has_gauss'))
        gauss = serializer('gauss', 0.)
        numpy.random.set_state(('MT19937', keys, int(pos), int(has_gauss),
                                float(gauss)))


def main(out, mode):
    numpy.random.seed(1)
    rs = numpy.random.RandomState(0)
    x = rs.randn(40, 4).astype(numpy.float32)
    t = rs.randint(0, 3, 40).astype(numpy.int32)
    dataset = chainer.datasets.TupleDataset(x, t)
    model = L.Classifier(MLP())
    optimizer = chainer.optimizers.Adam(alpha=0.01).setup(model)
    it = chainer.iterators.SerialIterator(dataset, 6, shuffle=True)
    updater = training.StandardUpdater(it, optimizer)
    trainer = training.Trainer(updater, (30, 'iteration'), out=out)
    trainer.extend(extensions.ExponentialShift('alpha', 0.7),
                   trigger=(5, 'iteration'))
    trainer.extend(extensions.LogReport(trigger=(3, 'iteration')))
    trainer.extend(RandomState(), name='random_state')
    trainer.extend(extensions.snapshot(n_retains=2, autoload=True),
                   trigger=(4, 'iteration'))
    if mode == 'crash':
        def pause(trainer):
            if trainer.updater.iteration == 10:
                print('READY', flush=True)
                time.sleep(600)
        trainer.extend(pause, priority=-200)
    trainer.run()
    chainer.serializers.save_npz(os.path.join(out, 'final.npz'), model)


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2])
