import pickle

import numpy
import pytest

from chainer import initializers
from chainer.link import Link
from chainer.sequential import Sequential
from chainer.variable import Parameter


class Linear(Link):

    def __init__(self, n_in, n_out):
        super().__init__()
        self.n_in, self.n_out = n_in, n_out
        with self.init_scope():
            self.W = Parameter(initializers.Normal(1.0), (n_out, n_in))

    def forward(self, x):
        return x @ self.W.array.T

    @property
    def printable_specs(self):
        yield 'in_size', self.n_in
        yield 'out_size', self.n_out


def relu(x):
    return numpy.maximum(x, 0)


def names(s):
    return [p for p, _ in s.namedlinks()]


def test_forward_in_order():
    l1, l2 = Linear(2, 3), Linear(3, 1)
    s = Sequential(l1, relu, l2)
    x = numpy.ones((4, 2), numpy.float32)
    numpy.testing.assert_allclose(s(x), l2(relu(l1(x))))
    assert len(s) == 3 and s[0] is l1 and s[-1] is l2
    assert isinstance(s[0:2], list)
    assert names(s) == ['/', '/0', '/1']  # numbered among the links
    assert [p for p, _ in s.namedparams()] == ['/0/W', '/1/W']


def test_tuple_outputs_are_unpacked():
    assert Sequential(lambda x: (x, 2 * x), lambda a, b: a + b)(1) == 3
    assert Sequential(lambda *x: x)(1, 2) == (1, 2)
    with pytest.raises(RuntimeError, match='does not have any layer'):
        Sequential()(1)
    with pytest.raises(ValueError, match='callable'):
        Sequential(3)


def test_list_methods():
    l1, l2, l3 = Linear(2, 3), Linear(3, 3), Linear(3, 1)
    s = Sequential(l1, relu, l2)
    s.append(l3)
    assert s.index(relu) == 1 and s.count(relu) == 1
    assert s.count_by_layer_type('Linear') == 3
    # as Chainer: a function by its name, not by its class name
    assert s.count_by_layer_type('relu') == 1
    assert s.count_by_layer_type('function') == 0
    assert relu in s and l3 in s and numpy.tanh not in s
    assert s.pop() is l3 and names(s) == ['/', '/0', '/1']
    s.insert(1, l3)
    assert [type(x).__name__ for x in s] == ['Linear', 'Linear', 'function',
                                             'Linear']
    assert names(s) == ['/', '/0', '/1', '/2'] and l3.name == '1'
    s.remove(l3)
    assert len(s) == 3
    with pytest.raises(ValueError):
        s.remove(l3)
    s.remove_by_layer_type('relu')
    assert list(s) == [l1, l2]
    s[1] = relu
    assert names(s) == ['/', '/0']
    s[1] = l3
    del s[0]
    assert list(s) == [l3] and l3.name == '0'
    s.extend(Sequential(l1))
    s.extend([l2])
    assert list(reversed(s)) == [l2, l1, l3]
    with pytest.raises(ValueError):
        s.index(relu)
    assert s.index(l2, 1) == 2
    s.clear()
    assert len(s) == 0


def children(s):
    return [(s.index(c) if c in s else None, c.name) for c in s.children()]


def test_children_in_chainers_order():
    # Chainer names a Sequential's links in its own order of children: a
    # link appended after the second goes right after the first link, so
    # the saved names of Chainer's files map to the same layers.
    ls = [Linear(1, 1) for _ in range(4)]
    s = Sequential(ls[0], ls[1], ls[2])
    assert children(s) == [(0, '0'), (2, '1'), (1, '2')]
    assert [p for p, _ in s.namedparams()] == ['/0/W', '/1/W', '/2/W']
    assert s[1].name == '2'
    s = Sequential(relu, ls[0], relu, ls[1], relu, ls[2])
    s.append(ls[3])
    assert children(s) == [(1, '0'), (3, '1'), (6, '2'), (5, '3')]
    s = Sequential(relu, ls[0])
    s.insert(1, ls[1])        # no link before 1: after child 0
    assert children(s) == [(2, '0'), (1, '1')]
    s.insert(-3, ls[2])       # position 0: the first child
    assert children(s) == [(0, '0'), (3, '1'), (2, '2')]
    # glance.py's model: the last Linear is the child '1'
    m = Sequential(Linear(1, 1), relu).repeat(2)
    m.append(Linear(1, 1))
    assert [p for p, _ in m.namedparams()] == ['/0/0/W', '/1/W', '/2/0/W']
    assert m[2].name == '1' and m[1].name == '2'


