"""Shared helpers of the optimizer tests.

A fixed small problem: a (2, 3) parameter and six fixed gradient offsets;
the gradient at step t is ``G[t] + 0.5 * param`` (so it depends on the
parameter, like a real loss).  ``run_rule`` runs an optimizer's update rule
on it; ``run_reference`` runs a NumPy float64 transcription of the published
update formula.  Everything here uses only Chainer's public API, so the
literal expected values in the tests were produced by running the same
helpers under Chainer 7.8.1.
"""

import numpy as np

import chainer
import chainer.functions as F
from chainer import serializers

_rs = np.random.RandomState(0)
W0 = _rs.uniform(-1, 1, (2, 3))
G = _rs.uniform(-1, 1, (6, 2, 3))

TOL = {np.float16: dict(rtol=1e-2, atol=1e-2),
       np.float32: dict(rtol=1e-5, atol=1e-6),
       np.float64: dict(rtol=1e-12, atol=1e-12)}


def grad_at(w, t):
    return G[t] + 0.5 * w


def run_rule(rule, dtype=np.float32, steps=6):
    """Runs ``rule`` for ``steps`` updates; returns the parameter after
    each one (a list) and the parameter."""
    p = chainer.Parameter(W0.astype(dtype))
    out = []
    for t in range(steps):
        p.grad = grad_at(p.array, t).astype(dtype)
        rule.update(p)
        assert p.array.dtype == dtype
        out.append(p.array.copy())
    return out, p


def run_reference(step, steps=6, **hp):
    """Runs ``step(w, g, state, t, **hp)`` (t counts from 1) in float64."""
    w = W0.copy()
    state = {}
    out = []
    for t in range(steps):
        w = step(w, grad_at(w, t), state, t + 1, **hp)
        out.append(w.copy())
    return out


def check_against_reference(opt, step, dtype, steps=6, **hp):
    got, _ = run_rule(opt.create_update_rule(), dtype, steps)
    want = run_reference(step, steps, **hp)
    for t in range(steps):
        np.testing.assert_allclose(got[t], want[t], err_msg='step %d' % t,
                                   **TOL[dtype])


# --- a tiny regression model ---------------------------------------------------

class Regression(chainer.Link):

    def __init__(self, dtype=np.float32):
        super().__init__()
        with self.init_scope():
            self.W = chainer.Parameter(
                np.array([[0.5, -0.3], [0.1, 0.2], [-0.4, 0.6]], dtype))
            self.b = chainer.Parameter(np.zeros(3, dtype))

    def forward(self, x):
        return F.linear(x, self.W, self.b)


def regression_data(dtype=np.float32):
    rs = np.random.RandomState(0)
    x = rs.randn(16, 2).astype(dtype)
    w = np.array([[1., 2.], [-1., 0.5], [0.3, -2.]])
    y = (x @ w.T + np.array([0.5, -0.5, 1.])).astype(dtype)
    return x, y


def lossfun(model, x, y):
    return F.mean_squared_error(model(x), y)


def train(opt, steps=200, dtype=np.float32):
    """Trains the regression with ``opt``; returns the final loss."""
    model = Regression(dtype)
    opt.setup(model)
    x, y = regression_data(dtype)
    for _ in range(steps):
        opt.update(lossfun, model, x, y)
    return float(lossfun(model, x, y).array)


def check_serialize_resume(make_opt, steps=3):
    """Saves an optimizer mid-training, loads it into a fresh one, and
    checks that both continue identically."""
    x, y = regression_data()
    m1 = Regression()
    o1 = make_opt().setup(m1)
    for _ in range(steps):
        o1.update(lossfun, m1, x, y)
    o1.new_epoch()
    saved = serializers.DictionarySerializer()
    saved.save(o1)
    m2 = Regression()
    m2.copyparams(m1)
    o2 = make_opt().setup(m2)
    serializers.NpzDeserializer(saved.target).load(o2)
    assert (o2.t, o2.epoch) == (o1.t, o1.epoch)
    for p1, p2 in zip(m1.params(), m2.params()):
        assert p2.update_rule.t == p1.update_rule.t
        s1, s2 = p1.update_rule.state or {}, p2.update_rule.state or {}
        assert sorted(s1) == sorted(s2)
        for k in s1:
            np.testing.assert_array_equal(s1[k], s2[k])
            assert s1[k] is not s2[k]
    for _ in range(2):
        o1.update(lossfun, m1, x, y)
        o2.update(lossfun, m2, x, y)
    for p1, p2 in zip(m1.params(), m2.params()):
        np.testing.assert_array_equal(p1.array, p2.array)
    return saved.target


def check_hyperparams(opt_cls, rule_cls, defaults, module):
    """Defaults, the optimizer-level proxies, and rule-level overrides."""
    assert module._default_hyperparam.get_dict() == defaults
    opt = opt_cls()
    assert opt.hyperparam.get_dict() == defaults
    for name, value in defaults.items():
        assert getattr(opt, name) == value
    rule = opt.create_update_rule()
    assert isinstance(rule, rule_cls)
    assert rule.hyperparam.parent is opt.hyperparam
    assert rule_cls().hyperparam.parent is module._default_hyperparam
    name = next(iter(defaults))
    new = 0.125
    setattr(opt, name, new)
    assert opt.hyperparam.get_dict()[name] == new
    assert getattr(rule.hyperparam, name) == new
    setattr(rule.hyperparam, name, 0.25)
    assert getattr(rule.hyperparam, name) == 0.25
    assert getattr(opt, name) == new
    assert getattr(rule_cls(**{name: 0.5}).hyperparam, name) == 0.5
