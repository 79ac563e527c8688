import io
import re

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import function_hooks
from chainer.backends import cuda


def _x():
    return chainer.Variable(numpy.arange(6, dtype=numpy.float32).reshape(2, 3))


def test_print_hook_forward_and_backward():
    x = _x()
    buf = io.StringIO()
    with function_hooks.PrintHook(file=buf):
        y = F.sum(F.exp(x))
        y.backward()
    out = re.sub('0x[0-9a-f]+', 'ADDR', buf.getvalue())
    assert out.startswith(
        'function\texp\ninput data\n<variable at ADDR>\n- device: CPU\n'
        "- backend: <class 'numpy.ndarray'>\n- shape: (2, 3)\n"
        '- dtype: float32\n'
        '- statistics: mean=2.50000000, std=1.70782518\n- grad: None\n')
    # In backward, the output gradient is shown as the grad of a zero
    # variable.
    assert 'output gradient\n<variable at ADDR>\n' in out
    assert '- grad: mean=1.00000000, std=0.00000000' in out
    assert 'function\tSum' in out


def test_print_hook_marks_each_missing_input():
    hook = function_hooks.PrintHook(file=io.StringIO())
    hook.backward_preprocess(F.math.exponential.Exp(),
                             (numpy.ones(2, numpy.float32), None, None),
                             (numpy.ones(2, numpy.float32),))
    out = hook.file.getvalue()
    # one line per input that was not retained, after the ones that were
    head = out.split('output gradient')[0]
    assert head.count('(removed)') == 2 and head.count('<variable at') == 1
    assert head.index('<variable at') < head.index('(removed)')


def test_backward_hooks_see_inputs_held_elsewhere():
    # As in Chainer, a hook in backward sees an input the function did not
    # retain when another holder still has it: ReLU retains its output,
    # the input of "_ * 2", and a's data is kept by retain_data; x
    # (nobody's) is not seen
    seen = []

    class Hook(chainer.FunctionHook):
        name = 'seen'

        def backward_preprocess(self, function, in_data, out_grad):
            seen.append((function.label, in_data))

    x = chainer.Variable(numpy.array([1., -2.], numpy.float32))
    a = x * 3
    a.retain_data()
    y = F.exp(F.relu(a) * 2)
    del a
    with Hook():
        F.sum(y).backward()
    d = dict(seen)
    numpy.testing.assert_array_equal(d['_ * 2'][0], [3., 0.])
    assert d['exp'] == (None,)  # it retains its output, not its input
    numpy.testing.assert_array_equal(d['ReLU'][0], [3., -6.])
    assert d['_ * 3'] == (None,)


def test_print_hook_end_and_sep():
    buf = io.StringIO()
    with pytest.warns(DeprecationWarning, match='sep argument'):
        hook = function_hooks.PrintHook(sep='|', end='#\n', file=buf)
    with hook:
        F.exp(_x())
    assert buf.getvalue().startswith('function\texp#\ninput data#\n')


def test_print_hook_on_one_function():
    buf = io.StringIO()
    node = F.math.exponential.Exp()
    node.add_hook(function_hooks.PrintHook(file=buf))
    node.apply((_x(),))
    F.exp(_x())  # not hooked
    assert buf.getvalue().count('function\t') == 1


def test_timer_hook_records_calls():
    x = _x()
    with function_hooks.TimerHook() as hook:
        y = F.sum(F.exp(x))
        y.backward()
        F.exp(x)
    names = [name for name, _ in hook.call_history]
    assert names[:2] == ['Exp', 'Sum']
    assert names.count('Exp') >= 2
    summary = hook.summary()
    assert summary['Exp']['occurrence'] == names.count('Exp')
    total = sum(t for _, t in hook.call_history)
    assert 0 < hook.total_time() <= total + 1e-12
    assert list(summary)[0] == 'Exp'


def test_timer_hook_report_format():
    hook = function_hooks.TimerHook()
    hook.call_history = [('A', 1.5), ('LongFunctionNameHere', 2e-3),
                         ('A', 3e-9), ('B', 0.0)]
    buf = io.StringIO()
    hook.print_report(file=buf)
    assert buf.getvalue() == (
        '        FunctionName  ElapsedTime  Occurrence\n'
        '                   A      1.50sec           2\n'
        'LongFunctionNameHere      0.00sec           1\n'
        '                   B      0.00sec           1\n')
    buf = io.StringIO()
    hook.print_report(unit='auto_foreach', file=buf)
    assert buf.getvalue().splitlines()[2].split() == [
        'LongFunctionNameHere', '2.00ms', '1']
    buf = io.StringIO()
    hook.call_history = [('A', 1.5e-7)]
    hook.print_report(file=buf)
    assert buf.getvalue().splitlines()[1].split() == ['A', '150.00ns', '1']
    with pytest.raises(KeyError) as info:
        hook.print_report(unit='hours', file=buf)
    assert info.value.args == ('hours',)   # Chainer's table lookup


def test_timer_hook_empty_report():
    buf = io.StringIO()
    function_hooks.TimerHook().print_report(file=buf)
    assert buf.getvalue() == 'FunctionName  ElapsedTime  Occurrence\n'


def test_hooks_are_function_hooks():
    for cls in (function_hooks.PrintHook, function_hooks.TimerHook,
                function_hooks.CupyMemoryProfileHook,
                function_hooks.CUDAProfileHook):
        assert issubclass(cls, chainer.FunctionHook)


@pytest.mark.skipif(cuda.available, reason='checks the CuPy-less error')
def test_cupy_hooks_need_cupy():
    # Chainer's words (check_cuda_available)
    with pytest.raises(RuntimeError, match='^CUDA environment is not '):
        function_hooks.CupyMemoryProfileHook()
    with pytest.raises(RuntimeError, match='^CUDA environment is not '):
        function_hooks.CUDAProfileHook()


@pytest.mark.gpu
@pytest.mark.skipif(not cuda.available, reason='needs CuPy')
def test_cupy_memory_profile_hook():
    x = chainer.Variable(cuda.to_gpu(numpy.ones((100, 100), numpy.float32)))
    with function_hooks.CupyMemoryProfileHook() as hook:
        F.exp(x)
    assert hook.summary()['Exp']['occurrence'] == 1
    buf = io.StringIO()
    hook.print_report(file=buf)
    assert 'Exp' in buf.getvalue()


def test_hook_added_to_a_legacy_function_after_the_call_sees_backward():
    class Ident(chainer.Function):
        def forward(self, inputs):
            return inputs[0],

        def backward(self, inputs, grads):
            return grads[0],

    f = Ident()
    y = f(chainer.Variable(numpy.ones(2, numpy.float32)))
    out = io.StringIO()
    f.add_hook(function_hooks.PrintHook(file=out))
    y.grad = numpy.ones(2, numpy.float32)
    y.backward()
    assert out.getvalue().startswith('function\tIdent\ninput data\n')
    assert 'output gradient' in out.getvalue()


def test_impl_name_is_the_implementing_class():
    from chainer.functions.math.exponential import Exp
    assert Exp()._impl_name == 'Exp'

    class Legacy(chainer.Function):
        def forward(self, inputs):
            return inputs[0],

    assert Legacy().node._impl_name == 'Legacy'
    hook = function_hooks.TimerHook()
    f = Exp()
    f.add_hook(hook)
    f.apply((chainer.Variable(numpy.ones(2, numpy.float32)),))
    assert [name for name, _ in hook.call_history] == ['Exp']
