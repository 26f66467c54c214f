"""clrt.Tensor as a PyTorch user meets it: creation, dtypes (int64 and bool held as int32),
promotion, comparisons, views sharing memory, reductions with dim/keepdim, repr as
PyTorch prints, devices, seeded random numbers, and errors of PyTorch's types."""
import numpy as np
import pytest

import clrt


def test_creation(torch):
    cases = [lambda m: m.zeros(2, 3), lambda m: m.ones((4,), dtype=m.float64),
             lambda m: m.full((2, 2), 7), lambda m: m.full((3,), 1.5), lambda m: m.arange(5),
             lambda m: m.arange(1.0, 2.0, 0.25), lambda m: m.arange(2, 11, 3),
             lambda m: m.linspace(0, 1, 5), lambda m: m.eye(3, 4), lambda m: m.tensor([[1, 2]]),
             lambda m: m.tensor(2.5), lambda m: m.tensor([True, False]),
             lambda m: m.zeros_like(m.ones(2, 2, dtype=m.int32)),
             lambda m: m.ones_like(m.zeros(3), dtype=m.float64),
             lambda m: m.full_like(m.zeros(2), 3.0)]
    for make in cases:
        got, ref = make(clrt), make(torch)
        assert tuple(got.shape) == tuple(ref.shape) and str(got.dtype) == str(ref.dtype)[6:]
        np.testing.assert_allclose(got.numpy(), ref.numpy(), rtol=1e-6)
        assert repr(got) == repr(ref).replace("torch.", "clrt.")
    a = np.arange(6, dtype=np.int64).reshape(2, 3)
    t = clrt.from_numpy(a)
    assert t.dtype == clrt.int64 and t.shape == clrt.Size([2, 3]) and t.size() == (2, 3)
    assert t.size(1) == 3 and t.size == 6 and t.dim() == 2 and t.numel() == 6
    assert t[1, 2].item() == 5 and isinstance(t[1, 2].item(), int)


def test_random_is_seeded_and_distributed():
    clrt.manual_seed(3)
    a = clrt.randn(200, 500)
    b = clrt.rand(100000, dtype=clrt.float64)
    clrt.manual_seed(3)
    np.testing.assert_array_equal(clrt.randn(200, 500).numpy(), a.numpy())
    x = a.numpy().astype(np.float64)
    assert abs(x.mean()) < 0.01 and abs(x.std() - 1) < 0.01
    y = b.numpy()
    assert y.min() >= 0 and y.max() < 1 and abs(y.mean() - 0.5) < 0.005
    assert not np.array_equal(clrt.randn(5).numpy(), clrt.randn(5).numpy())
    r = clrt.randint(0, 10, (1000,))
    assert r.dtype == clrt.int64 and set(np.unique(r.numpy())) == set(range(10))
    d = clrt._functional.dropout(clrt.ones(10000), 0.25)
    kept = d.numpy()
    assert set(np.unique(kept)) == {0.0, np.float32(1 / 0.75)}
    assert abs((kept == 0).mean() - 0.25) < 0.02
    assert clrt._functional.dropout(a, 0.5, training=False) is a


