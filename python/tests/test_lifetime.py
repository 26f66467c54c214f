"""Use after close, arrays of another context, and cleanup: clear exceptions, no crash,
nothing left live (conftest checks the library's count at exit)."""
import gc

import numpy as np
import pytest

import clrt


def test_use_after_context_close():
    c = clrt.Context()
    a = clrt.to_device(np.ones((3, 3), np.float32), ctx=c)
    v, t = a[0:2, 0:2], a.T
    k = c.program("__kernel void z(__global float *x) { x[get_global_id(0)] = 0; }").kernel("z")
    c.close()
    c.close()  # a no-op
    for use in (a.get, v.get, t.get, lambda: a + a, lambda: a @ a, lambda: a.sum(),
                lambda: a[0:1, 0:1], lambda: k(a, global_size=9), lambda: c.finish(),
                lambda: clrt.empty(3, ctx=c), lambda: c.program("x"), lambda: a.set(np.ones((3, 3)))):
        with pytest.raises(clrt.Error, match="closed") as e:
            use()
        assert e.value.name == "CLRT_EINVAL"
    assert "closed" in repr(a) and "closed" in repr(c)


def test_array_close():
    a = clrt.to_device(np.ones(3, np.float32))
    b = a + 1.0
    a.close()
    a.close()
    with pytest.raises(clrt.Error, match="array used after it was closed"):
        a + b
    assert b.get().tolist() == [2, 2, 2]


def test_mixed_contexts(ctx):
    with clrt.Context() as other:
        a = clrt.to_device(np.ones((3, 3), np.float32), ctx=ctx)
        b = clrt.to_device(np.ones((3, 3), np.float32), ctx=other)
        for op in (lambda: a + b, lambda: a @ b, lambda: clrt.gemm(a, b), lambda: b * a,
                   lambda: clrt.add(a, a, out=b)):
            with pytest.raises(clrt.Error, match="different contexts") as e:
                op()
            assert e.value.name == "CLRT_EINVAL"


def test_temporaries_are_freed(ctx):
    """200 rounds of temporaries leave no more buffers than one round: the library's own
    count (kernels compiled in the first round stay cached in the context, as designed)."""
    from clrt import _lib

    def rounds(n, a):
        for _ in range(n):
            a = (a + 1.0) * 0.5 - a.T
            s = a.sum(axis=1) / a[1:3, :].max()
        return a, s

    a = clrt.to_device(np.ones((65, 65), np.float32), ctx=ctx)
    a, s = rounds(1, a)
    gc.collect()
    ctx.trim()
    owned, live = len(ctx._owned), _lib.lib.clrt_live_objects()
    a, s = rounds(200, a)
    gc.collect()
    assert ctx._pool_bytes <= 8 * 65 * 65 * 4  # a few temporaries' worth, reused
    ctx.trim()
    assert len(ctx._owned) == owned
    assert _lib.lib.clrt_live_objects() == live


def test_pool_reuses_and_frees(monkeypatch):
    from clrt import _buffer, _lib
    with clrt.Context() as c:
        a = clrt.to_device(np.ones((7, 17), np.float32), ctx=c)
        t = a + a
        ptr = t._st.ptr
        del t  # kept for reuse
        assert c._pool_bytes == 7 * 17 * 4
        u = a * a  # takes the pooled buffer
        assert u._st.ptr == ptr and c._pool_bytes == 0
        np.testing.assert_array_equal(u.get(), np.ones((7, 17)))
        a.close()  # an explicit close frees at once, not into the pool
        assert sum(map(len, c._pool.values())) <= 1
        monkeypatch.setattr(_buffer, "POOL_BYTES", 4096)
        big = clrt.empty((1, 1025), np.float32, ctx=c)
        before = _lib.lib.clrt_live_objects()
        del big  # over the pool's limit: freed
        assert _lib.lib.clrt_live_objects() == before - 1
        c.trim()
        assert c._pool_bytes == 0 and not any(c._pool.values())
