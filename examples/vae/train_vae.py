#!/usr/bin/env python
"""Train a variational autoencoder (VAE) on handwritten digits.

    python examples/vae/train_vae.py                  # 8x8 digits, offline
    python examples/vae/train_vae.py --dataset mnist  # 28x28 MNIST (downloads)

The encoder maps an image to a diagonal Normal distribution over the latent
code, the decoder maps a code to independent Bernoulli distributions over the
pixels, and the prior is a standard Normal. Training maximises the evidence
lower bound (ELBO): the expected log-likelihood of the image under the
decoder, estimated with ``--k`` reparameterised samples, minus ``--beta`` times
the KL divergence from the prior, computed in closed form by
:func:`chainer.kl_divergence`. The model is built from
:mod:`chainer.distributions`.

Besides the log and the loss plot, ``--out`` receives ``reconstruction.png``
(validation images and their reconstructions) and ``sampled.png`` (images
decoded from codes drawn from the prior).
"""

import os
import sys

import numpy

import chainer
import chainer.distributions as D
import chainer.functions as F
import chainer.links as L
from chainer.training import extensions

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
import _common  # noqa: E402  (examples/_common.py)


class Encoder(chainer.Chain):
    """q(z | x): a diagonal Normal whose mean and log-scale an MLP predicts."""

    def __init__(self, n_in, n_latent, n_hidden):
        super().__init__()
        with self.init_scope():
            self.hidden = L.Linear(n_in, n_hidden)
            self.mu = L.Linear(n_hidden, n_latent)
            self.ln_sigma = L.Linear(n_hidden, n_latent)

    def forward(self, x):
        h = F.tanh(self.hidden(x))
        normal = D.Normal(loc=self.mu(h), log_scale=self.ln_sigma(h))
        # The latent dimensions form one event, so log_prob sums over them.
        return D.Independent(normal, reinterpreted_batch_ndims=1)


class Decoder(chainer.Chain):
    """p(x | z): independent Bernoulli pixels whose logits an MLP predicts."""

    def __init__(self, n_latent, n_out, n_hidden):
        super().__init__()
        with self.init_scope():
            self.hidden = L.Linear(n_latent, n_hidden)
            self.out = L.Linear(n_hidden, n_out)

    def forward(self, z, as_probability=False):
        # z may carry a leading sample axis: (k, batch, n_latent).
        lead = z.shape[:-1]
        h = F.tanh(self.hidden(F.reshape(z, (-1, z.shape[-1]))))
        logit = F.reshape(self.out(h), lead + (-1,))
        if as_probability:
            return F.sigmoid(logit)
        return D.Independent(D.Bernoulli(logit=logit), reinterpreted_batch_ndims=1)


class Prior(chainer.Link):
    """p(z): the standard Normal, kept as persistent arrays so it moves with
    the model to a device."""

    def __init__(self, n_latent):
        super().__init__()
        self.add_persistent('loc', numpy.zeros(n_latent, numpy.float32))
        self.add_persistent('scale', numpy.ones(n_latent, numpy.float32))

    def forward(self):
        return D.Independent(D.Normal(self.loc, scale=self.scale),
                             reinterpreted_batch_ndims=1)


class AvgELBOLoss(chainer.Chain):
    """The negative ELBO averaged over a batch; reports its two terms."""

    def __init__(self, encoder, decoder, prior, beta=1.0, k=1):
        super().__init__()
        self.beta = beta
        self.k = k
        with self.init_scope():
            self.encoder = encoder
            self.decoder = decoder
            self.prior = prior

    def forward(self, x):
        q_z = self.encoder(x)
        z = q_z.sample(self.k)              # (k, batch, n_latent), differentiable
        p_x = self.decoder(z)
        x_k = F.broadcast_to(x[None], (self.k,) + x.shape)
        reconstr = F.mean(p_x.log_prob(x_k))
        kl_penalty = F.mean(chainer.kl_divergence(q_z, self.prior()))
        loss = self.beta * kl_penalty - reconstr
        chainer.report({'loss': loss, 'reconstr': reconstr,
                        'kl_penalty': kl_penalty}, self)
        return loss