def test_dtypes_and_promotion(torch):
    pairs = [("int64 + float", lambda m: m.tensor([1, 2]) + 0.5),
             ("int32 + int64", lambda m: m.tensor([1], dtype=m.int32) + m.tensor([2])),
             ("float32 * float64", lambda m: m.ones(2) * m.ones(2, dtype=m.float64)),
             ("int / int", lambda m: m.tensor([3, 4]) / 2),
             ("int // int", lambda m: m.tensor([-7, 7]) // 2),
             ("int % int", lambda m: m.tensor([-7, 7]) % 3),
             ("float % float", lambda m: m.tensor([-7.5, 7.5]) % 2.0),
             ("bool + bool", lambda m: m.tensor([True, False]) + m.tensor([True, True])),
             ("compare", lambda m: m.tensor([1.0, 2.0, 3.0]) >= m.tensor([2.0])),
             ("eq", lambda m: m.tensor([1, 2, 3]) == 2),
             ("and", lambda m: (m.tensor([1, 2, 3]) > 1) & (m.tensor([1, 2, 3]) < 3)),
             ("invert", lambda m: ~(m.tensor([1, 2]) > 1)),
             ("int sum", lambda m: m.tensor([[1, 2], [3, 4]], dtype=m.int32).sum(0)),
             ("bool sum", lambda m: (m.tensor([1, 2, 3]) > 1).sum()),
             ("exp of int", lambda m: m.exp(m.tensor([0, 1]))),
             ("argmax", lambda m: m.tensor([[1.0, 5.0, 5.0], [7.0, 0.0, 7.0]]).argmax(1)),
             ("argmin", lambda m: m.tensor([[1.0, -5.0, -5.0]]).argmin(dim=1, keepdim=True)),
             ("max dim", lambda m: m.max(m.tensor([[1.0, 5.0], [7.0, 2.0]]), 1)[1]),
             ("to long", lambda m: m.tensor([-1.7, 2.9]).long()),
             ("to bool", lambda m: m.tensor([0.0, 0.5]).bool()),
             ("std", lambda m: m.tensor([[1.0, 2.0, 4.0], [3.0, 3.0, 9.0]]).std(1)),
             ("var all", lambda m: m.tensor([[1.0, 2.0, 4.0], [3.0, 3.0, 9.0]]).var()),
             ("mean keepdim", lambda m: m.ones(2, 3, 4).mean((0, 2), keepdim=True)),
             ("matmul 3-D", lambda m: m.ones(2, 3, 4) @ m.ones(2, 4, 5)),
             ("clamp int", lambda m: m.tensor([-5, 0, 5]).clamp(-2, 3))]
    for name, f in pairs:
        got, ref = f(clrt), f(torch)
        assert str(got.dtype) == str(ref.dtype)[6:], name
        assert tuple(got.shape) == tuple(ref.shape), name
        np.testing.assert_allclose(got.numpy(), ref.numpy(), rtol=1e-6, err_msg=name)


def test_views_share_memory():
    a = clrt.arange(24, dtype=clrt.float32)
    v = a.view(2, 3, 4)
    for w in (v.permute(2, 0, 1), v.transpose(0, 2), v[1], v[:, 1:, ::2], v.unsqueeze(1),
              v[None].squeeze(0), v.flatten(), v.reshape(6, 4), v[0].t(), v.expand(3, 2, 3, 4)):
        assert w._st is a._st  # no copy
    v[1, 2, 3] = -1.0
    assert a[23].item() == -1.0
    p = v.permute(2, 0, 1)
    assert not p.is_contiguous()
    r = p.reshape(-1)  # not expressible as a view: copied, as PyTorch
    assert r._st is not a._st
    np.testing.assert_array_equal(r.numpy(), a.numpy().reshape(2, 3, 4).transpose(2, 0, 1).ravel())
    with pytest.raises(RuntimeError, match="view size is not compatible"):
        p.view(-1)
    c = p.contiguous()
    assert c.is_contiguous() and c.view(-1)._st is c._st


def test_devices():
    d = clrt.device()
    assert d == clrt.ones(1).device and d.context is clrt.default_context()
    assert clrt.device(str(d.index)) == d and clrt.device(d.type) == d
    a = clrt.ones(3)
    assert a.to(d) is a and a.to("0") is a and a.cpu() is a
    with clrt.Context() as other:
        b = a.to(other)
        assert b.context is other and b.device != a.device
        np.testing.assert_array_equal(b.numpy(), [1, 1, 1])
    with pytest.raises(clrt.Error) as e:
        clrt.device("no-such-device-xyz")
    assert e.value.name == "CLRT_ENODEVICE"
    assert a.to(clrt.float64).dtype == clrt.float64 and a.to(a) is a
    # PyTorch's usual choice picks the CPU OpenCL device: clrt has no CUDA
    assert not clrt.cuda.is_available() and clrt.cuda.device_count() == 0
    cpu = clrt.device("cuda:0" if clrt.cuda.is_available() else "cpu")
    assert cpu.type == "cpu" and clrt.ones(2).to(cpu).device == cpu


def test_errors_speak_pytorch():
    a, b = clrt.ones(2, 3), clrt.ones(4, 5)
    with pytest.raises(RuntimeError, match=r"size of tensor a \(3\) must match the size of "
                                           r"tensor b \(5\).*\(2, 3\) and \(4, 5\)"):
        a + b
    with pytest.raises(RuntimeError, match=r"mat1 and mat2 shapes cannot be multiplied \(2x3 "
                                           r"and 4x5\)"):
        a @ b
    with pytest.raises(RuntimeError, match="conv2d.*expected input.*to have 2 channels, but got "
                                           "1 channels"):
        clrt._functional.conv2d(clrt.ones(1, 1, 5, 5), clrt.ones(3, 2, 3, 3))
    with pytest.raises(RuntimeError, match=r"linear: mat1 and mat2 shapes.*input \(2, 3\), "
                                           r"weight \(5, 4\)"):
        clrt._functional.linear(a, clrt.ones(5, 4))
    with pytest.raises(RuntimeError, match="expected target of class indices of dtype int64"):
        clrt._functional.cross_entropy(a, clrt.ones(2))
    with pytest.raises(IndexError, match="Target 3 is out of bounds"):
        clrt._functional.cross_entropy(a, clrt.tensor([0, 3]))
    with pytest.raises(IndexError, match="Target -1 is out of bounds"):
        clrt._functional.cross_entropy(a, clrt.tensor([-1, 0]) + 0)  # range read back
    t = clrt.tensor([0, 1])  # a range known from the host, then written through a view
    v = t[1:]
    v += 5
    with pytest.raises(IndexError, match="Target 6 is out of bounds"):
        clrt._functional.cross_entropy(a, t)
    u = clrt.tensor([0, 9])  # a window holds fewer values than its parent: no false alarm
    np.testing.assert_allclose(clrt._functional.cross_entropy(clrt.zeros(1, 3), u[:1]).item(),
                               np.log(3), rtol=1e-6)
    with pytest.raises(RuntimeError, match="float32 or float64"):
        clrt._functional.conv2d(clrt.ones(1, 1, 3, 3, dtype=clrt.int64), clrt.ones(1, 1, 2, 2))
    with pytest.raises(TypeError, match="must be Tensor"):
        clrt.exp([1.0])
    with pytest.raises(IndexError, match="Dimension out of range"):
        a.sum(2)
    with pytest.raises(ValueError, match="cannot be converted to Scalar"):
        a.item()
    with pytest.raises(TypeError):
        a + "x"
