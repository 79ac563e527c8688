"""The path of Chainer's VAE example (examples/vae): an encoder giving
``Independent(Normal(loc, log_scale=...))``, a decoder giving
``Independent(Bernoulli(logit=...))``, a fixed ``Normal`` prior, and
``kl_divergence``, trained with an optimizer."""

import numpy

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import distributions as D
from chainer.distribution import kl_divergence


class Encoder(chainer.Chain):

    def __init__(self, n_in, n_latent, n_h):
        super().__init__()
        with self.init_scope():
            self.linear = L.Linear(n_in, n_h)
            self.mu = L.Linear(n_h, n_latent)
            self.ln_sigma = L.Linear(n_h, n_latent)

    def forward(self, x):
        h = F.tanh(self.linear(x))
        return D.Independent(
            D.Normal(loc=self.mu(h), log_scale=self.ln_sigma(h)))


class Decoder(chainer.Chain):

    def __init__(self, n_in, n_latent, n_h):
        super().__init__()
        with self.init_scope():
            self.linear = L.Linear(n_latent, n_h)
            self.output = L.Linear(n_h, n_in)

    def forward(self, z):
        h = F.tanh(self.linear(z, n_batch_axes=2))
        h = self.output(h, n_batch_axes=2)
        return D.Independent(D.Bernoulli(logit=h), reinterpreted_batch_ndims=1)


class Prior(chainer.Link):

    def __init__(self, n_latent):
        super().__init__()
        self.loc = numpy.zeros(n_latent, numpy.float32)
        self.scale = numpy.ones(n_latent, numpy.float32)

    def forward(self):
        return D.Independent(D.Normal(self.loc, scale=self.scale),
                             reinterpreted_batch_ndims=1)


class AvgELBOLoss(chainer.Chain):

    def __init__(self, encoder, decoder, prior, k=2):
        super().__init__()
        self.k = k
        with self.init_scope():
            self.encoder = encoder
            self.decoder = decoder
            self.prior = prior

    def forward(self, x):
        q_z = self.encoder(x)
        z = q_z.sample(self.k)
        p_x = self.decoder(z)
        p_z = self.prior()
        reconstr = F.mean(p_x.log_prob(
            F.broadcast_to(x[None, :], (self.k,) + x.shape)))
        kl_penalty = F.mean(kl_divergence(q_z, p_z))
        return -(reconstr - kl_penalty)


def test_vae_trains():
    numpy.random.seed(0)
    n_in, n_latent, n_h, batch = 12, 2, 8, 16
    rng = numpy.random.RandomState(0)
    protos = (rng.rand(2, n_in) > 0.5).astype(numpy.float32)
    x = protos[rng.randint(0, 2, batch)]
    model = AvgELBOLoss(Encoder(n_in, n_latent, n_h),
                        Decoder(n_in, n_latent, n_h), Prior(n_latent))
    opt = chainer.optimizers.Adam(1e-2)
    opt.setup(model)
    losses = []
    for _ in range(60):
        loss = model(x)
        assert loss.shape == () and loss.dtype == numpy.float32
        model.cleargrads()
        loss.backward()
        # Gradients reach the encoder through the reparameterized sample
        # and the KL term.
        assert numpy.abs(model.encoder.mu.W.grad).sum() > 0
        assert numpy.abs(model.encoder.ln_sigma.W.grad).sum() > 0
        opt.update()
        losses.append(float(loss.array))
    assert numpy.isfinite(losses).all()
    assert numpy.mean(losses[-10:]) < numpy.mean(losses[:10]) - 1.0
    # Inference path: decode the posterior mean.
    with chainer.using_config('train', False), chainer.no_backprop_mode():
        mu = model.encoder(x).mean
        p = model.decoder(mu[None]).distribution.p
    assert p.shape == (1, batch, n_in)