def get_digits_images(validation_ratio=0.2, seed=0):
    """scikit-learn's 8x8 digits as (train, validation) float32 arrays of
    shape (N, 64), scaled to [0, 1]; the split is random with a fixed seed."""
    try:
        from sklearn.datasets import load_digits
    except ImportError:
        sys.exit('The digits data set needs scikit-learn: pip install scikit-learn '
                 "(or pip install -e '.[examples]')")
    x = (load_digits().data / 16.).astype(numpy.float32)
    order = numpy.random.RandomState(seed).permutation(len(x))
    n_train = len(x) - int(len(x) * validation_ratio)
    return x[order[:n_train]], x[order[n_train:]]


def save_images(images, side, filename, title=None):
    """Save images (rows of ``side * side`` pixels) as a grid, 5 per row."""
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt

    n_cols = 5
    n_rows = (len(images) + n_cols - 1) // n_cols
    fig, axes = plt.subplots(n_rows, n_cols, figsize=(n_cols, n_rows), squeeze=False)
    for i, ax in enumerate(axes.ravel()):
        ax.axis('off')
        if i < len(images):
            ax.imshow(images[i].reshape(side, side), cmap='gray', vmin=0, vmax=1)
    if title:
        fig.suptitle(title)
    fig.savefig(filename)
    plt.close(fig)


def parse_args(argv=None):
    parser = _common.make_parser(
        'chainer-ng example: VAE', batchsize=100, epoch=50, out='result_vae',
        out_help='directory for the log, plots, images and snapshots')
    parser.add_argument('--initmodel', '-m', type=str,
                        help='model file (npz) to start from')
    parser.add_argument('--dimz', '-z', type=int, default=8,
                        help='dimension of the latent code')
    parser.add_argument('--unit', '-u', type=int, default=200,
                        help='number of hidden units of the encoder and decoder')
    parser.add_argument('--beta', type=float, default=1.0,
                        help='weight of the KL divergence term')
    parser.add_argument('--k', '-k', type=int, default=1,
                        help='number of latent samples per image')
    _common.add_data_options(parser, plot_help='do not write the loss plot or the images')
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)

    if args.dataset == 'mnist':
        train, test = chainer.datasets.get_mnist(withlabel=False)
        side = 28
    else:
        train, test = get_digits_images()
        side = 8
    n_in = side * side

    device = chainer.get_device(args.device)
    _common.print_settings(device, args, '# dim z: {}'.format(args.dimz))

    encoder = Encoder(n_in, args.dimz, args.unit)
    decoder = Decoder(args.dimz, n_in, args.unit)
    prior = Prior(args.dimz)
    avg_elbo = AvgELBOLoss(encoder, decoder, prior, beta=args.beta, k=args.k)
    if args.initmodel is not None:
        chainer.serializers.load_npz(args.initmodel, avg_elbo)
    trainer = _common.make_trainer(
        args, avg_elbo, train, test, device,
        ['epoch', 'main/loss', 'validation/main/loss',
         'main/reconstr', 'main/kl_penalty', 'elapsed_time'],
        [(['main/loss', 'validation/main/loss'], 'loss.png')])
    trainer.run()
    chainer.serializers.save_npz(os.path.join(args.out, 'model.npz'), avg_elbo)

    if args.plot and extensions.PlotReport.available():
        cpu = chainer.backend.CpuDevice()
        x = numpy.asarray(test[:10])
        with chainer.using_config('train', False), chainer.no_backprop_mode():
            # Reconstruct from the mean of q(z | x).
            z = encoder(device.send(x)).mean
            x_rec = cpu.send(decoder(z, as_probability=True).array)
            z = prior().sample(10)
            x_gen = cpu.send(decoder(z, as_probability=True).array)
        save_images(numpy.concatenate([x, x_rec]), side,
                    os.path.join(args.out, 'reconstruction.png'),
                    'validation images (top) and reconstructions (bottom)')
        save_images(x_gen, side, os.path.join(args.out, 'sampled.png'),
                    'decoded from the prior')
    return trainer


if __name__ == '__main__':
    main()