def test_setitem_deletes_then_inserts():
    a, b, c, x = (Linear(1, 1) for _ in range(4))
    s = Sequential(a, b, c)
    s[-1] = x                 # as Chainer: c goes, x lands before b
    assert list(s) == [a, x, b]
    assert children(s) == [(0, '0'), (1, '1'), (2, '2')]
    with pytest.raises(ValueError, match='3 should be less than 3'):
        s[3] = x
    with pytest.raises(ValueError, match='of a Sequential class should be'):
        s[0] = 3
    with pytest.raises(TypeError):
        s[0:2] = [x]
    with pytest.raises(TypeError):
        del s[0:2]


def test_clear_leaves_every_other_child():
    # Chainer's clear drops the first, third... children only; the others
    # keep their names and parameters.
    a, b, c, n = (Linear(1, 1) for _ in range(4))
    s = Sequential(a, b, c)   # children a, c, b
    s.clear()
    assert len(s) == 0 and list(s.children()) == [c] and c.name == '1'
    s.append(n)
    assert list(s.children()) == [n, c] and [n.name, c.name] == ['0', '1']


def test_add_and_iadd():
    a, b = Sequential(Linear(1, 1)), Sequential(relu)
    c = a + b
    assert isinstance(c, Sequential) and len(c) == 2 and c[0] is a[0]
    a += b
    assert len(a) == 2
    with pytest.raises(ValueError, match='only objects of Sequential'):
        a + 3
    with pytest.raises(ValueError, match='only objects of Sequential'):
        a += [relu]


def test_copy_and_flatten():
    s = Sequential(Linear(2, 2), relu, Sequential(Linear(2, 2), relu))
    c = s.copy('copy')
    assert c[0] is not s[0] and c[1] is relu
    numpy.testing.assert_array_equal(c[0].W.array, s[0].W.array)
    assert c._children[0] is c[0]
    assert s.copy()[0].W.array is s[0].W.array
    f = s.flatten()
    assert [type(x).__name__ for x in f] == ['Linear', 'function', 'Linear',
                                             'function']
    t = Sequential(Linear(2, 2), Linear(2, 2))
    src = Sequential(Linear(2, 2), Linear(2, 2))
    t.copyparams(src)
    numpy.testing.assert_array_equal(t[1].W.array, src[1].W.array)


def test_pickle():
    s = pickle.loads(pickle.dumps(Sequential(Linear(2, 2), relu)))
    assert len(s) == 2 and [p for p, _ in s.namedparams()] == ['/0/W']


def test_str():
    s = Sequential(Linear(3, 4), relu)
    assert str(s).startswith(
        'Sequential(\n  (0): Linear(in_size=3, out_size=4),\n'
        '  (1): <function relu at ')
    assert str(s).endswith(',\n)')
    assert str(Sequential()) == 'Sequential()'
    lam = Sequential(lambda x: x)
    assert 'lambda x: x' in str(lam)


def test_insert_out_of_range_raises_index_error():
    s = Sequential()
    with pytest.raises(IndexError):
        s.insert(1, Linear(3, 3))
    with pytest.raises(IndexError):
        s.insert(-1, relu)
    s = Sequential(relu)
    with pytest.raises(IndexError):
        s.insert(-2, relu)
    with pytest.raises(IndexError):
        s.insert(2, Linear(3, 3))
    s.insert(-1, numpy.tanh)
    s.insert(2, numpy.exp)
    assert list(s) == [numpy.tanh, relu, numpy.exp]


def test_lambda_layers_print_pickle_and_copy():
    import pickle
    lin = Linear(2, 3)
    layers = [
        lin,
        lambda x: x * 2,
    ]
    s = Sequential(*layers)
    # the lambda's source line, without the trailing comma
    assert str(s).endswith('  (1): lambda x: x * 2,\n)')
    with pytest.raises(ValueError, match='lambda'):
        pickle.dumps(s)
    for mode in ('share', 'copy', 'init'):
        c = s.copy(mode)
        assert type(c) is Sequential and c[1] is s[1] and c[0] is not lin
    s2 = pickle.loads(pickle.dumps(Sequential(lin, relu)))
    assert s2[1] is relu and s2[0].W.shape == (3, 2)
