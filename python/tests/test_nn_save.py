"""clrt.save and clrt.load: state dicts and optimizer states through a .npz file (numpy
reads it too), no pickles, and damaged or foreign files refused clearly."""
import io
import json
import zipfile

import numpy as np
import pytest

import clrt
import clrt.nn as nn
import clrt.optim as optim


def small_net():
    return nn.Sequential(nn.Conv2d(1, 3, 3), nn.ReLU(), nn.Flatten(), nn.Linear(3 * 4 * 4, 5))


def test_state_dict_round_trip(tmp_path):
    clrt.manual_seed(0)
    net, other = small_net(), small_net()
    path = tmp_path / "net.pt"
    clrt.save(net.state_dict(), path)
    loaded = clrt.load(path)
    assert list(loaded) == ["0.weight", "0.bias", "3.weight", "3.bias"]
    assert all(isinstance(t, clrt.Tensor) and t.dtype == clrt.float32 for t in loaded.values())
    other.load_state_dict(loaded)
    x = clrt.randn(2, 1, 6, 6)
    with clrt.no_grad():
        np.testing.assert_array_equal(net(x).numpy(), other(x).numpy())
    with np.load(path) as npz:  # numpy reads the same file, by the state dict's keys
        np.testing.assert_array_equal(npz["3.bias"], net[3].bias.detach().numpy())


def test_nested_values_and_optimizer_state(tmp_path):
    p = nn.Parameter(clrt.randn(4))
    opt = optim.SGD([p], lr=0.1, momentum=0.9)
    p.grad = clrt.ones(4)
    opt.step()
    blob = {"epoch": 3, "loss": float("nan"), "best": float("inf"), "ok": True, "note": None,
            "ints": clrt.tensor([1, 2, 3]), "shape": (2, 3), "arr": np.arange(4.0),
            "model": {"w": p}, "optimizer": opt.state_dict()}
    buf = io.BytesIO()
    clrt.save(blob, buf)
    buf.seek(0)
    got = clrt.load(buf)
    assert got["epoch"] == 3 and np.isnan(got["loss"]) and got["best"] == float("inf")
    assert got["ok"] is True and got["note"] is None and got["shape"] == (2, 3)
    assert got["ints"].dtype == clrt.int64 and got["ints"].numpy().tolist() == [1, 2, 3]
    np.testing.assert_array_equal(got["arr"], np.arange(4.0))
    assert isinstance(got["model"]["w"], nn.Parameter) and got["model"]["w"].requires_grad
    state = got["optimizer"]["state"]
    assert list(state) == [0]  # int keys stay ints
    np.testing.assert_array_equal(state[0]["momentum_buffer"].numpy(), np.ones(4, np.float32))
    opt2 = optim.SGD([nn.Parameter(clrt.zeros(4))], lr=0.5)
    opt2.load_state_dict(got["optimizer"])
    assert opt2.param_groups[0]["lr"] == 0.1 and opt2.param_groups[0]["momentum"] == 0.9


def test_refuses_what_it_cannot_save_or_read(tmp_path):
    with pytest.raises(TypeError, match="cannot save object"):
        clrt.save({"f": object()}, tmp_path / "x")
    with pytest.raises(TypeError, match="holds Python objects"):
        clrt.save({"a": np.array([object()])}, tmp_path / "x")
    good = tmp_path / "good.pt"
    clrt.save({"w": clrt.ones(64)}, good)
    data = good.read_bytes()

    def refused(content, why):
        path = tmp_path / "bad.pt"
        path.write_bytes(content)
        with pytest.raises(RuntimeError, match=why) as e:
            clrt.load(path)
        assert "bad.pt" in str(e.value)

    refused(b"not a zip at all", "not a file clrt.save wrote, or a damaged one")
    refused(data[:len(data) // 2], "damaged")
    flipped = bytearray(data)
    at = data.index(b"\x00\x00\x80\x3f")  # a 1.0f of the tensor's values
    flipped[at + 3] ^= 0x01
    refused(bytes(flipped), "CRC-32")
    # a zip numpy wrote, without clrt's structure, and one with a pickled array in it
    np.savez(tmp_path / "plain.npz", w=np.ones(3))
    refused((tmp_path / "plain.npz").read_bytes(), "no clrt-structure.json")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        with zf.open("w.npy", "w") as f:
            np.lib.format.write_array(f, np.array([{"x": 1}], dtype=object), allow_pickle=True)
        zf.writestr("clrt-structure.json", json.dumps(
            {"format": "clrt.save", "version": 1, "object": {"ndarray": "w"}}))
    refused(buf.getvalue(), "pickle")

    def structured(head, entries=()):
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w") as zf:
            for name in entries:
                with zf.open(name, "w") as f:
                    np.lib.format.write_array(f, np.ones(3))
            zf.writestr("clrt-structure.json", json.dumps(head))
        return buf.getvalue()

    def head(obj, **kw):
        return dict({"format": "clrt.save", "version": 1, "object": obj}, **kw)

    refused(structured(head({"ndarray": "w"}, format="other")),
            "clrt-structure.json is not clrt.save's")
    refused(structured(head({"ndarray": "w"}, version=2), ["w.npy"]),
            "format version 2; this clrt reads version 1")
    refused(structured(head({"ndarray": "w"})), "no entry w.npy")
    refused(structured(head({"list": [1, {"set": [1]}]})), "unexpected element")
    refused(structured(head({"list": [1, []]})), "unexpected element")
    np.testing.assert_array_equal(  # and the same layout, right, loads
        clrt.load(io.BytesIO(structured(head({"ndarray": "w"}), ["w.npy"]))), np.ones(3))
